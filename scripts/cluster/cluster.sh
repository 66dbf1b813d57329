#!/usr/bin/env bash
# The cluster profile on one machine, from Debian packages and this build (docs/deployment.md):
#   HAProxy (:4100) -> 2 gateway + REST processes -> 3 subgraph processes; 2 worker processes;
#   a Redis Cluster of 3 masters + 3 replicas (plain redis-server in cluster mode);
#   PostgreSQL primary (:5433) with a streaming replica (:5434, pg_basebackup -R), PgBouncer (:6433, transaction
#   pooling) in front of the primary.
# Usage: cluster.sh start | stop | status | env | drop
#   start   installs missing Debian packages, starts everything, prints the URL
#   stop    stops every process this script started (PostgreSQL clusters keep their data)
#   drop    stop, then remove the two PostgreSQL clusters and the run directory
#   env     prints the environment the platform processes get (to run a process by hand)
# Ports: CLUSTER_PORT (4100) and the ones after it; CLUSTER_REDIS_PORT (7101..7106); CLUSTER_PG_PORT (5433, 5434),
# CLUSTER_PGBOUNCER_PORT (6433). State lives in CLUSTER_DIR (.data/cluster).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
# The project's Node.js (a dev dependency), as npm scripts use it.
export PATH="$ROOT/node_modules/.bin:$PATH"

LB_PORT=${CLUSTER_PORT:-4100}
GATEWAY_PORTS=($((LB_PORT + 1)) $((LB_PORT + 2)))
SUBGRAPH_BASE=$((LB_PORT + 11))
REDIS_BASE=${CLUSTER_REDIS_PORT:-7101}
PG_PORT=${CLUSTER_PG_PORT:-5433}
PG_REPLICA_PORT=$((PG_PORT + 1))
PGBOUNCER_PORT=${CLUSTER_PGBOUNCER_PORT:-6433}
DIR=${CLUSTER_DIR:-$ROOT/.data/cluster}
RUN=$DIR/run
LOGS=$DIR/logs
DB_NAME=${CLUSTER_DB:-clinical_care}
PG_PRIMARY=ccp_primary
PG_REPLICA=ccp_replica

