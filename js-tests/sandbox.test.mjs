// pkg/ inside the workflow sandbox (contract §10): esbuild inlines it into one CommonJS script that
// runs in a fresh node:vm context holding only TextEncoder, TextDecoder, atob and URL — and, where
// wasm code generation is forbidden, fails with an error that names the cause instead of hanging.
import assert from "node:assert/strict";
import { test } from "node:test";
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import vm from "node:vm";
import { pkgDir, root } from "./helpers.mjs";

const esbuild = await import("esbuild");

const WORKFLOW = `
const { decode, SessionInboxWireError, hookMetadata } = require("hookwire");
const results = [];
for (const input of globalThis.inputs) {
  try {
    results.push({ ok: decode(input) });
  } catch (e) {
    results.push({ error: e.code, name: e.name, wire: e instanceof SessionInboxWireError, message: e.message });
  }
}
globalThis.results = results;
globalThis.metadata = hookMetadata();
`;

async function bundle() {
  // Resolve "hookwire" as a consumer's bundler does: a package in node_modules, by its exports.
  const app = join(root, "target", "js-tests", "app");
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, "node_modules"), { recursive: true });
  symlinkSync(pkgDir, join(app, "node_modules", "hookwire"), "dir");
  const out = await esbuild.build({
    stdin: { contents: WORKFLOW, resolveDir: app, loader: "js" },
    bundle: true,
    write: false,
    format: "cjs",
    platform: "neutral",
    target: "es2022",
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

const code = await bundle();

function sandbox(inputs, options) {
  const context = vm.createContext({ TextEncoder, TextDecoder, atob, URL, inputs }, options);
  vm.runInContext(code, context, { timeout: 10_000 });
  return context;
}

test("the bundle needs no require, fs, fetch, Buffer or dynamic import", () => {
  for (const word of ["require", "fetch", "Buffer", "import", "readFileSync", "process"]) {
    // A free call or use, not a part of another name (esbuild's own helper is `__require`).
    const use = new RegExp(`(?<![\\w$.])${word}\\s*[(.]`);
    assert.ok(!use.test(code), `the bundle uses ${word}`);
  }
  assert.match(code, /new WebAssembly\.Module/);
  assert.match(code, /new WebAssembly\.Instance/);
});

test("decodes inside a fresh vm context, every delivery a new one", () => {
  const hostBytes = new TextEncoder().encode("png");
  const payload = { message: [{ type: "image", image: hostBytes }] };
  for (let delivery = 0; delivery < 3; delivery++) {
    const ctx = sandbox([{ kind: "send", payload }, { kind: "deliver", version: 9, payloads: [] }, { kind: "clear" }]);
    const [ok, newer, clear] = ctx.results;
    assert.equal(ok.ok.payloads[0], payload, "a host object passes through by reference");
    assert.equal(ok.ok.payloads[0].message[0].image, hostBytes);
    assert.equal(newer.error, "NEWER_VERSION");
    assert.equal(newer.name, "SessionInboxWireError");
    assert.equal(newer.wire, true, "instanceof works inside the sandbox");
    assert.equal(clear.ok.kind, "clear");
    assert.equal(ctx.metadata.sessionInboxWireVersion, 6);
  }
});

test("a sandbox that forbids wasm code generation gets a clear error, not a hang", () => {
  const ctx = sandbox([{ kind: "clear" }], { codeGeneration: { wasm: false } });
  const [r] = ctx.results;
  assert.equal(r.name, "HookwireStartError");
  assert.match(r.message, /WebAssembly/);
  assert.match(r.message, /code generation/);
});

test("a context without WebAssembly gets a start error that names it", () => {
  const context = vm.createContext({ TextEncoder, TextDecoder, atob, URL, inputs: [{ kind: "clear" }, { kind: "explode" }] });
  vm.runInContext("delete globalThis.WebAssembly", context);
  vm.runInContext(code, context, { timeout: 10_000 });
  for (const r of context.results) {
    assert.equal(r.name, "HookwireStartError");
    assert.match(r.message, /^hookwire: the session-inbox decoder cannot start: WebAssembly is not defined \(it needs /);
  }
});

test("a context without TextEncoder gets a start error that names the missing global", () => {
  const context = vm.createContext({ atob, TextDecoder, URL, inputs: [{ kind: "clear" }] });
  vm.runInContext(code, context, { timeout: 10_000 });
  const [r] = context.results;
  assert.equal(r.name, "HookwireStartError");
  assert.match(r.message, /TextEncoder/);
  assert.doesNotMatch(r.message, /code generation disallowed|is unavailable/, "not blamed on WebAssembly");
});
