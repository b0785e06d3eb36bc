#!/usr/bin/env bash
# Quantity extraction speed: Tally against quantulum3 (PyPI, MIT) on the same sentences, in the
# same run, each pinned to one core. Prints both rates and the ratio.
#
#   scripts/bench-quantulum.sh [GOLD_FILE] [TALLY_SENTENCES] [QUANTULUM_SENTENCES]
set -euo pipefail
cd "$(dirname "$0")/.."

gold=${1:-../shared/data/quantities/newsquant_dev.json}
tally_sentences=${2:-200000}
quantulum_sentences=${3:-3000}
venv=target/quantulum-venv

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import quantulum3" 2>/dev/null; then
    echo "installing quantulum3 into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet quantulum3==0.10.0
fi
cargo build --release --quiet -p tally-lab-cli --bin tally-lab

pin=""
if command -v taskset >/dev/null; then pin="taskset -c 0"; fi

tally_json=$($pin target/release/tally-lab bench extraction --sentences-from "$gold" --sentences "$tally_sentences" --json)
quantulum_json=$($pin "$venv/bin/python" scripts/quantulum_bench.py "$gold" --sentences "$quantulum_sentences")

python3 - "$tally_json" "$quantulum_json" <<'PY'
import json, sys
tally, quantulum = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(f"tally      {tally['sentences']:>8} sentences  {tally['sentences_per_second']:>12,.0f} sentences/s (one core)")
print(f"quantulum3 {quantulum['sentences']:>8} sentences  {quantulum['sentences_per_second']:>12,.1f} sentences/s (one core)")
print(f"ratio      {tally['sentences_per_second'] / quantulum['sentences_per_second']:,.0f}x")
for t in tally["single_texts"]:
    print(f"tally single text {t['bytes']:>9} bytes: {t['seconds_per_megabyte']:.4f} s/MB")
PY
