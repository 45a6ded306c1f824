#!/usr/bin/env bash
# The main job: encode for every kind of receiver, decode every historic cohort natively, then
# decode the same cohorts with pkg/ inside a fresh workflow-style sandbox.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo run --quiet --release -- demo
node scripts/build-pkg.mjs >/dev/null 2>&1 || node scripts/build-pkg.mjs
node scripts/demo-js.mjs
node e2e/demo.mjs
