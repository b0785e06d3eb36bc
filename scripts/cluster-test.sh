#!/usr/bin/env bash
# The cluster's fault test (issue 32, item 5): starts `scripts/cluster.sh 3` with an admin token
# and fresh state (TALLY_CLUSTER_DIR, default target/cluster-test), runs
# scripts/cluster-fault.py for SECONDS (default 20) of mixed load with one upload and server 2
# killed and started again, prints its figures and stops the cluster. About 2 minutes once the
# release binary exists (the cluster script builds it when missing). Not in the test command: it
# needs HAProxy and three release servers.
#
#   scripts/cluster-test.sh [SECONDS] [DOCUMENTS]     (defaults 20 and 20000)
set -euo pipefail
cd "$(dirname "$0")/.."
export TALLY_CLUSTER_DIR=${TALLY_CLUSTER_DIR:-target/cluster-test}
export TALLY_ADMIN_TOKEN=${TALLY_ADMIN_TOKEN:-cluster-test}
# Every request of the test comes from its own address; the limit is not what it measures.
export TALLY_CLUSTER_RATE=${TALLY_CLUSTER_RATE:-100000}
rm -rf "$TALLY_CLUSTER_DIR"
mkdir -p "$(dirname "$TALLY_CLUSTER_DIR")"
LOG="$TALLY_CLUSTER_DIR.log"
scripts/cluster.sh 3 -- --admin-token "$TALLY_ADMIN_TOKEN" > "$LOG" 2>&1 &
CLUSTER=$!
trap 'kill "$CLUSTER" 2>/dev/null || true; wait "$CLUSTER" 2>/dev/null || true' EXIT
for _ in $(seq 1 900); do
    grep -q "Ctrl-C stops it" "$LOG" && break
    kill -0 "$CLUSTER" 2>/dev/null || { cat "$LOG"; exit 1; }
    sleep 1
done
grep -q "Ctrl-C stops it" "$LOG" || { echo "the cluster did not start: $LOG" >&2; exit 1; }
python3 scripts/cluster-fault.py "${1:-20}" "${2:-20000}"
