// The precompiled-module entries (`hookwire/module`, `hookwire/turn-control/module`) where the
// inline entries cannot start: runtimes that forbid compiling wasm from bytes and hand a `.wasm`
// import over as a compiled `WebAssembly.Module`. In workerd (the `workerd` package's binary,
// serving on loopback) and in `@edge-runtime/vm`, every decode fixture decodes exactly as the
// inline entry decodes it in Node, and `init(bytes)` fails there with a HookwireStartError.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, test } from "node:test";
import { cases, DECODE_DIRS, hookwire, pkgDir, root } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const turnControl = require(join(pkgDir, "turn-control.cjs"));

const sessionInputs = DECODE_DIRS.flatMap((d) => cases(d)).filter((c) => "input" in c).map((c) => c.input);
const turnInputs = ["v0", "v1", "chain"].flatMap((dir) => {
  const base = join(root, "fixtures", "turn-control", dir);
  return readdirSync(base).filter((f) => f.endsWith(".json")).map((f) => JSON.parse(readFileSync(join(base, f), "utf8"))).filter((c) => "input" in c).map((c) => c.input);
});

/** What a decode answers, as JSON can carry it. */
function outcome(decode, value) {
  try {
    return { ok: decode(value) };
  } catch (e) {
    return { error: { name: e.name, code: e.code, path: e.path, version: e.version, message: e.message } };
  }
}
// As JSON carries them back from the other runtime (keys whose value is undefined dropped).
const expectedSession = JSON.parse(JSON.stringify(sessionInputs.map((v) => outcome(hookwire.decode, v))));
const expectedTurn = JSON.parse(JSON.stringify(turnInputs.map((v) => outcome(turnControl.decode, v))));

/** The checks both runtimes run, as source text: `m` and `t` are the two module entries. */
const CHECKS = `
function outcome(decode, value) {
  try {
    return { ok: decode(value) };
  } catch (e) {
    return { error: { name: e.name, code: e.code, path: e.path, version: e.version, message: e.message } };
  }
}
function run(m, t, sessionInputs, turnInputs) {
  return {
    session: sessionInputs.map((v) => outcome(m.decode, v)),
    turn: turnInputs.map((v) => outcome(t.decode, v)),
    schema: sessionInputs.map((v) => m.standardSchema["~standard"].validate(v)),
    wireErrors: sessionInputs.every((v) => { try { m.decode(v); return true; } catch (e) { return e instanceof m.SessionInboxWireError && e instanceof m.WireError; } }),
    stats: m.memoryStats(),
  };
}
`;

function check(got) {
  assert.deepEqual(got.session, expectedSession);
  assert.deepEqual(got.turn, expectedTurn);
  assert.deepEqual(
    JSON.parse(JSON.stringify(got.schema)),
    expectedSession.map((o) => (o.ok ? { value: o.ok } : { issues: [{ message: `${o.error.code}: ${o.error.message}`, ...(o.error.path ? { path: o.error.path.slice(1).split("/").map((s, i) => (i ? Number(s) : s)) } : {}) }] })),
  );
  assert.equal(got.wireErrors, true);
  assert.equal(got.stats.handles, 0);
  assert.ok(expectedSession.some((o) => o.ok) && expectedSession.some((o) => o.error));
}

