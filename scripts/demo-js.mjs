// The JS half of the demonstration: the pkg/ decoder bundled into one CommonJS script and run
// in a fresh node:vm context, as a workflow bundle runs on every delivery.
import { mkdirSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const app = join(root, "target", "demo-app");
rmSync(app, { recursive: true, force: true });
mkdirSync(join(app, "node_modules"), { recursive: true });
symlinkSync(join(root, "pkg"), join(app, "node_modules", "hookwire"), "dir");

const workflow = `
const { decode, SessionInboxWireError } = require("hookwire");
globalThis.transcript = globalThis.inbox.map((value) => {
  try { return { ok: decode(value) }; }
  catch (e) { if (!(e instanceof SessionInboxWireError)) throw e; return { error: e.code + ": " + e.message }; }
});`;
const esbuild = await import("esbuild");
const built = await esbuild.build({
  stdin: { contents: workflow, resolveDir: app, loader: "js" },
  bundle: true, write: false, format: "cjs", platform: "neutral", target: "es2022", minify: true,
});
const code = built.outputFiles[0].text;

const inbox = [
  ["legacy deliver envelope (≤ 0.30.4)", { kind: "deliver", payloads: [{ message: "hi" }] }],
  ["raw send command (0.30.5–0.31.0)", { kind: "send", payload: { message: [{ type: "image", image: new Uint8Array([137, 80, 78, 71]) }] } }],
  ["version 1 with its mirror", { kind: "deliver", version: 1, payloads: [{ message: "hi" }], payload: { message: "hi" } }],
  ["a control", { kind: "reset", version: 1, reason: "user asked" }],
  ["version 6 cancelling a turn's tasks", { kind: "cancel", version: 6, turnId: "turn-3", tasks: true }],
  ["a newer deployment's value", { kind: "deliver", version: 7, payloads: [], payload: {} }],
  ["an envelope version 6 does not declare", { kind: "deliver", version: 6, payloads: "one", payload: {} }],
];
const context = vm.createContext({ TextEncoder, TextDecoder, atob, URL, inbox: inbox.map(([, v]) => v) });
vm.runInContext(code, context);

console.log(`\n5. The same decoder in JS: pkg/ inlined into a ${code.length}-byte CommonJS workflow script,`);
console.log("   run in a fresh node:vm context (no require, no fs, synchronous wasm instantiation):");
const show = (v) => JSON.stringify(v, (_k, x) => (x instanceof Uint8Array ? `Uint8Array(${x.length}) by reference` : x));
inbox.forEach(([label], i) => {
  const r = context.transcript[i];
  console.log(`   ${label}\n     → ${r.ok ? show(r.ok) : `parked and reported: ${r.error}`}`);
});
