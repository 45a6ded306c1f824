// The ES module entries a bundler takes (pkg/hookwire.mjs, pkg/turn-control.mjs over one shared
// pkg/hookwire-core.mjs): they decode exactly as the self-contained CommonJS files do, and a bundle
// holding both families holds the core once and runs in a fresh vm context.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import vm from "node:vm";
import { canon, cases, DECODE_DIRS, pkgDir, root } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const cjs = { session: require(join(pkgDir, "hookwire.cjs")), turn: require(join(pkgDir, "turn-control.cjs")) };
const esm = { session: await import(join(pkgDir, "hookwire.mjs")), turn: await import(join(pkgDir, "turn-control.mjs")) };

/** What a decode answers: the canonical value, or the error's class, code, message, version, path and expected. */
function outcome(entry, value) {
  try {
    return canon(entry.decode(value));
  } catch (e) {
    return JSON.stringify({ name: e.name, wire: e instanceof entry.WireError, code: e.code, message: e.message, version: e.version, path: e.path, expected: e.expected });
  }
}

function turnCases() {
  const out = [];
  for (const dir of ["v0", "v1", "chain"]) {
    const base = join(root, "fixtures", "turn-control", dir);
    for (const f of readdirSync(base).filter((f) => f.endsWith(".json"))) out.push(JSON.parse(readFileSync(join(base, f), "utf8")).input);
  }
  return out;
}

test("the ES module entries export what the CommonJS files export", () => {
  assert.deepEqual(Object.keys(esm.session).sort(), Object.keys(cjs.session).sort());
  assert.deepEqual(Object.keys(esm.turn).sort(), Object.keys(cjs.turn).sort());
  assert.equal(esm.session.WireError, cjs.session.WireError, "one WireError per realm");
  assert.equal(esm.turn.WireError, esm.session.WireError);
});

test("what a realm holds under the classes' symbols before hookwire loads never changes what it throws", () => {
  // Each case in a fresh process: something under a family class's key first (a stray value, a
  // getter or a setter-only accessor inherited from Object.prototype, a global object that takes no new
  // property),
  // then every entry loaded; each must throw its family's error, shared by the entries where the
  // realm can keep it.
  const cases = {
    "a number stored under the key": `globalThis[Symbol.for("hookwire.SessionInboxWireError")] = 42; globalThis[Symbol.for("hookwire.TurnControlWireError")] = {};`,
    "an inherited getter": `Object.defineProperty(Object.prototype, Symbol.for("hookwire.TurnControlWireError"), { configurable: true, get() { return 1; } }); Object.defineProperty(Object.prototype, Symbol.for("hookwire.WireError"), { configurable: true, get() { return () => {}; } });`,
    "an inherited setter alone": `for (const n of ["WireError", "SessionInboxWireError", "TurnControlWireError"]) Object.defineProperty(Object.prototype, Symbol.for("hookwire." + n), { configurable: true, set() { throw new Error("setter ran"); } });`,
    "a global object that takes no new property": `require(${JSON.stringify(join(pkgDir, "hookwire.cjs"))}); Object.preventExtensions(globalThis);`,
  };
  const run = (setup) => `${setup}
    (async () => {
      const cjs = { session: require(${JSON.stringify(join(pkgDir, "hookwire.cjs"))}), turn: require(${JSON.stringify(join(pkgDir, "turn-control.cjs"))}) };
      const esm = { session: await import(${JSON.stringify(join(pkgDir, "hookwire.mjs"))}), turn: await import(${JSON.stringify(join(pkgDir, "turn-control.mjs"))}) };
      const encoder = require(${JSON.stringify(join(pkgDir, "encoder.cjs"))});
      const caught = (f) => { try { f(); } catch (e) { return e; } };
      const errors = [
        ["session", caught(() => cjs.session.decode({ kind: "nope", version: 1 })), cjs.session.SessionInboxWireError],
        ["session", caught(() => esm.session.decode(null)), esm.session.SessionInboxWireError],
        ["session", caught(() => encoder.encode({ kind: "explode" })), encoder.SessionInboxWireError],
        ["turn", caught(() => cjs.turn.decode(null)), cjs.turn.TurnControlWireError],
        ["turn", caught(() => esm.turn.decode([])), esm.turn.TurnControlWireError],
        ["turn", caught(() => encoder.turnControl.encode({ kind: "turn-result" })), encoder.TurnControlWireError],
      ];
      console.log(JSON.stringify({
        errors: errors.map(([family, e, C]) => ({ family, name: e.name, code: e.code, own: e instanceof C, wire: e instanceof cjs.session.WireError })),
        shared: cjs.session.SessionInboxWireError === esm.session.SessionInboxWireError && cjs.turn.TurnControlWireError === encoder.TurnControlWireError,
      }));
    })();`;
  for (const [name, setup] of Object.entries(cases)) {
    const out = JSON.parse(execFileSync(process.execPath, ["-e", run(setup)], { encoding: "utf8" }));
    for (const e of out.errors) {
      assert.equal(e.name, e.family === "session" ? "SessionInboxWireError" : "TurnControlWireError", `${name}: ${JSON.stringify(e)}`);
      assert.ok(e.own && e.wire && typeof e.code === "string", `${name}: ${JSON.stringify(e)}`);
    }
    if (!name.includes("no new property")) assert.ok(out.shared, `${name}: one class per family`);
  }
});

