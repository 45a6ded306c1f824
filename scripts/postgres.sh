#!/usr/bin/env bash
# PostgreSQL on loopback for the world-postgres end-to-end suite.
#   scripts/postgres.sh start   install it if missing, start it if not running, create the role and
#                               database, bootstrap the Workflow SDK schema; prints the URL last
#   scripts/postgres.sh stop    stop the cluster again, if `start` was the one that started it
# A suite that restarts PostgreSQL, or must not share it, gets a cluster of its own:
#   scripts/postgres.sh cluster NAME PORT   create (afresh) and start cluster NAME on PORT, with the
#                                           role, a database and the Workflow SDK schema; prints the URL
#   scripts/postgres.sh cluster-stop NAME | cluster-start NAME   stop or start that server
#   scripts/postgres.sh cluster-drop NAME   stop it and delete it
set -euo pipefail
cd "$(dirname "$0")/.."
state=target/e2e/postgres-started-by-us
url="postgres://hookwire:hookwire@127.0.0.1:5432/hookwire_e2e"
as_postgres() { if command -v runuser >/dev/null; then runuser -u postgres -- "$@"; else su postgres -c "$(printf '%q ' "$@")"; fi; }
install() {
  # The suites that need PostgreSQL may start at once (node --test runs files concurrently): one
  # installs, the others wait for it (and apt waits for any other holder of dpkg's lock).
  mkdir -p target/e2e
  if command -v flock >/dev/null; then
    exec 9>target/e2e/postgres-install.lock
    flock 9
  fi
  if ! command -v pg_ctlcluster >/dev/null || [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
    echo "[postgres] installing PostgreSQL (Debian package)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 postgresql >/dev/null 2>&1 || {
      DEBIAN_FRONTEND=noninteractive apt-get update -q -o DPkg::Lock::Timeout=600 >/dev/null 2>&1
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 postgresql >/dev/null
    }
  fi
  if command -v flock >/dev/null; then exec 9>&-; fi
}
# The newest installed server version (the one `start` would have installed).
server_version() { find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -V | tail -1; }
wait_ready() { for _ in $(seq 1 100); do pg_isready -q -h 127.0.0.1 -p "$1" && return 0; sleep 0.2; done; return 1; }

case "${1:-}" in
start)
  mkdir -p target/e2e
  install
  if ! pg_isready -q -h 127.0.0.1 -p 5432; then
    # the cluster on 5432 (the package's own), not one a suite created for itself
    read -r version cluster _ < <(pg_lsclusters -h | awk '$3 == 5432' | head -1)
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
cluster)
  name="${2:?cluster NAME PORT}" port="${3:?cluster NAME PORT}"
  install
  version="$(server_version)"
  pg_dropcluster --stop "$version" "$name" >/dev/null 2>&1 || true
  echo "[postgres] creating cluster $version/$name on port $port" >&2
  pg_createcluster -q "$version" "$name" -p "$port" >/dev/null
  pg_ctlcluster "$version" "$name" start
  wait_ready "$port"
  as_postgres psql -q -p "$port" -v ON_ERROR_STOP=1 -c "CREATE ROLE hookwire LOGIN PASSWORD 'hookwire'" >&2
  as_postgres psql -q -p "$port" -v ON_ERROR_STOP=1 -c "CREATE DATABASE hookwire_e2e OWNER hookwire" >&2
  url="postgres://hookwire:hookwire@127.0.0.1:$port/hookwire_e2e"
  WORKFLOW_POSTGRES_URL="$url" node e2e/node_modules/@workflow/world-postgres/bin/setup.js >&2
  echo "$url"
  ;;
cluster-stop)
  pg_ctlcluster "$(server_version)" "${2:?cluster-stop NAME}" stop
  ;;
cluster-start)
  version="$(server_version)" name="${2:?cluster-start NAME}"
  pg_ctlcluster "$version" "$name" start
  wait_ready "$(pg_conftool -s "$version" "$name" show port)"
  ;;
cluster-drop)
  pg_dropcluster --stop "$(server_version)" "${2:?cluster-drop NAME}" || true
  ;;
*)
  echo "usage: scripts/postgres.sh start|stop|cluster NAME PORT|cluster-stop NAME|cluster-start NAME|cluster-drop NAME" >&2
  exit 2
  ;;
esac
