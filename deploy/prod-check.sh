#!/usr/bin/env bash
# `make prod-check`: the back office as deploy/ installs it, on this machine, then a smoke
# journey through nginx over HTTPS (deploy/prod_check/smoke.py).
#
# A fresh database owned by its own owner role, the app connecting as a role that owns
# nothing (manage.py db_roles), through PgBouncer (deploy/pgbouncer.ini); gunicorn, the
# Celery worker and beat started with the ExecStart lines of deploy/casino-*.service (no
# systemd here: the same command lines, read from the units); nginx with deploy/nginx-casino.conf, its paths and ports put in place;
# a self-signed certificate; DEBUG off. Everything it starts is stopped on exit, and the
# database and its roles dropped. Needs root (or nginx and PgBouncer installed) and the local PostgreSQL
# and Redis of `make test`. PROD_CHECK_REDIS_DB picks the Redis database it uses (and empties).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PY="$ROOT/.venv/bin/python"
PG_SERVER="${PROD_CHECK_PG:-postgres://postgres@127.0.0.1:5432}"
REDIS_DB="${PROD_CHECK_REDIS_DB:-12}"
DB=casino_prod_check
OWNER=casino_prod_check_owner
APP=casino_prod_check_app
RUN="$(mktemp -d /tmp/casino-prod-check.XXXXXX)"
# PgBouncer runs as PostgreSQL's user: its files in a folder that user may enter
PGB="$(mktemp -d /tmp/casino-prod-check-pgbouncer.XXXXXX)"
PIDS=()

say() { printf '%s\n' "$*"; }
pass() { say "PASS  $*"; }
fail() { say "FAIL  $*"; exit 1; }
psql_admin() { PGOPTIONS="-c client_min_messages=warning" psql "$PG_SERVER/${2:-postgres}" -v ON_ERROR_STOP=1 -qAt -c "$1"; }