test("each family's error class is one per realm: what any entry throws is an instance of what every entry exports", async () => {
  const modules = {
    session: [require(join(pkgDir, "module.cjs")), await import(join(pkgDir, "module.mjs"))],
    turn: [require(join(pkgDir, "turn-control-module.cjs")), await import(join(pkgDir, "turn-control-module.mjs"))],
  };
  const encoder = require(join(pkgDir, "encoder.cjs"));
  const classes = {
    session: [cjs.session, esm.session, encoder, ...modules.session].map((e) => e.SessionInboxWireError),
    turn: [cjs.turn, esm.turn, encoder, ...modules.turn].map((e) => e.TurnControlWireError),
  };
  for (const [family, list] of Object.entries(classes)) {
    for (const c of list) assert.equal(c, list[0], `${family}: one class`);
  }
  assert.notEqual(classes.session[0], classes.turn[0]);
  const thrown = (f) => {
    try {
      f();
    } catch (e) {
      return e;
    }
    assert.fail("nothing thrown");
  };
  const errors = {
    session: [thrown(() => esm.session.decode({ kind: "deliver", version: esm.session.WIRE_VERSION + 1 })), thrown(() => cjs.session.decode(null)), thrown(() => encoder.encode({ kind: "explode" }))],
    turn: [thrown(() => esm.turn.decode({ kind: "turn-result", version: esm.turn.WIRE_VERSION + 1 })), thrown(() => cjs.turn.decode([])), thrown(() => encoder.turnControl.encode({ kind: "turn-result" }))],
  };
  for (const [family, list] of Object.entries(errors)) {
    for (const e of list) {
      assert.ok(e instanceof classes[family][0], `${family}: ${e && e.stack}`);
      assert.ok(e instanceof cjs.session.WireError);
      assert.equal(e.name, family === "session" ? "SessionInboxWireError" : "TurnControlWireError");
      assert.ok(!(e instanceof classes[family === "session" ? "turn" : "session"][0]));
    }
  }
});

test("the ES module entries decode every fixture as the CommonJS files do", () => {
  let n = 0;
  for (const dir of DECODE_DIRS) {
    for (const c of cases(dir)) {
      assert.equal(outcome(esm.session, c.input), outcome(cjs.session, c.input), c.name);
      n++;
    }
  }
  for (const input of turnCases()) {
    assert.equal(outcome(esm.turn, input), outcome(cjs.turn, input), JSON.stringify(input));
    n++;
  }
  assert.ok(n > 100, `${n} cases`);
  // A turn-control value is no session inbox kind, and the other way round: each family decodes
  // with its own tables, whichever decoded last.
  assert.equal(JSON.parse(outcome(esm.session, { kind: "turn-result", version: 1, action: { kind: "x" } })).code, "UNKNOWN_KIND");
  assert.equal(JSON.parse(outcome(esm.turn, { kind: "clear", version: 1 })).code, "UNKNOWN_KIND");
});

test("a bundle of both families holds the core once and decodes both in a fresh vm context", async () => {
  const esbuild = await import("esbuild");
  const app = join(root, "target", "js-tests", "bundle-app");
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, "node_modules"), { recursive: true });
  symlinkSync(pkgDir, join(app, "node_modules", "hookwire"), "dir");
  const contents = `import { decode as inbox } from "hookwire";
import { decode as turn } from "hookwire/turn-control";
globalThis.results = [inbox({ kind: "clear", version: 6 }), turn({ kind: "turn-error", version: 1, error: { message: "x" } })];`;
  // As the Workflow SDK's builder resolves packages: the `workflow` condition, a CommonJS script.
  const out = await esbuild.build({
    stdin: { contents, resolveDir: app, loader: "js" }, bundle: true, write: false, format: "cjs", platform: "neutral",
    target: "es2022", conditions: ["workflow"], mainFields: ["module", "main"], logLevel: "silent", metafile: true,
  });
  const inputs = Object.keys(out.metafile.inputs).map((p) => p.split("/").pop());
  assert.ok(inputs.includes("hookwire-core.mjs") && inputs.includes("hookwire.mjs") && inputs.includes("turn-control.mjs"), inputs.join(", "));
  assert.ok(!inputs.some((p) => p.endsWith(".cjs")), `no self-contained file in the bundle: ${inputs.join(", ")}`);
  const code = out.outputFiles[0].text;
  for (const once of ["HookwireStartError", "Uint8Array.of(", "Symbol.for(`hookwire."]) {
    assert.equal(code.split(once).length - 1, 1, `${once} once in the bundle`);
  }
  const context = vm.createContext({ TextEncoder });
  vm.runInContext(code, context);
  assert.deepEqual(JSON.parse(JSON.stringify(context.results)), [{ kind: "clear" }, { kind: "turn-error", error: { message: "x" } }]);
});

test("pkg/package.json gives bundlers the ES modules and require the self-contained files", () => {
  const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  for (const [path, file] of [[".", "hookwire"], ["./turn-control", "turn-control"]]) {
    const entry = manifest.exports[path];
    assert.equal(entry.workflow, `./${file}.mjs`);
    assert.equal(entry.import, `./${file}.mjs`);
    assert.equal(entry.default, `./${file}.cjs`);
    for (const f of [`${file}.mjs`, `${file}.cjs`, `${file}.d.mts`, `${file}.d.cts`]) assert.ok(manifest.files.includes(f), f);
  }
  assert.ok(manifest.files.includes("hookwire-core.mjs"));
});
