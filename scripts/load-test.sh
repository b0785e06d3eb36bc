#!/usr/bin/env bash
# Load test of the answering API on loopback: wrk runs a bounded request loop (30 s by default)
# against /api/count for a prefetched dataset question while feedback is posted alongside; then
# it reports requests/s, latency percentiles, errors, whether every feedback row was stored, and
# how much the database grew per 1,000 requests. Last, a fault test: PostgreSQL is stopped for
# 5 s while feedback is posted; every post answered 201 must be stored.
#
#   scripts/load-test.sh [SECONDS] [CONNECTIONS]
# Uses the release build (built here when missing) and a private PostgreSQL under target/.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
SECONDS_TO_RUN=${1:-30}
CONNECTIONS=${2:-16}
FEEDBACK_ROWS=200
PORT=${TALLY_LOAD_PORT:-3190}
QUESTION="how many songs did paul mccartney write for the beatles"
WORK=target/load-test

scripts/setup.sh load
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$ROOT/node_modules/.bin:$PATH"
[ -x target/release/tally ] || cargo leptos build --release

rm -rf "$WORK" && mkdir -p "$WORK"
target/release/tally serve --addr "127.0.0.1:$PORT" --pg-dir "$WORK/pg" \
    --index "$WORK/index" --search-index "$WORK/sentences" >"$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null; wait $SERVER 2>/dev/null || true' EXIT
BASE="http://127.0.0.1:$PORT"
for _ in $(seq 1 600); do
    if curl -sf "$BASE/api/health" | grep -q '"ready":true'; then break; fi
    sleep 0.5
done
curl -sf "$BASE/api/health" | grep -q '"ready":true' || { echo "server not ready"; cat "$WORK/server.log"; exit 1; }

# The private cluster's port and data directory, from the server's log.
PG_PORT=$(sed -n 's/.*private PostgreSQL cluster on port \([0-9]*\).*/\1/p' "$WORK/server.log" | head -1)
PG_DATA=$(sed -n 's/.*private PostgreSQL cluster on port [0-9]* (data in \(.*\)).*/\1/p' "$WORK/server.log" | head -1)
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
# The cluster asks for passwords: the superuser's is kept in the cluster directory.
PG_URL="postgres://tally:$(cat "$WORK/pg/superuser.password")@127.0.0.1:$PG_PORT/tally"
db_bytes() { "$PG_BIN/psql" "$PG_URL" -Atc "SELECT pg_database_size(current_database())"; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

Q=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote_plus(sys.argv[1]))' "$QUESTION")
ANSWER_ID=$(curl -sf "$BASE/api/count?q=$Q" | python3 -c 'import json, sys; print(json.load(sys.stdin)["answer_id"])')
echo "== wrk: ${SECONDS_TO_RUN}s, $CONNECTIONS connections, GET /api/count?q=$Q"

# Feedback posted while wrk runs: each row has its own client token, so every one must be stored.
post_feedback() {
    local failures=0
    for i in $(seq 1 $FEEDBACK_ROWS); do
        token=$(python3 -c 'import uuid; print(uuid.uuid4())')
        body="{\"answer_id\":$ANSWER_ID,\"part\":\"answer\",\"verdict\":\"correct\",\"comment\":\"load test $i\",\"client_token\":\"$token\"}"
        code=$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' -d "$body" "$BASE/api/feedback")
        [ "$code" = 201 ] || failures=$((failures + 1))
        sleep $(python3 -c "print($SECONDS_TO_RUN / $FEEDBACK_ROWS / 2)")
    done
    echo "$failures" >"$WORK/feedback-failures"
}
post_feedback &
FEEDBACK=$!
SIZE_BEFORE=$(db_bytes)
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_TO_RUN}s" --latency "$BASE/api/count?q=$Q" | tee "$WORK/wrk.txt"
wait $FEEDBACK
SIZE_AFTER=$(db_bytes)
REQUESTS=$(sed -n 's/^ *\([0-9]*\) requests in.*/\1/p' "$WORK/wrk.txt")

STORED=$(curl -sf "$BASE/api/feedback?limit=500" | python3 -c "
import json, sys
rows = json.load(sys.stdin)
print(sum(1 for r in rows if r['answer_id'] == $ANSWER_ID and (r['comment'] or '').startswith('load test')))")
echo "== feedback: $FEEDBACK_ROWS posted during the run, $(cat "$WORK/feedback-failures") failed, $STORED stored"
grep -q "Non-2xx" "$WORK/wrk.txt" && echo "== errors: see Non-2xx above" || echo "== errors: none (no non-2xx responses, no socket errors reported)"
python3 -c "
before, after, requests = $SIZE_BEFORE, $SIZE_AFTER, $REQUESTS
print(f'== database growth: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB over {requests} requests '
      f'({(after - before) / 1e3 / max(requests, 1) * 1000:.1f} KB per 1,000 requests; goal < 100 KB)')"
[ "$STORED" = "$FEEDBACK_ROWS" ] || { echo "feedback rows were lost"; exit 1; }

# Fault test: PostgreSQL stops for 5 s while feedback is posted at about 20 per second.
echo "== fault test: PostgreSQL stopped for 5 s while feedback is posted"
: >"$WORK/fault-codes"
(
    for i in $(seq 1 240); do
        body="{\"part\":\"general\",\"verdict\":\"correct\",\"comment\":\"fault test $i\"}"
        curl -s -o /dev/null -m 10 -w '%{http_code}\n' -H 'content-type: application/json' \
            -d "$body" "$BASE/api/feedback" >>"$WORK/fault-codes"
        sleep 0.05
    done
) &
POSTER=$!
sleep 3
as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w stop >/dev/null
sleep 5
as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_DATA/restart.log" -w -t 60 \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=''" start >/dev/null
wait $POSTER
CREATED=$(grep -c '^201$' "$WORK/fault-codes" || true)
REFUSED=$(grep -c '^503$' "$WORK/fault-codes" || true)
FAULT_STORED=$("$PG_BIN/psql" "$PG_URL" -Atc "SELECT count(*) FROM feedback WHERE comment LIKE 'fault test %'")
echo "== fault test: $(wc -l <"$WORK/fault-codes") posts, $CREATED answered 201, $REFUSED answered 503, $FAULT_STORED stored"
[ "$CREATED" = "$FAULT_STORED" ] || { echo "rows answered 201 differ from rows stored"; exit 1; }
