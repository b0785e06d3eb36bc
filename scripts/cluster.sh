#!/usr/bin/env bash
# Starts a Tally cluster on loopback: one PostgreSQL, N `tally serve` processes and HAProxy in
# front of them on one address (deploy/haproxy.cfg: health checks, retries, one rate limit for
# all servers). Runs until stopped (Ctrl-C or SIGTERM), then stops everything it started.
#
#   scripts/cluster.sh [N]        N servers (default 2)
#
# Environment: TALLY_CLUSTER_ADDR (balancer, 127.0.0.1:8080), TALLY_CLUSTER_RATE (answering
# requests per client address and minute across all servers, default 60), TALLY_CLUSTER_DIR
# (state: database, indexes, logs; default target/cluster), TALLY_SESSION_SECRET (signs the admin
# login cookie on every server; default: one made once in the state directory), TALLY_BIN (default
# target/release/tally, built with the site when missing). Extra `tally serve` arguments can be
# given after `--`: scripts/cluster.sh 3 -- --admin-token secret
#
# Each server gets its own copy of the indexes (tantivy lets one process write an index): the
# first server builds them, the others start from copies. Uploaded documents are kept in
# PostgreSQL, and every server indexes them into its copies (see the README's "More than one
# server"). scripts/cluster-test.sh runs the fault test against such a cluster.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

N=${1:-2}
shift || true
[ "${1:-}" = "--" ] && shift
EXTRA=("$@")
case "$N" in '' | *[!0-9]*) echo "usage: scripts/cluster.sh [N] [-- tally serve args]" >&2; exit 2 ;; esac
[ "$N" -ge 1 ] || { echo "at least one server" >&2; exit 2; }

export TALLY_CLUSTER_ADDR=${TALLY_CLUSTER_ADDR:-127.0.0.1:8080}
export TALLY_CLUSTER_RATE=${TALLY_CLUSTER_RATE:-60}
DIR=$(realpath -m "${TALLY_CLUSTER_DIR:-target/cluster}")
BIN=${TALLY_BIN:-target/release/tally}
FIRST_PORT=${TALLY_CLUSTER_FIRST_PORT:-8081}
PG_PORT=${TALLY_CLUSTER_PG_PORT:-55432}

say() { printf '[cluster] %s\n' "$*"; }

command -v haproxy >/dev/null || scripts/setup.sh cluster
PG_BIN=$(dirname "$(command -v initdb || ls /usr/lib/postgresql/*/bin/initdb | tail -1)")
if [ ! -x "$BIN" ]; then
    say "building the release server and site (cargo leptos build --release)"
    export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$ROOT/node_modules/.bin:$PATH"
    cargo leptos build --release
fi

mkdir -p "$DIR/logs"
# One secret for every server's admin login cookies, so that a login holds on all of them; kept in
# the cluster's directory (mode 0600) unless given.
if [ -z "${TALLY_SESSION_SECRET:-}" ]; then
    if [ ! -s "$DIR/session.secret" ]; then
        (umask 077 && python3 -c 'import secrets; print(secrets.token_hex(32))' > "$DIR/session.secret")
    fi
    TALLY_SESSION_SECRET=$(cat "$DIR/session.secret")
fi
export TALLY_SESSION_SECRET
PIDS=()
RUN_AS=()
stop_all() {
    trap - EXIT INT TERM
    say "stopping"
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    "${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$DIR/pg" -m fast -w stop >/dev/null 2>&1 || true
}
trap stop_all EXIT
trap 'exit 130' INT TERM

# --- PostgreSQL: one cluster on a loopback port, its `postgres` database for Tally --------------
# PostgreSQL refuses to run as root: as root, its programs run as the `postgres` system user.
RUN_AS=()
if [ "$(id -u)" = 0 ]; then
    RUN_AS=(runuser -u postgres --)
    mkdir -p "$DIR/pg"
    chown postgres "$DIR/pg" "$DIR/logs"
fi
if [ ! -f "$DIR/pg/PG_VERSION" ]; then
    say "initialising PostgreSQL in $DIR/pg"
    "${RUN_AS[@]}" "$PG_BIN/initdb" -D "$DIR/pg" -U tally --auth=trust >/dev/null
fi
"${RUN_AS[@]}" "$PG_BIN/pg_ctl" -D "$DIR/pg" -l "$DIR/logs/postgres.log" -w \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k ''" start >/dev/null
export DATABASE_URL="postgres://tally@127.0.0.1:$PG_PORT/postgres"
say "PostgreSQL on 127.0.0.1:$PG_PORT"

# --- Servers ---------------------------------------------------------------------------------------
wait_ready() {  # port
    for _ in $(seq 1 600); do
        if curl -fsS "http://127.0.0.1:$1/api/health" 2>/dev/null | grep -q '"answering":{"ready":true'; then
            return 0
        fi
        sleep 0.5
    done
    say "server on port $1 did not get ready: see $DIR/logs"
    return 1
}
start_server() {  # index (1-based)
    local i=$1 port=$((FIRST_PORT + $1 - 1))
    "$BIN" serve --addr "127.0.0.1:$port" --index "$DIR/s$i/index" \
        --search-index "$DIR/s$i/search-index" --trusted-proxy 127.0.0.1 "${EXTRA[@]}" > "$DIR/logs/server-$i.log" 2>&1 &
    PIDS+=($!)
    echo $! > "$DIR/s$i.pid"
}
mkdir -p "$DIR/s1"
start_server 1
wait_ready "$FIRST_PORT"
for i in $(seq 2 "$N"); do
    # The first server's indexes, copied: no server builds them again.
    if [ ! -d "$DIR/s$i/index" ]; then
        mkdir -p "$DIR/s$i"
        cp -r "$DIR/s1/index" "$DIR/s1/search-index" "$DIR/s$i/"
        rm -f "$DIR/s$i"/*/.tantivy-*.lock
    fi
    start_server "$i"
done
for i in $(seq 2 "$N"); do wait_ready $((FIRST_PORT + i - 1)); done
say "$N servers on ports $FIRST_PORT-$((FIRST_PORT + N - 1))"

# --- HAProxy: deploy/haproxy.cfg with this cluster's servers --------------------------------------
CONFIG="$DIR/haproxy.cfg"
{
    sed -n '1,/# BEGIN SERVERS/p' deploy/haproxy.cfg
    for i in $(seq 1 "$N"); do
        echo "    server s$i 127.0.0.1:$((FIRST_PORT + i - 1))"
    done
    sed -n '/# END SERVERS/,$p' deploy/haproxy.cfg
} > "$CONFIG"
haproxy -c -q -f "$CONFIG" || { say "HAProxy refuses $CONFIG:"; haproxy -c -f "$CONFIG"; exit 1; }
haproxy -W -db -f "$CONFIG" > "$DIR/logs/haproxy.log" 2>&1 &
PIDS+=($!)
echo $! > "$DIR/haproxy.pid"
say "Tally on http://$TALLY_CLUSTER_ADDR (rate limit $TALLY_CLUSTER_RATE answering requests per address and minute); Ctrl-C stops it"
wait
