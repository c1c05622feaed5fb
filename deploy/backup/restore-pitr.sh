#!/usr/bin/env bash
# A point-in-time restore: a base backup (base-backup.sh) and the WAL archive
# (archive-wal.sh) replayed onto a scratch data directory and port, up to a moment (for
# instance just before a bad change), then promoted: a server of its own, never the
# primary. Installed as /usr/local/lib/casino/backup/restore-pitr.sh (root, 0755); run as
# postgres, on the scratch host (docs/OPERATIONS.md "Restore drill").
#
#   restore-pitr.sh [--base DIR] (--time TIME | --name NAME | --latest) [--timeout SECONDS]
#                   DATA_DIR PORT
#
#   DATA_DIR    the new data directory: absent or empty (made 0700)
#   PORT        its port; it listens on 127.0.0.1 only, its socket in DATA_DIR
#   --time      recovery_target_time: replay every transaction committed up to TIME
#               (e.g. '2026-11-29 03:00:00+07'; give the zone), none after it
#   --name      recovery_target_name: up to a restore point made with
#               SELECT pg_create_restore_point('NAME') (before a risky change)
#   --latest    everything the archive holds
#   --base      the base backup directory [with --time: the newest in BACKUP_BASE that
#               started before TIME; else the newest]
#   --timeout   seconds the replay may take before the restore is declared failed [3600]
#
# Environment: BACKUP_BASE [/backup/base], WAL_ARCHIVE [/backup/wal], PG_BIN [the newest
# /usr/lib/postgresql/*/bin].
#
# Steps: unpack base.tar.gz and pg_wal.tar.gz; pg_verifybackup against the backup's
# manifest (every file's checksum, and the WAL it needs); the recovery settings in
# postgresql.auto.conf (restore_command from WAL_ARCHIVE, the target,
# recovery_target_action = 'promote', archive_mode off so a copy never writes into the
# primary's archive); recovery.signal; start; wait until recovery has ended. It prints how
# long each part took and where replay stopped; the server is left running (stop it with
# pg_ctl -D DATA_DIR stop), its log in DATA_DIR/restore.log.
set -euo pipefail

usage() { grep -A 1 '^#   restore-pitr.sh \[' "$0" | sed 's/^#   //' >&2; exit 2; }
fail() { echo "restore-pitr: $*" >&2; exit 1; }
now_ns() { date +%s%N; }
seconds_since() { # start in ns -> "12.345"
  local ms=$((($(now_ns) - $1) / 1000000))
  printf '%d.%03d' $((ms / 1000)) $((ms % 1000))
}

BACKUP_BASE="$(realpath -m "${BACKUP_BASE:-/backup/base}")"
WAL_ARCHIVE="$(realpath -m "${WAL_ARCHIVE:-/backup/wal}")"
if [ -z "${PG_BIN:-}" ]; then
  PG_BIN="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -n 1)"
fi
BASE="" TARGET_TIME="" TARGET_NAME="" LATEST="" TIMEOUT=3600
while [ "$#" -gt 0 ]; do
  case "$1" in
    --base) BASE="$(realpath -m "$2")"; shift 2 ;;
    --time) TARGET_TIME="$2"; shift 2 ;;
    --name) TARGET_NAME="$2"; shift 2 ;;
    --latest) LATEST=1; shift ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    -h | --help) usage ;;
    -*) echo "restore-pitr: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
[ "$#" -eq 2 ] || usage
DATA_DIR="$(realpath -m "$1")"
PORT="$2"
# The tools run from / : run as postgres from a folder postgres may not enter (sudo -u
# postgres from root's home), find and the server fail on their working directory.
cd /
[ "$(id -u)" -ne 0 ] || fail "run it as postgres (the server refuses root)"
[ -x "$PG_BIN/pg_ctl" ] || fail "no pg_ctl in PG_BIN='$PG_BIN'"
targets=0
for given in "$TARGET_TIME" "$TARGET_NAME" "$LATEST"; do [ -z "$given" ] || targets=$((targets + 1)); done
[ "$targets" -eq 1 ] || fail "give exactly one of --time, --name, --latest"
if [ -e "$DATA_DIR" ] && [ -n "$(ls -A "$DATA_DIR")" ]; then
  fail "$DATA_DIR is not empty"
fi