cleanup() {
  local status=$?
  set +e
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null
  done
  psql_admin "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null 2>&1
  psql_admin "DROP ROLE IF EXISTS $APP" >/dev/null 2>&1
  psql_admin "DROP ROLE IF EXISTS $OWNER" >/dev/null 2>&1
  redis-cli -n "$REDIS_DB" flushdb >/dev/null 2>&1
  if [ "$status" -ne 0 ]; then
    say "prod-check FAILED; the services' logs:"
    for log in "$RUN"/*.log "$PGB"/*.log; do [ -f "$log" ] && { say "--- $log"; tail -n 30 "$log"; }; done
  fi
  rm -rf "$RUN" "$PGB"
  exit "$status"
}
trap cleanup EXIT INT TERM

# A unit's ExecStart line, as systemd would run it here: the app's folder in place of
# /srv/casino/app, the host's name for %H.
exec_start() {
  sed -n 's/^ExecStart=//p' "$ROOT/deploy/$1" \
    | sed -e "s#/srv/casino/app#$ROOT#g" -e "s#%H#$(hostname)#g"
}

# 1. nginx (Debian's package, as .ci/run installs the others)
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  say "installing Debian's nginx"
  export DEBIAN_FRONTEND=noninteractive
  (apt-get install -y -qq nginx-light >/dev/null 2>&1 \
    || (apt-get update -qq && apt-get install -y -qq nginx-light >/dev/null)) \
    || fail "nginx: could not install it"
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
pass "nginx $("$NGINX" -v 2>&1 | sed 's/.*nginx\///')"
if ! command -v pgbouncer >/dev/null 2>&1 && [ ! -x /usr/sbin/pgbouncer ]; then
  say "installing Debian's pgbouncer"
  export DEBIAN_FRONTEND=noninteractive
  (apt-get install -y -qq pgbouncer >/dev/null 2>&1 \
    || (apt-get update -qq && apt-get install -y -qq pgbouncer >/dev/null)) \
    || fail "pgbouncer: could not install it"
fi
PGBOUNCER="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"
pass "$("$PGBOUNCER" --version | head -n 1)"

# 2. a self-signed certificate for localhost
mkdir -p "$RUN/tls" "$RUN/metrics" "$RUN/nginx"
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=localhost" \
  -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
  -keyout "$RUN/tls/privkey.pem" -out "$RUN/tls/fullchain.pem" >/dev/null 2>&1 \
  || fail "certificate"
pass "self-signed certificate"

# 3. the database: an owner, the app's role that owns nothing (docs/OPERATIONS.md
#    "Database roles"), migrated as the owner
psql_admin "DROP DATABASE IF EXISTS $DB WITH (FORCE)"
psql_admin "DROP ROLE IF EXISTS $APP"
psql_admin "DROP ROLE IF EXISTS $OWNER"
psql_admin "CREATE ROLE $OWNER LOGIN"
psql_admin "CREATE ROLE $APP LOGIN NOINHERIT"
psql_admin "CREATE DATABASE $DB OWNER $OWNER ENCODING 'UTF8' TEMPLATE template0"
psql_admin "ALTER SCHEMA public OWNER TO $OWNER; REVOKE CREATE ON SCHEMA public FROM PUBLIC" "$DB"
# four distinct ports below the kernel's ephemeral range (tests/ports.py says why)
read -r HTTPS_PORT HTTP_PORT WEB_PORT POOL_PORT <<<"$("$PY" -m tests.ports 4 | tr '\n' ' ')"
[ -n "${POOL_PORT:-}" ] || fail "no four free ports below the kernel's ephemeral range"
POOL_SECRET="$("$PY" -c 'import secrets; print(secrets.token_urlsafe(24))')"
cat >"$RUN/env" <<ENV
SECRET_KEY=$("$PY" -c 'import secrets; print(secrets.token_urlsafe(64))')
DEBUG=0
ALLOWED_HOSTS=localhost,127.0.0.1
CSRF_TRUSTED_ORIGINS=https://localhost:$HTTPS_PORT
DATABASE_URL=postgres://$APP:$POOL_SECRET@127.0.0.1:$POOL_PORT/$DB
DB_BEHIND_PGBOUNCER=1
CELERY_BROKER_URL=redis://127.0.0.1:6379/$REDIS_DB
CACHE_URL=redis://127.0.0.1:6379/$REDIS_DB
CACHE_KEY_PREFIX=prod-check
LOGIN_CLIENT_IP_HEADER=HTTP_X_REAL_IP
PROMETHEUS_MULTIPROC_DIR=$RUN/metrics
GUNICORN_BIND=127.0.0.1:$WEB_PORT
GUNICORN_WORKERS=2
LOG_LEVEL=WARNING
ENV
set -a
# shellcheck disable=SC1091
. "$RUN/env"
set +a
redis-cli -n "$REDIS_DB" flushdb >/dev/null
DATABASE_URL="postgres://$OWNER@127.0.0.1:5432/$DB" "$PY" manage.py migrate --noinput \
  >"$RUN/migrate.log" 2>&1 || fail "migrate as $OWNER (see above)"
DATABASE_URL="postgres://$OWNER@127.0.0.1:5432/$DB" "$PY" manage.py db_roles --app-role "$APP" \
  >"$RUN/db_roles.log" 2>&1 || fail "db_roles --app-role $APP"
pass "database $DB migrated as $OWNER; $APP granted its rows"
if psql "postgres://$APP@127.0.0.1:5432/$DB" -qAt \
  -c "UPDATE casino_ledgerentry SET amount = amount WHERE false" >/dev/null 2>&1; then
  fail "$APP may UPDATE the ledger"
fi
if psql "postgres://$APP@127.0.0.1:5432/$DB" -qAt \
  -c "DELETE FROM casino_auditevent WHERE false" >/dev/null 2>&1; then
  fail "$APP may DELETE from the audit trail"
fi
owned="$(psql_admin "SELECT count(*) FROM pg_class c JOIN pg_roles r ON r.oid = c.relowner WHERE r.rolname = '$APP'" "$DB")"
[ "$owned" = 0 ] || fail "$APP owns $owned relations"
pass "$APP owns nothing, may not UPDATE the ledger nor DELETE the audit trail"

# 3b. PgBouncer in transaction mode with deploy/pgbouncer.ini, its paths, port and database
#     put in place; the app's role logs in to it with a password (SCRAM, as deployed)
sed -e "s#^casino = host=db port=5432 dbname=casino#$DB = host=127.0.0.1 port=5432 dbname=$DB#" \
  -e "s#^listen_port = 6432#listen_port = $POOL_PORT#" \
  -e "s#/etc/pgbouncer/#$PGB/#g" -e "s#/var/log/postgresql/#$PGB/#g" \
  -e "s#/var/run/postgresql#$PGB#g" \
  deploy/pgbouncer.ini >"$PGB/pgbouncer.ini"
printf '"%s" "%s"\n"postgres" "%s"\n' "$APP" "$POOL_SECRET" "$POOL_SECRET" >"$PGB/userlist.txt"
if [ "$(id -u)" = 0 ]; then chown -R postgres "$PGB"; fi
chmod 0700 "$PGB"
if [ "$(id -u)" = 0 ]; then
  runuser -u postgres -- "$PGBOUNCER" "$PGB/pgbouncer.ini" >"$PGB/stdout.log" 2>&1 &
else
  "$PGBOUNCER" "$PGB/pgbouncer.ini" >"$PGB/stdout.log" 2>&1 &
fi
PIDS+=("$!")
for _ in $(seq 1 50); do
  PGPASSWORD="$POOL_SECRET" psql -h 127.0.0.1 -p "$POOL_PORT" -U "$APP" -d "$DB" -qAt \
    -c "SELECT 1" >/dev/null 2>&1 && break
  sleep 0.2
done
PGPASSWORD="$POOL_SECRET" psql -h 127.0.0.1 -p "$POOL_PORT" -U "$APP" -d "$DB" -qAt -c "SELECT 1" \
  >/dev/null 2>&1 || fail "PgBouncer did not let $APP in (see its log)"
pass "PgBouncer (deploy/pgbouncer.ini) on port $POOL_PORT, transaction mode, SCRAM"

# 4. the deploy's steps as the services' user (docs/OPERATIONS.md "Deploying")
"$PY" manage.py check --deploy --fail-level WARNING >"$RUN/check.log" 2>&1 \
  || { cat "$RUN/check.log"; fail "manage.py check --deploy"; }
pass "manage.py check --deploy"
"$PY" manage.py collectstatic --noinput >"$RUN/collectstatic.log" 2>&1 || fail "collectstatic"
"$PY" manage.py setup_schedules >"$RUN/schedules.log" 2>&1 || fail "setup_schedules"
pass "collectstatic, setup_schedules"
"$PY" deploy/prod_check/seed.py >"$RUN/seed.json" 2>"$RUN/seed.log" || fail "the journey's people"
pass "a venue, a table and its staff (TOTP devices for those who need one)"

# 5. the services, as their units start them
start() { # name, unit
  local command
  command="$(exec_start "$2")"
  # shellcheck disable=SC2086
  $command >"$RUN/$1.log" 2>&1 &
  PIDS+=("$!")
}
start web casino-web.service
start worker casino-worker.service
start beat casino-beat.service
for _ in $(seq 1 60); do
  curl -fsS -o /dev/null "http://127.0.0.1:$WEB_PORT/healthz" 2>/dev/null && break
  sleep 1
done
curl -fsS -o /dev/null "http://127.0.0.1:$WEB_PORT/healthz" || fail "gunicorn did not answer"
pass "gunicorn (deploy/gunicorn.conf.py), Celery worker and beat started as the units say"

# 6. nginx with the site file, its paths and ports put in place
sed -e "s#listen 80;#listen 127.0.0.1:$HTTP_PORT;#" \
  -e "s#listen 443 ssl;#listen 127.0.0.1:$HTTPS_PORT ssl;#" \
  -e "s#/etc/ssl/casino/#$RUN/tls/#g" \
  -e "s#/srv/casino/app/#$ROOT/#g" \
  -e "s#/etc/nginx/casino_proxy.conf#$ROOT/deploy/casino_proxy.conf#g" \
  -e "s#127.0.0.1:8001#127.0.0.1:$WEB_PORT#g" \
  deploy/nginx-casino.conf >"$RUN/nginx/site.conf"
cat >"$RUN/nginx/nginx.conf" <<NGINX
worker_processes 1;
pid $RUN/nginx/nginx.pid;
error_log $RUN/nginx.log warn;
daemon off;
$( [ "$(id -u)" = 0 ] && echo "user root;" )
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log $RUN/nginx-access.log;
    client_body_temp_path $RUN/nginx/body;
    proxy_temp_path $RUN/nginx/proxy;
    fastcgi_temp_path $RUN/nginx/fastcgi;
    uwsgi_temp_path $RUN/nginx/uwsgi;
    scgi_temp_path $RUN/nginx/scgi;
    include $RUN/nginx/site.conf;
}
NGINX
"$NGINX" -t -c "$RUN/nginx/nginx.conf" -p "$RUN/nginx" >"$RUN/nginx-test.log" 2>&1 \
  || { cat "$RUN/nginx-test.log"; fail "nginx -t"; }
"$NGINX" -c "$RUN/nginx/nginx.conf" -p "$RUN/nginx" >>"$RUN/nginx.log" 2>&1 &
PIDS+=("$!")
for _ in $(seq 1 30); do
  curl -fsS -o /dev/null --cacert "$RUN/tls/fullchain.pem" "https://localhost:$HTTPS_PORT/healthz" \
    2>/dev/null && break
  sleep 0.5
done
kill -0 "${PIDS[-1]}" 2>/dev/null || fail "nginx exited (its log below)"
curl -fsS -o /dev/null --cacert "$RUN/tls/fullchain.pem" "https://localhost:$HTTPS_PORT/healthz" \
  || fail "nginx did not answer over HTTPS on $HTTPS_PORT"
pass "nginx on https://localhost:$HTTPS_PORT (deploy/nginx-casino.conf)"

# 7. the journey
"$PY" deploy/prod_check/smoke.py --base "https://localhost:$HTTPS_PORT" \
  --plain "http://localhost:$HTTP_PORT" --web "http://127.0.0.1:$WEB_PORT" \
  --ca "$RUN/tls/fullchain.pem" --seed "$RUN/seed.json"
# SHOW STATS: database, total_xact_count, ...
transactions="$(PGPASSWORD="$POOL_SECRET" psql -h 127.0.0.1 -p "$POOL_PORT" -U postgres \
  -d pgbouncer -qAt -F '|' -c "SHOW STATS" | awk -F '|' -v db="$DB" '$1 == db { print $2 }')"
[ "${transactions:-0}" -gt 0 ] || fail "no transaction of the app went through PgBouncer"
pass "the app's $transactions transactions went through PgBouncer"
say "prod-check PASSED"
