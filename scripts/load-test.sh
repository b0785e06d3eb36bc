#!/usr/bin/env bash
# Load test of the answering API on loopback: wrk runs a bounded request loop (30 s by default)
# against /api/count for a prefetched dataset question while feedback is posted alongside; then
# it reports requests/s, latency percentiles, errors, and whether every feedback row was stored.
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
export PATH="$ROOT/.tools/bin:$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
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
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_TO_RUN}s" --latency "$BASE/api/count?q=$Q" | tee "$WORK/wrk.txt"
wait $FEEDBACK

STORED=$(curl -sf "$BASE/api/feedback?limit=500" | python3 -c "
import json, sys
rows = json.load(sys.stdin)
print(sum(1 for r in rows if r['answer_id'] == $ANSWER_ID and (r['comment'] or '').startswith('load test')))")
echo "== feedback: $FEEDBACK_ROWS posted during the run, $(cat "$WORK/feedback-failures") failed, $STORED stored"
grep -q "Non-2xx" "$WORK/wrk.txt" && echo "== errors: see Non-2xx above" || echo "== errors: none (no non-2xx responses, no socket errors reported)"
[ "$STORED" = "$FEEDBACK_ROWS" ] || { echo "feedback rows were lost"; exit 1; }