# The base backup: given, or the newest that started before the target time.
if [ -z "$BASE" ]; then
  before="9999"
  if [ -n "$TARGET_TIME" ]; then
    before="$(date -u -d "$TARGET_TIME" +%Y-%m-%dT%H%M%SZ)" || fail "cannot read --time '$TARGET_TIME'"
  fi
  for candidate in $(find "$BACKUP_BASE" -mindepth 1 -maxdepth 1 -type d -name '20*' -printf '%f\n' | sort -r); do
    if [[ "$candidate" < "$before" ]]; then BASE="$BACKUP_BASE/$candidate"; break; fi
  done
  [ -n "$BASE" ] || fail "no base backup in $BACKUP_BASE${TARGET_TIME:+ started before $TARGET_TIME}"
fi
[ -f "$BASE/base.tar.gz" ] && [ -f "$BASE/backup_manifest" ] \
  || fail "$BASE is not a base backup (base.tar.gz and backup_manifest)"
for archive in "$BASE"/*.tar.gz; do
  case "$(basename "$archive")" in
    base.tar.gz | pg_wal.tar.gz) ;;
    *) fail "$archive: a tablespace; this script restores the main data directory only" ;;
  esac
done

# 1. unpack and verify
started="$(now_ns)"
install -d -m 0700 "$DATA_DIR"
tar -xzf "$BASE/base.tar.gz" -C "$DATA_DIR"
if [ -f "$BASE/pg_wal.tar.gz" ]; then
  tar -xzf "$BASE/pg_wal.tar.gz" -C "$DATA_DIR/pg_wal"
fi
"$PG_BIN/pg_verifybackup" -q -m "$BASE/backup_manifest" "$DATA_DIR"
unpacked="$(seconds_since "$started")"

# 2. recovery settings. Debian keeps postgresql.conf and pg_hba.conf in /etc/postgresql/,
# outside the backup: then minimal ones (postgres by its socket, others with passwords:
# md5 asks SCRAM of a password stored so, and still takes an older md5 one).
[ -f "$DATA_DIR/postgresql.conf" ] || : >"$DATA_DIR/postgresql.conf"
if [ ! -f "$DATA_DIR/pg_hba.conf" ]; then
  printf '%s\n' "local all postgres peer" "host all all 127.0.0.1/32 md5" \
    >"$DATA_DIR/pg_hba.conf"
fi
if [ -n "$TARGET_TIME" ]; then
  target="recovery_target_time = '$TARGET_TIME'"
elif [ -n "$TARGET_NAME" ]; then
  target="recovery_target_name = '$TARGET_NAME'"
else
  target="# no recovery target: the whole archive"
fi
cat >>"$DATA_DIR/postgresql.auto.conf" <<CONF
# restore-pitr.sh, $(date -u +%FT%TZ), from $BASE
port = $PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DATA_DIR'
archive_mode = off
primary_conninfo = ''
synchronous_standby_names = ''
restore_command = 'cp "$WAL_ARCHIVE/%f" "%p"'
$target
recovery_target_action = 'promote'
CONF
touch "$DATA_DIR/recovery.signal"

# 3. start, and wait until replay has reached the target and the server is promoted
LOG="$DATA_DIR/restore.log"
replay_started="$(now_ns)"
"$PG_BIN/pg_ctl" -D "$DATA_DIR" -l "$LOG" -w -t "$TIMEOUT" start >/dev/null \
  || { tail -n 20 "$LOG" >&2; fail "the server did not start (log above)"; }
deadline=$(($(date +%s) + TIMEOUT))
until [ "$(PGCONNECT_TIMEOUT=5 "$PG_BIN/psql" -h "$DATA_DIR" -p "$PORT" -d postgres -XAtq \
  -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = "f" ]; do
  if ! "$PG_BIN/pg_ctl" -D "$DATA_DIR" status >/dev/null; then
    tail -n 20 "$LOG" >&2
    fail "the server stopped before recovery ended (log above)"
  fi
  if [ "$(date +%s)" -ge "$deadline" ]; then
    tail -n 20 "$LOG" >&2
    fail "recovery did not end within $TIMEOUT s (still running; log above)"
  fi
  sleep 0.2
done
replayed="$(seconds_since "$replay_started")"

segments="$(grep -c 'restored log file' "$LOG" || true)"
stopped="$(grep -m 1 -o -E 'recovery stopping .*|last completed transaction was at log time .*' "$LOG" || true)"
echo "restored $BASE and $segments archived WAL segment(s) into $DATA_DIR, port $PORT"
echo "where replay stopped: ${stopped:-the end of the archive}"
echo "unpacked and verified in $unpacked s; replayed and promoted in $replayed s; total $(seconds_since "$started") s"
