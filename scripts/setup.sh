#!/usr/bin/env bash
# Install what the build and the tests need, skipping what is already present at the right
# version. Everything comes from crates.io and the npm registry (nothing from GitHub).
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.130   # must equal the wasm-bindgen crate pin in Cargo.toml
WASM_PACK_VERSION=0.15.1
TWIGGY_VERSION=0.8.0

say() { printf '[setup] %s\n' "$*"; }

command -v cargo >/dev/null || { echo "cargo is required (https://rustup.rs)" >&2; exit 1; }
command -v node >/dev/null || { echo "node (20 or newer) is required" >&2; exit 1; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt

have() { # have TOOL VERSION: the tool prints VERSION in its --version line
  command -v "$1" >/dev/null && "$1" --version 2>/dev/null | grep -q "$2"
}
if ! have wasm-bindgen "$WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes)"
  # No --locked: its lockfile pins a crate version the registry no longer serves.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi
if ! have wasm-pack "$WASM_PACK_VERSION"; then
  say "installing wasm-pack $WASM_PACK_VERSION (about 3 minutes)"
  cargo install wasm-pack --version "$WASM_PACK_VERSION"
fi
if ! have twiggy "$TWIGGY_VERSION"; then
  say "installing twiggy $TWIGGY_VERSION (about 1.5 minutes)"
  cargo install twiggy --version "$TWIGGY_VERSION"
fi
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -x node_modules/.bin/esbuild ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing the npm dev tools: binaryen's wasm-opt, esbuild, zod, valibot, fast-check (about 1 minute)"
  npm ci --no-audit --no-fund --loglevel=error
fi
if [ ! -d e2e/node_modules/workflow ] || [ e2e/package-lock.json -nt e2e/node_modules/.package-lock.json ]; then
  say "installing the Workflow SDK for the end-to-end suite, e2e/ (about 2 minutes)"
  (cd e2e && npm ci --no-audit --no-fund --loglevel=error)
fi
say "ready"
