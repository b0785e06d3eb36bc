#!/usr/bin/env bash
# Sets up what is missing, builds Tally (release server + optimised WASM) and serves it on
# http://127.0.0.1:3000. Extra arguments go to `tally serve` (see `tally serve --help`).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
scripts/setup.sh run
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$ROOT/node_modules/.bin:$PATH"
cargo leptos build --release
exec target/release/tally serve "$@"