async function freePort() {
  const server = createServer();
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

let workerd;
after(() => workerd?.kill("SIGKILL"));

test("workerd: hookwire/module and hookwire/turn-control/module decode with the imported .wasm modules", { timeout: 120_000 }, async () => {
  const dir = join(root, "target", "js-tests", "workerd");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const f of ["module.mjs", "turn-control-module.mjs", "hookwire_bg.wasm", "turn-control_bg.wasm"]) copyFileSync(join(pkgDir, f), join(dir, f));
  writeFileSync(
    join(dir, "worker.mjs"),
    `import * as m from "./module.mjs";
import * as t from "./turn-control-module.mjs";
import session from "./hookwire_bg.wasm";
import turn from "./turn-control_bg.wasm";
import bytes from "./hookwire.bin";
${CHECKS}
const attempt = (f) => { try { f(); return null; } catch (e) { return { name: e.name, message: e.message }; } };
// Before init, and with the module's bytes (workerd forbids compiling them): HookwireStartError.
const early = attempt(() => m.decode({ kind: "clear" }));
const fromBytes = attempt(() => m.init(bytes));
const afterBytes = attempt(() => m.decode({ kind: "clear" }));
const wrong = attempt(() => t.init(session));
m.init(session);
t.init(turn);
export default {
  async fetch(request) {
    const { sessionInputs, turnInputs } = await request.json();
    return Response.json({ early, fromBytes, afterBytes, wrong, instance: session instanceof WebAssembly.Module, ...run(m, t, sessionInputs, turnInputs) });
  },
};
`,
  );
  const port = await freePort();
  writeFileSync(
    join(dir, "config.capnp"),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "module.mjs", esModule = embed "module.mjs"),
    (name = "turn-control-module.mjs", esModule = embed "turn-control-module.mjs"),
    (name = "hookwire_bg.wasm", wasm = embed "hookwire_bg.wasm"),
    (name = "turn-control_bg.wasm", wasm = embed "turn-control_bg.wasm"),
    (name = "hookwire.bin", data = embed "hookwire_bg.wasm"),
  ],
  compatibilityDate = "2025-01-01",
);
`,
  );
  let log = "";
  workerd = spawn(join(root, "node_modules", ".bin", "workerd"), ["serve", join(dir, "config.capnp")], { stdio: ["ignore", "pipe", "pipe"] });
  workerd.stdout.on("data", (d) => (log += d));
  workerd.stderr.on("data", (d) => (log += d));
  const exited = new Promise((r) => workerd.once("exit", (code) => r(code)));
  let response;
  for (let i = 0; i < 600 && !response; i++) {
    if (workerd.exitCode !== null) break;
    try {
      response = await fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: JSON.stringify({ sessionInputs, turnInputs }) });
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  assert.ok(response, `workerd did not answer: ${log}`);
  const text = await response.text();
  assert.equal(response.status, 200, text + log);
  const got = JSON.parse(text);
  workerd.kill("SIGTERM");
  await exited;
  assert.equal(got.instance, true, "workerd hands the .wasm over as a WebAssembly.Module");
  assert.equal(got.early.name, "HookwireStartError");
  assert.match(got.early.message, /init\(module\) has not been called/);
  assert.equal(got.fromBytes.name, "HookwireStartError");
  assert.match(got.fromBytes.message, /disallowed/i);
  assert.equal(got.afterBytes.name, "HookwireStartError");
  assert.equal(got.wrong.name, "HookwireStartError", "the session inbox module is not turn control's");
  check(got);
});

test("@edge-runtime/vm: the module entries take a precompiled module where wasm code generation is off", async () => {
  const { EdgeVM } = await import("@edge-runtime/vm");
  const load = (vm, file) => {
    const code = readFileSync(join(pkgDir, file), "utf8");
    return vm.evaluate(`(() => { const module = { exports: {} }; (function (module, exports) {\n${code}\n})(module, module.exports); return module.exports; })()`);
  };
  const session = new WebAssembly.Module(readFileSync(join(pkgDir, "hookwire_bg.wasm")));
  const turn = new WebAssembly.Module(readFileSync(join(pkgDir, "turn-control_bg.wasm")));
  // As deployed edge functions run: no wasm compiled from bytes, modules imported precompiled.
  const vm = new EdgeVM({ codeGeneration: { strings: false, wasm: false } });
  const inline = load(vm, "hookwire.cjs");
  assert.throws(() => inline.decode({ kind: "clear" }), { name: "HookwireStartError", message: /code generation/ });
  const m = load(vm, "module.cjs");
  const t = load(vm, "turn-control-module.cjs");
  assert.throws(() => m.init(readFileSync(join(pkgDir, "hookwire_bg.wasm"))), { name: "HookwireStartError" });
  m.init(session);
  t.init(turn);
  vm.context.inputs = JSON.stringify({ sessionInputs, turnInputs });
  vm.context.m = m;
  vm.context.t = t;
  const got = JSON.parse(vm.evaluate(`${CHECKS}\nconst { sessionInputs, turnInputs } = JSON.parse(inputs);\nJSON.stringify(run(m, t, sessionInputs, turnInputs))`));
  check(got);
  // The emulator's default (wasm code generation on): the module entry also takes the bytes.
  const open = new EdgeVM();
  const fromBytes = load(open, "module.cjs");
  fromBytes.init(new Uint8Array(readFileSync(join(pkgDir, "hookwire_bg.wasm"))));
  assert.deepEqual({ ...fromBytes.decode({ kind: "clear", version: 6 }) }, { kind: "clear" });
});