log() { printf '== %s\n' "$*"; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
wait_port() {
  for _ in $(seq 1 120); do port_open "$1" && return 0; sleep 0.5; done
  echo "port $1 did not open" >&2
  return 1
}
wait_http() {
  # wait_http <url> [label of the process that should answer]
  for _ in $(seq 1 360); do
    curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
    if [ -n "${2:-}" ] && ! kill -0 "$(cat "$RUN/$2.pid")" 2>/dev/null; then
      echo "$2 stopped; the end of its log ($LOGS/$2.log):" >&2
      tail -n 5 "$LOGS/$2.log" >&2
      return 1
    fi
    sleep 0.5
  done
  echo "$1 did not answer" >&2
  return 1
}

apt_updated=""
need() {
  # need <command> <debian package>
  command -v "$1" >/dev/null 2>&1 && return 0
  log "installing $2"
  [ -n "$apt_updated" ] || { as_root apt-get update -qq; apt_updated=1; }
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
}

pg_version() { ls /usr/lib/postgresql | sort -V | tail -n 1; }
redis_ports() { for i in 0 1 2 3 4 5; do echo $((REDIS_BASE + i)); done; }
cluster_nodes() { redis_ports | head -n 3 | sed 's/^/127.0.0.1:/' | paste -sd, -; }

platform_env() {
  cat <<ENV
NODE_ENV=${NODE_ENV:-production}
DATABASE_URL=postgres://postgres@127.0.0.1:$PGBOUNCER_PORT/$DB_NAME
DATABASE_REPLICA_URLS=postgres://postgres@127.0.0.1:$PG_REPLICA_PORT/$DB_NAME
REDIS_CLUSTER_NODES=$(cluster_nodes)
SUBGRAPH_MODE=remote
CLINICAL_SUBGRAPH_URL=http://127.0.0.1:$SUBGRAPH_BASE/graphql
ORG_SUBGRAPH_URL=http://127.0.0.1:$((SUBGRAPH_BASE + 1))/graphql
REVENUE_SUBGRAPH_URL=http://127.0.0.1:$((SUBGRAPH_BASE + 2))/graphql
PUBLIC_URL=${PUBLIC_URL:-http://127.0.0.1:$LB_PORT}
TOKEN_KEY_FILE=$DIR/token-keys.json
TRUST_PROXY=loopback
ENV
}

start_redis() {
  need redis-server redis-server
  need redis-cli redis-tools
  local first=$REDIS_BASE
  if port_open "$first" && [ "$(redis-cli -p "$first" cluster info 2>/dev/null | grep -c 'cluster_state:ok')" = 1 ]; then
    log "Redis Cluster is running"
    return
  fi
  log "starting a Redis Cluster: 3 masters, 3 replicas (ports $REDIS_BASE-$((REDIS_BASE + 5)))"
  for port in $(redis_ports); do
    rm -rf "$DIR/redis/$port" && mkdir -p "$DIR/redis/$port"
    redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes --cluster-config-file nodes.conf \
      --cluster-node-timeout 3000 --appendonly yes --appendfsync everysec --save "" --dir "$DIR/redis/$port" \
      --daemonize yes --pidfile "$RUN/redis-$port.pid" --logfile "$LOGS/redis-$port.log"
  done
  for port in $(redis_ports); do wait_port "$port"; done
  # shellcheck disable=SC2046
  redis-cli --cluster create $(redis_ports | sed 's/^/127.0.0.1:/') --cluster-replicas 1 --cluster-yes >"$LOGS/redis-create.log"
  for _ in $(seq 1 60); do
    [ "$(redis-cli -p "$first" cluster info | grep -c 'cluster_state:ok')" = 1 ] && break
    sleep 0.5
  done
  # Every replica attached and in sync before anything is written.
  for _ in $(seq 1 60); do
    local synced=0
    for port in $(redis_ports); do
      redis-cli -p "$port" info replication | grep -q 'master_link_status:up' && synced=$((synced + 1))
    done
    [ "$synced" -ge 3 ] && return
    sleep 0.5
  done
  echo "Redis replicas did not attach" >&2
  return 1
}

start_postgres() {
  need pg_createcluster postgresql
  local v
  v=$(pg_version)
  if [ ! -d "/etc/postgresql/$v/$PG_PRIMARY" ]; then
    log "creating PostgreSQL $v cluster $PG_PRIMARY (port $PG_PORT)"
    as_root pg_createcluster --port "$PG_PORT" "$v" "$PG_PRIMARY" -- --auth-local=trust --auth-host=trust >/dev/null
    # listen_addresses stays localhost; trust as on the development machine. wal_level=replica and max_wal_senders are defaults.
    as_root pg_conftool "$v" "$PG_PRIMARY" set max_connections 200
    as_root pg_conftool "$v" "$PG_PRIMARY" set wal_keep_size 256MB
  fi
  pg_ctlcluster "$v" "$PG_PRIMARY" status >/dev/null 2>&1 || as_root pg_ctlcluster "$v" "$PG_PRIMARY" start
  wait_port "$PG_PORT"
  if [ ! -d "/etc/postgresql/$v/$PG_REPLICA" ]; then
    log "creating the streaming replica $PG_REPLICA (port $PG_REPLICA_PORT) with pg_basebackup -R"
    as_root pg_createcluster --port "$PG_REPLICA_PORT" "$v" "$PG_REPLICA" >/dev/null
    as_root pg_conftool "$v" "$PG_REPLICA" set max_connections 200
    as_root pg_conftool "$v" "$PG_REPLICA" set hot_standby on
    local data="/var/lib/postgresql/$v/$PG_REPLICA"
    as_root find "$data" -mindepth 1 -delete
    as_postgres pg_basebackup -h 127.0.0.1 -p "$PG_PORT" -U postgres -D "$data" -R -X stream -c fast
  fi
  pg_ctlcluster "$v" "$PG_REPLICA" status >/dev/null 2>&1 || as_root pg_ctlcluster "$v" "$PG_REPLICA" start
  wait_port "$PG_REPLICA_PORT"
  psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -Atc "select 1 from pg_database where datname = '$DB_NAME'" | grep -q 1 ||
    psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "create database \"$DB_NAME\""
}

start_pgbouncer() {
  need pgbouncer pgbouncer
  if port_open "$PGBOUNCER_PORT"; then log "PgBouncer is running"; return; fi
  log "starting PgBouncer (transaction pooling, port $PGBOUNCER_PORT -> $PG_PORT)"
  local d=$DIR/pgbouncer
  mkdir -p "$d"
  printf '"postgres" ""\n' >"$d/users.txt"
  cat >"$d/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$PG_PORT
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PGBOUNCER_PORT
unix_socket_dir =
auth_type = trust
auth_file = $d/users.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 40
ignore_startup_parameters = extra_float_digits,options
logfile = $d/pgbouncer.log
pidfile = $d/pgbouncer.pid
INI
  # PgBouncer refuses to run as root: it runs as postgres, in a directory of its own.
  if [ "$(id -u)" -eq 0 ]; then chown -R postgres "$d"; fi
  as_postgres pgbouncer -d -q "$d/pgbouncer.ini"
  wait_port "$PGBOUNCER_PORT"
}

start_node() {
  # start_node <label> <listen port or -> <script> [args...]
  local label=$1 port=$2
  shift 2
  (
    set -a
    # shellcheck disable=SC1090
    . <(platform_env)
    set +a
    export SERVICE_NAME=$label
    [ "$port" = - ] || export PORT=$port
    exec node "$ROOT/dist/bin/$1" "${@:2}" >>"$LOGS/$label.log" 2>&1
  ) &
  echo $! >"$RUN/$label.pid"
}

start_platform() {
  [ -f "$ROOT/dist/bin/start.js" ] || npm run build --silent
  # One signing key and internal secret for every process, written before any of them starts.
  (set -a && . <(platform_env) && set +a && node -e "require('./dist/shared/tokens').tokenKeys().then(() => process.exit(0))")
  log "starting the subgraphs (they apply migrations, one at a time per schema)"
  start_node subgraph-clinical - subgraph.js clinical
  start_node subgraph-org - subgraph.js org
  start_node subgraph-revenue - subgraph.js revenue
  local names=(clinical org revenue)
  for i in 0 1 2; do wait_http "http://127.0.0.1:$((SUBGRAPH_BASE + i))/health" "subgraph-${names[$i]}"; done
  log "starting 2 worker processes and 2 gateways"
  start_node workers-1 - workers.js
  start_node workers-2 - workers.js
  for i in 0 1; do start_node "gateway-$((i + 1))" "${GATEWAY_PORTS[$i]}" gateway.js; done
  for i in 0 1; do wait_http "http://127.0.0.1:${GATEWAY_PORTS[$i]}/ready" "gateway-$((i + 1))"; done
}

start_haproxy() {
  need haproxy haproxy
  log "starting HAProxy on port $LB_PORT"
  cat >"$DIR/haproxy.cfg" <<CFG
global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 65s
  timeout server 65s
  timeout http-keep-alive 60s
  option redispatch
  retries 2
  # A gateway that is gone refuses the connection: try the other one. A request that reached a gateway is never
  # re-sent (it may have been applied); the client retries it with its Idempotency-Key.
  retry-on conn-failure
frontend api
  bind 127.0.0.1:$LB_PORT
  option forwardfor
  default_backend gateways
backend gateways
  balance roundrobin
  option httpchk GET /ready
  http-check expect status 200
  server gateway-1 127.0.0.1:${GATEWAY_PORTS[0]} check inter 1s fall 2 rise 1
  server gateway-2 127.0.0.1:${GATEWAY_PORTS[1]} check inter 1s fall 2 rise 1
CFG
  haproxy -f "$DIR/haproxy.cfg" -c -q
  haproxy -f "$DIR/haproxy.cfg" -D -p "$RUN/haproxy.pid"
  wait_port "$LB_PORT"
  wait_http "http://127.0.0.1:$LB_PORT/ready"
}

stop_pidfile() {
  local f=$1 pid
  pid=$(cat "$f" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$f"
}

stop_all() {
  [ -d "$RUN" ] || { log "nothing running"; return 0; }
  log "stopping the platform processes, HAProxy, PgBouncer and the Redis Cluster"
  for f in "$RUN"/haproxy.pid "$RUN"/gateway-*.pid "$RUN"/workers-*.pid "$RUN"/subgraph-*.pid "$DIR"/pgbouncer/pgbouncer.pid "$RUN"/redis-*.pid; do
    [ -e "$f" ] && stop_pidfile "$f"
  done
  local v
  v=$(pg_version 2>/dev/null || true)
  if [ -n "$v" ]; then
    for c in "$PG_REPLICA" "$PG_PRIMARY"; do
      [ -d "/etc/postgresql/$v/$c" ] && { as_root pg_ctlcluster "$v" "$c" stop 2>/dev/null || true; }
    done
  fi
  rm -rf "$DIR/redis"
}

case "${1:-}" in
  start)
    mkdir -p "$RUN" "$LOGS"
    start_redis
    start_postgres
    start_pgbouncer
    start_platform
    start_haproxy
    log "cluster profile ready: http://127.0.0.1:$LB_PORT (logs in $LOGS; stop with npm run stop:cluster)"
    ;;
  stop) stop_all ;;
  drop)
    stop_all
    v=$(pg_version)
    for c in "$PG_REPLICA" "$PG_PRIMARY"; do
      [ -d "/etc/postgresql/$v/$c" ] && as_root pg_dropcluster "$v" "$c"
    done
    rm -rf "$DIR"
    ;;
  status)
    for f in "$RUN"/*.pid; do
      [ -e "$f" ] || continue
      pid=$(cat "$f")
      if kill -0 "$pid" 2>/dev/null; then echo "$(basename "$f" .pid) $pid running"; else echo "$(basename "$f" .pid) $pid gone"; fi
    done
    ;;
  env) platform_env ;;
  *)
    echo "usage: $0 start|stop|status|env|drop" >&2
    exit 2
    ;;
esac
