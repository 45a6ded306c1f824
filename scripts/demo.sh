#!/usr/bin/env bash
# The main job: encode for every kind of receiver, decode every historic cohort natively, then
# decode the same cohorts with pkg/ inside a fresh workflow-style sandbox, then run a real
# Workflow SDK app. Each step says what it does and how long it takes on a fresh machine (2 cores);
# the tools' own output is the progress where a step is long.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "1/5 tools: Rust's wasm target, wasm-pack, twiggy, npm packages (first run about 8 minutes, then instant)"
scripts/setup.sh
step "2/5 the hookwire CLI, release build (first run about 1 minute)"
cargo build --release --bin hookwire
step "3/5 the native demonstration: encode for each receiver, decode each cohort"
cargo run --quiet --release --bin hookwire -- demo
step "4/5 pkg/: the wasm decoders and encoder (wasm-pack, wasm-opt, esbuild; first run about 2 minutes)"
node scripts/build-pkg.mjs
step "5/5 the same cohorts through pkg/ in a fresh sandbox, then a real Workflow SDK app (about 1 minute)"
node scripts/demo-js.mjs
node e2e/demo.mjs
