#!/usr/bin/env bash
# PostgreSQL on loopback for the world-postgres end-to-end suite.
#   scripts/postgres.sh start   install it if missing, start it if not running, create the role and
#                               database, bootstrap the Workflow SDK schema; prints the URL last
#   scripts/postgres.sh stop    stop the cluster again, if `start` was the one that started it
set -euo pipefail
cd "$(dirname "$0")/.."
state=target/e2e/postgres-started-by-us
url="postgres://hookwire:hookwire@127.0.0.1:5432/hookwire_e2e"
as_postgres() { if command -v runuser >/dev/null; then runuser -u postgres -- "$@"; else su postgres -c "$(printf '%q ' "$@")"; fi; }

case "${1:-}" in
start)
  mkdir -p target/e2e
  if ! command -v pg_ctlcluster >/dev/null || [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
    echo "[postgres] installing PostgreSQL (Debian package)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null 2>&1 || {
      DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null 2>&1
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null
    }
  fi
  if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    read -r version cluster _ < <(pg_lsclusters -h | head -1)
    echo "[postgres] starting cluster $version/$cluster" >&2
    pg_ctlcluster "$version" "$cluster" start
    echo "$version $cluster" > "$state"
    for _ in $(seq 1 50); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.2; done
  fi
  as_postgres psql -q -v ON_ERROR_STOP=1 -c "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'hookwire') THEN CREATE ROLE hookwire LOGIN PASSWORD 'hookwire'; END IF; END \$\$;" >&2
  as_postgres psql -q -c "DROP DATABASE IF EXISTS hookwire_e2e WITH (FORCE)" >&2
  as_postgres psql -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE hookwire_e2e OWNER hookwire" >&2
  WORKFLOW_POSTGRES_URL="$url" node e2e/node_modules/@workflow/world-postgres/bin/setup.js >&2
  echo "$url"
  ;;
stop)
  if [ -f "$state" ]; then
    read -r version cluster < "$state"
    echo "[postgres] stopping cluster $version/$cluster (this suite started it)" >&2
    pg_ctlcluster "$version" "$cluster" stop || true
    rm -f "$state"
  fi
  ;;
*)
  echo "usage: scripts/postgres.sh start|stop" >&2
  exit 2
  ;;
esac
