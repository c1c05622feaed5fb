#!/usr/bin/env bash
# The nightly base backup: pg_basebackup of the running primary, tar and gzip, with the WAL
# it needs and a manifest, into a directory named by its UTC start time; checked; then
# base backups older than KEEP_DAYS removed, with the archived WAL only they needed.
# Installed as /usr/local/lib/casino/backup/base-backup.sh (root, 0755), run as postgres
# by deploy/casino-base-backup.timer (docs/OPERATIONS.md "Backups and restore").
#
# Environment (defaults in brackets):
#   BACKUP_BASE  where base backups go [/backup/base], owned by postgres
#   WAL_ARCHIVE  the WAL archive archive-wal.sh fills [/backup/wal]
#   KEEP_DAYS    base backups kept, in days [14]; the newest is never removed
#   VERIFY       unpack: unpack the backup beside itself and run pg_verifybackup on it
#                (every file's checksum and the WAL it needs; needs the database's size
#                free for a moment); gzip: only test the archives' compression [unpack]
#   PG_BIN       PostgreSQL's programs [the newest /usr/lib/postgresql/*/bin]
#   PGHOST, PGPORT, PGUSER: the server, as libpq reads them [local socket, 5432, postgres]
#
# Prints one line: the directory made, its size, the time taken, where its WAL starts.
# A backup is made under a hidden name and renamed only once whole and checked, so a
# directory named by a date is always a complete backup.
set -euo pipefail

BACKUP_BASE="$(realpath -m "${BACKUP_BASE:-/backup/base}")"
WAL_ARCHIVE="$(realpath -m "${WAL_ARCHIVE:-/backup/wal}")"
# From / : run as postgres from a folder postgres may not enter (sudo -u postgres from
# root's home), find and pg_basebackup fail on their working directory.
cd /
KEEP_DAYS="${KEEP_DAYS:-14}"
VERIFY="${VERIFY:-unpack}"
if [ -z "${PG_BIN:-}" ]; then
  PG_BIN="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -n 1)"
fi
[ -x "$PG_BIN/pg_basebackup" ] || { echo "base-backup: no pg_basebackup in PG_BIN='$PG_BIN'" >&2; exit 2; }

STAMP="$(date -u +%Y-%m-%dT%H%M%SZ)"
DEST="$BACKUP_BASE/$STAMP"
PARTIAL="$BACKUP_BASE/.$STAMP.partial"
trap 'rm -rf "$PARTIAL"' EXIT
started="$(date +%s%N)"

# -Xstream: the WAL written during the backup travels with it (pg_wal.tar.gz), so the
# backup restores on its own even if the archive lost a segment.
"$PG_BIN/pg_basebackup" -D "$PARTIAL" -Ft -z -Xstream -c fast -l "casino $STAMP"

# Where its WAL starts (backup_label, the base archive's first file): the retention below
# keeps the archived WAL from the oldest kept backup's start.
tar --occurrence=1 -xzOf "$PARTIAL/base.tar.gz" backup_label \
  | sed -n 's/^START WAL LOCATION: .*(file \([0-9A-F]*\))$/\1/p' >"$PARTIAL/wal-start"
[ -s "$PARTIAL/wal-start" ] || { echo "base-backup: no START WAL LOCATION in backup_label" >&2; exit 1; }

case "$VERIFY" in
  unpack)
    # pg_verifybackup reads a plain directory only (before PostgreSQL 18): unpack a copy.
    mkdir -m 0700 "$PARTIAL/verify" "$PARTIAL/verify/pg_wal"
    tar -xzf "$PARTIAL/base.tar.gz" -C "$PARTIAL/verify"
    tar -xzf "$PARTIAL/pg_wal.tar.gz" -C "$PARTIAL/verify/pg_wal"
    "$PG_BIN/pg_verifybackup" -q -m "$PARTIAL/backup_manifest" "$PARTIAL/verify"
    rm -rf "$PARTIAL/verify"
    checked="verified (pg_verifybackup)"
    ;;
  gzip)
    gzip -t "$PARTIAL"/*.tar.gz
    checked="gzip-tested"
    ;;
  *)
    echo "base-backup: VERIFY is unpack or gzip, not '$VERIFY'" >&2
    exit 2
    ;;
esac
mv "$PARTIAL" "$DEST"
sync "$BACKUP_BASE"
elapsed_ms=$((($(date +%s%N) - started) / 1000000))

# Retention: base backups older than KEEP_DAYS (never the newest), then the archived WAL
# older than the oldest one kept (pg_archivecleanup leaves history files and others' names).
find "$BACKUP_BASE" -mindepth 1 -maxdepth 1 -type d -name '20*' -mtime +"$KEEP_DAYS" \
  ! -path "$DEST" -exec rm -rf {} +
oldest="$(find "$BACKUP_BASE" -mindepth 1 -maxdepth 1 -type d -name '20*' | sort | head -n 1)"
if [ -d "$WAL_ARCHIVE" ] && [ -s "$oldest/wal-start" ]; then
  "$PG_BIN/pg_archivecleanup" "$WAL_ARCHIVE" "$(cat "$oldest/wal-start")"
fi
kept="$(find "$BACKUP_BASE" -mindepth 1 -maxdepth 1 -type d -name '20*' | wc -l)"

printf 'base backup %s: %s in %d.%03d s, %s; WAL from %s; %s base backup(s) kept\n' \
  "$DEST" "$(du -sh "$DEST" | cut -f1)" $((elapsed_ms / 1000)) $((elapsed_ms % 1000)) "$checked" "$(cat "$DEST/wal-start")" "$kept"
