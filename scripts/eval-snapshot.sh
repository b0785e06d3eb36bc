#!/usr/bin/env bash
# Every evaluation's output written to one directory, so that two builds can be compared byte for
# byte (issue 75: a restructuring must not change an answer). Usage:
#   scripts/eval-snapshot.sh OUT_DIR [TALLY_LAB_BINARY]
#   diff -r before/ after/
# Timings are cut from the outputs (they differ between runs); everything else must match.
set -euo pipefail
out=${1:?usage: scripts/eval-snapshot.sh OUT_DIR [TALLY_LAB_BINARY]}
# The evaluations run from `tally-lab` (before issue 88, from `tally` itself: give its path).
tally=${2:-target/release/tally-lab}
data=${TALLY_DATA:-../shared/data}
coqex=$data/coqex
mkdir -p "$out"

run() {
    local name=$1
    shift
    echo "== $name: $tally $*" >&2
    # Wall-clock figures and log lines (time-stamped, naming the module that wrote them) are the
    # only lines allowed to differ.
    "$tally" "$@" 2>&1 |
        grep -v -E '(took|elapsed|seconds|[0-9] ?ms\b|/s\b)' |
        grep -v -E '^(.\[2m)?[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z' >"$out/$name.txt" ||
        { echo "tally $* failed" >&2; return 1; }
}

run count-stresstest eval count --snippets "$coqex/stresstest_v1/stresstest_bing_v1.json" \
    --gold "$coqex/stresstest_v1/stresstest.csv"
run count-nq-dev eval count --snippets "$coqex/natural_questions_dev/natural_questions_dev_bing_v1.json" \
    --gold "$coqex/natural_questions_dev/natural_questions_dev.csv"
run count-lcquad eval count --snippets "$coqex/count_lcquad_v2/count_lcquadv2_bing_v1.json" \
    --gold "$coqex/count_lcquad_v2/count_lcquadv2.csv"
run value eval value --judged "$data/qsearch/qsearch_text_dev.jsonl"
run search eval search --judged "$data/qsearch/qsearch_text_dev.jsonl"
run own-documents eval own-documents --documents-only --show-test
run own-documents-converted eval own-documents --documents-only \
    --documents tests/fixtures/own-documents/converted
run instances eval instances
run aggregations eval aggregations --show-test
run extraction eval extraction
run cnp eval cnp --contexts "$coqex/CoQuAD_v2/contextualization/kg_contexts.csv"
echo "snapshot written to $out" >&2
