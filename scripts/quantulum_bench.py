"""Times quantulum3 (the Python quantity extractor) on the sentences of a gold file.

Prints one JSON object: sentences, seconds, sentences_per_second. Used by bench-quantulum.sh,
which runs Tally's extractor on the same sentences in the same run.
"""
import argparse
import itertools
import json
import time
import warnings

from quantulum3 import parser

warnings.filterwarnings("ignore")

args = argparse.ArgumentParser()
args.add_argument("gold")
args.add_argument("--sentences", type=int, default=2000)
opts = args.parse_args()

with open(opts.gold, encoding="utf8") as f:
    unique = [entry["text"] for entry in json.load(f)]
sentences = list(itertools.islice(itertools.cycle(unique), opts.sentences))

for s in unique[:20]:  # warm up (unit tables, lazy imports)
    parser.parse(s)
started = time.perf_counter()
found = 0
for s in sentences:
    found += len(parser.parse(s))
seconds = time.perf_counter() - started
print(json.dumps({
    "sentences": len(sentences),
    "seconds": seconds,
    "sentences_per_second": len(sentences) / seconds,
    "quantities": found,
}))
