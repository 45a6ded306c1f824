// One measurement in a fresh process: `node bench/worker.mjs CONTENDER SCENARIO`, printing one
// JSON line. Scenarios: parsed, text (JSON text in), size-100B / size-100KB / size-1MB /
// payloads-10k (one value, per-decode time), cold (a bundle evaluated in a fresh vm context up to
// the first decoded value). Durations are measured here and only reported, never asserted.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";
import { many, MIX, sized } from "./mix.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const [contender, scenario] = process.argv.slice(2);

/** Operations per second of `op(i)`, run in batches for about `ms` milliseconds after warm-up. */
function rate(op, ms = 700) {
  let n = 0;
  const warm = performance.now();
  while (performance.now() - warm < 150) op(n++);
  let count = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 256; i++) op(count++);
    now = performance.now();
  }
  return count / ((now - start) / 1000);
}

if (scenario === "cold") {
  const code = readFileSync(join(here, "out", `${contender}.cjs`), "utf8");
  const input = MIX[1];
  const times = [];
  let first;
  for (let i = 0; i < 31; i++) {
    const context = vm.createContext({ TextEncoder, TextDecoder, atob, URL, input });
    const t = performance.now();
    vm.runInContext(code, context);
    times.push(performance.now() - t);
    first ??= times[0];
    if (context.result?.kind !== "deliver") throw new Error(`${contender}: no decoded value in the sandbox`);
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ first, ms: times[times.length >> 1] }));
} else {
  const { decode } = await import(`./contenders/${contender}.mjs`);
  const swallow = (v) => {
    try {
      return decode(v);
    } catch {
      return undefined;
    }
  };
  let result;
  if (scenario === "parsed") {
    result = { opsPerSec: rate((i) => swallow(MIX[i % MIX.length])) };
  } else if (scenario === "text") {
    const texts = MIX.map((v) => JSON.stringify(v));
    result = { opsPerSec: rate((i) => swallow(JSON.parse(texts[i % texts.length]))) };
  } else {
    const value = { "size-100B": () => sized(100), "size-100KB": () => sized(100_000), "size-1MB": () => sized(1_000_000), "payloads-10k": () => many(10_000) }[scenario]();
    result = { usPerDecode: 1e6 / rate(() => decode(value)) };
  }
  console.log(JSON.stringify(result));
}
