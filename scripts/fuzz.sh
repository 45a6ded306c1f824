#!/usr/bin/env bash
# Coverage-guided fuzzing (cargo-fuzz / libFuzzer) of every target for SECONDS each (default 60),
# seeded from the frozen fixtures. A crash leaves its input in fuzz/artifacts/<target>/: copy it to
# fuzz/regressions/<target>/ so tests/fuzz_regressions.rs keeps it as a regression case.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(decode encode chain negotiate turn_control)

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --version 0.13.2
# libFuzzer needs nightly flags: use a nightly toolchain when there is one, else let stable
# accept them (RUSTC_BOOTSTRAP), since no other toolchain can be fetched on every machine.
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then toolchain=(+nightly); else toolchain=(); export RUSTC_BOOTSTRAP=1; fi

corpus() { # seed a target's corpus from the fixtures
  local dir="fuzz/corpus/$1"; mkdir -p "$dir"
  node -e '
    const fs = require("fs"), path = require("path");
    const [target, dir] = process.argv.slice(1);
    const root = target === "turn_control" ? "fixtures/turn-control" : "fixtures/session-inbox";
    let n = 0;
    const put = (v) => fs.writeFileSync(path.join(dir, "seed-" + n++), JSON.stringify(v));
    const targets = [{ version: 0, variant: "send" }, { version: 0, variant: "deliver" }, ...[1, 2, 3, 4, 5, 6].map((version) => ({ version }))];
    for (const sub of fs.readdirSync(root)) {
      if (!fs.statSync(path.join(root, sub)).isDirectory()) continue;
      for (const f of fs.readdirSync(path.join(root, sub))) {
        const c = JSON.parse(fs.readFileSync(path.join(root, sub, f), "utf8"));
        if (target === "encode" && c.command !== undefined) { put(c.command); for (const t of targets) put({ command: c.command, target: t }); }
        if (target === "turn_control") for (const v of [c.input, c.command, c.request?.capabilities]) if (v !== undefined) put(v);
        if (target !== "encode" && target !== "negotiate" && c.input !== undefined) put(c.input);
        if (target === "negotiate" && c.request !== undefined) put({ command: c.request.command, ...c.request.destination, hooks: c.request.hooks ?? [] });
      }
    }
    if (target === "negotiate") {
      put({ command: { kind: "send", payload: {} }, token: "eve:session:r:inbox", hooks: [] });
      put({ command: { kind: "deliver", payloads: [] }, token: "c", hooks: [{ token: "c", runId: "r" }, { token: "eve:session:r:inbox", runId: "q" }] });
      put({ command: { kind: "deliver", payloads: [] }, token: "c", hooks: [{ token: "c", runId: "r", metadata: { sessionInboxWireVersion: 1 } }] });
      put({ command: { kind: "clear" }, address: { sessionId: "s", version: 1 } });
    }' "$1" "$dir"
}

for t in "${targets[@]}"; do
  corpus "$t"
  echo "== fuzz $t for ${seconds}s"
  (cd fuzz && cargo "${toolchain[@]}" fuzz run "$t" "corpus/$t" -- -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 2>&1 | grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+== ERROR|SUMMARY|Done)' || true)
  if ls "fuzz/artifacts/$t"/crash-* >/dev/null 2>&1; then echo "fuzz $t: crashes in fuzz/artifacts/$t" >&2; exit 1; fi
done
echo "fuzz: no crashes"
