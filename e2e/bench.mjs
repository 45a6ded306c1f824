// Per-delivery cost inside the real workflow VM, and what each decoder adds to the built
// workflow bundle. For each contender a one-workflow app is built with the SDK's own builder:
// the same session driver, decoding with that contender in the workflow body. Prints a table
// (a benchmark: nothing is asserted). Usage: node e2e/bench.mjs [--sizes-only] [MESSAGES]
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { here, producer, startServer } from "./harness.mjs";

const sizesOnly = process.argv.includes("--sizes-only");
const messages = Number(process.argv.filter((a) => /^\d+$/.test(a))[0] ?? 40);
const CONTENDERS = {
  none: null,
  "hookwire (pkg/)": `export { decode } from "hookwire";`,
  "hookwire/turn-control": `export { decode } from "hookwire/turn-control";`,
  "hookwire, both families": `import { decode as inbox } from "hookwire";\nimport { decode as turn } from "hookwire/turn-control";\nexport const decode = (v) => (v && typeof v.kind === "string" && v.kind.startsWith("turn-") ? turn(v) : inbox(v));`,
  "plain JS": `export { decode } from ${JSON.stringify(join(here, "..", "bench", "contenders", "plain.mjs"))};`,
  "zod 4": `export { decode } from ${JSON.stringify(join(here, "..", "bench", "contenders", "zod.mjs"))};`,
  "zod/mini": `export { decode } from ${JSON.stringify(join(here, "..", "bench", "contenders", "zod-mini.mjs"))};`,
  valibot: `export { decode } from ${JSON.stringify(join(here, "..", "bench", "contenders", "valibot.mjs"))};`,
};
const TIMED = ["hookwire (pkg/)", "plain JS", "zod 4"];

const workflowSource = (withDecoder) => `import { createHook } from "workflow";
${withDecoder ? 'import { decode } from "./decoder.js";' : "const decode = (v) => v;"}

export async function driver(token) {
  "use workflow";
  const hook = createHook({ token });
  let n = 0;
  for await (const payload of hook) {
    n++;
    let value;
    try {
      value = decode(payload);
    } catch (e) {
      value = { error: e.code };
    }
    await record(n, value.kind ?? value.error);
  }
}

async function record(n, what) {
  "use step";
  return { n, what };
}
`;

function buildVariant(name, decoderModule) {
  const dir = join(here, "variants", name.replace(/[^a-z0-9]+/gi, "-"));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "workflows"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "name": "variant", "private": true, "type": "module" }\n');
  writeFileSync(join(dir, "workflows", "driver.js"), workflowSource(decoderModule !== null));
  if (decoderModule) writeFileSync(join(dir, "workflows", "decoder.js"), decoderModule + "\n");
  execFileSync(process.execPath, [join(here, "node_modules", "workflow", "bin", "run.js"), "build"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  writeFileSync(join(dir, ".well-known", "workflow", "v1", "package.json"), '{"type":"commonjs"}\n');
  return { dir, flowBytes: statSync(join(dir, ".well-known", "workflow", "v1", "flow.js")).size };
}

const built = {};
for (const [name, module] of Object.entries(CONTENDERS)) built[name] = buildVariant(name, module);
const base = built.none.flowBytes;
const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
const rows = ["| decoder in the workflow body | flow.js | growth over no decoder | growth vs hookwire |", "|---|---|---|---|"];
const ours = built["hookwire (pkg/)"].flowBytes - base;
for (const [name, b] of Object.entries(built)) {
  if (name === "none") continue;
  const growth = b.flowBytes - base;
  rows.push(`| ${name} | ${kib(b.flowBytes)} | ${kib(growth)} | ${(growth / ours).toFixed(1)}× |`);
}
console.log(`Workflow bundle growth (flow.js from \`workflow build\`, which keeps an inline source map; baseline without a decoder: ${kib(base)})\n`);
console.log(rows.join("\n"));
// The figures behind the table, for bench/charts.mjs (bench/bundle-growth.svg): recorded when
// they change, so that a run which reproduces them (the demo runs this) leaves the file as it is.
const figures = { baseline: base, growth: Object.fromEntries(Object.entries(built).filter(([n]) => n !== "none").map(([n, b]) => [n, b.flowBytes - base])) };
const recordPath = join(here, "bundle-growth.json");
const recorded = existsSync(recordPath) ? JSON.parse(readFileSync(recordPath, "utf8")) : null;
if (recorded === null || JSON.stringify({ baseline: recorded.baseline, growth: recorded.growth }) !== JSON.stringify(figures)) {
  writeFileSync(recordPath, JSON.stringify({ date: new Date().toISOString(), ...figures }, null, 2) + "\n");
}

if (!sizesOnly) {
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const latency = ["| decoder in the workflow body | resumeHook → step recorded, median (min–max) over " + messages + " deliveries |", "|---|---|"];
  for (const name of TIMED) {
    const port = 39700 + TIMED.indexOf(name);
    const data = join(here, "..", "target", "e2e", `bench-${port}`);
    rmSync(data, { recursive: true, force: true });
    const server = await startServer(port, data, built[name].dir);
    const p = await producer(port, data);
    const run = await p.api.start(p.workflow("driver", "driver"), ["bench"]);
    const hook = await p.hook("bench");
    const times = [];
    for (let i = 1; i <= messages; i++) {
      const t0 = Date.now();
      await p.api.resumeHook(hook, { kind: "deliver", version: 1, payloads: [{ message: `m${i}` }], payload: { message: `m${i}` } });
      const steps = await p.waitSteps(run.runId, i, 30_000, 2);
      times.push(new Date(steps[i - 1].completedAt ?? steps[i - 1].createdAt) - t0);
    }
    latency.push(`| ${name} | ${median(times)} ms (${Math.min(...times)}–${Math.max(...times)}) |`);
    await server.stop();
    await p.close();
  }
  console.log(`\nPer-delivery cost in the workflow VM (world-local; every delivery re-runs the bundle and replays the history)\n`);
  console.log(latency.join("\n"));
}
process.exit(0);
