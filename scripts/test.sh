#!/usr/bin/env bash
# The whole test suite, exactly as CI runs it: installs what is missing, then lints, Rust tests,
# the registry guard, the wasm build of pkg/, its size gate, and the JS tests.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }

scripts/setup.sh

step "format and lints"
cargo fmt --check
cargo clippy --quiet --all-targets -- -D warnings
cargo clippy --quiet -p hookwire-wasm --lib --release --target wasm32-unknown-unknown --no-default-features --features wasm -- -D warnings
CARGO_TARGET_DIR=target/wasm-encoder RUSTFLAGS="-C link-arg=-zstack-size=8388608" \
  cargo clippy --quiet -p hookwire-wasm-encoder --lib --release --target wasm32-unknown-unknown --no-default-features --features wasm-encoder -- -D warnings

step "the decoder alone builds for wasm32-unknown-unknown (no_std, no default features)"
cargo build --quiet -p hookwire --lib --release --target wasm32-unknown-unknown --no-default-features

step "Rust tests"
cargo test

step "registry guard"
cargo run --quiet -- check

step "pkg/ (wasm-pack, wasm-opt, esbuild)"
node scripts/build-pkg.mjs

step "size gate"
node scripts/size-gate.mjs

step "JS tests"
node --test js-tests/

step "fuzz smoke (every target, bounded)"
scripts/fuzz.sh "${HOOKWIRE_FUZZ_SECONDS:-10}"
