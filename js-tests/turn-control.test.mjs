// The turn-control family (contract §14–§16) in JS: pkg/turn-control.cjs (the driver's decoder,
// `hookwire/turn-control`) and `turnControl` of pkg/encoder.cjs (the turn workflow's encoder and
// negotiation), checked against the frozen fixtures and artifacts the Rust tests read, against the
// native CLI (`hookwire --family turn-control …`) on generated inputs, inside a workflow sandbox,
// for resources, and through the TypeScript declarations (js-tests/types/turn-control-usage.ts).
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import vm from "node:vm";
import { canon, hookwire, hookwireBin, nativeCurrentVersion, pkgDir, root } from "./helpers.mjs";
import { KINDS as KIND_TABLE, SYMBOLS } from "../js/turn-control-contract.js";

// ---------------------------------------------------------------------------------------------
// Shared helpers of this file (kept here: helpers.mjs belongs to the session-inbox tests).

/** The turn-control entry of pkg/, resolved by the package's own exports map, as a consumer would. */
function turnControlPath() {
  const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8"));
  const entry = manifest.exports?.["./turn-control"];
  const rel = typeof entry === "string" ? entry : entry?.require ?? entry?.default;
  assert.ok(rel, 'pkg/package.json exports "./turn-control"');
  return join(pkgDir, rel);
}

const require = createRequire(import.meta.url);
/** The driver's decoder, loaded by require (the workflow bundle's CommonJS world). */
const tc = require(turnControlPath());
/** A version newer than this build's, whichever that is. */
const NEWER = tc.WIRE_VERSION + 1;
/** The encoder entry, whose `turnControl` is the turn workflow's encoder and negotiation. */
const encoder = require(join(pkgDir, "encoder.cjs"));

const FAMILY = "turn-control";
const DECODE_DIRS = ["v0", "v1", "chain"];
/** The encode targets, by the name the frozen artifacts use. */
const TC_TARGETS = { v0: { version: 0 }, v1: { version: 1 } };

/** Every case under fixtures/turn-control/<dir>, with its name. */
function tcCases(dir) {
  const base = join(root, "fixtures", FAMILY, dir);
  return readdirSync(base)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ name: `${dir}/${f.slice(0, -5)}`, stem: f.slice(0, -5), ...JSON.parse(readFileSync(join(base, f), "utf8")) }));
}

/** The frozen encoder output of case `stem` for target `t` (canonical JSON text), or undefined. */
function tcFrozen(stem, t) {
  const file = join(root, "artifacts", FAMILY, "v1", "encode", `${stem}.${t}.json`);
  return existsSync(file) ? readFileSync(file, "utf8").trimEnd() : undefined;
}

/** An error as the CLI writes it: code, and version/path when present. */
function errorOf(e) {
  return { code: e.code, ...(e.version === undefined ? {} : { version: e.version }), ...(e.path === undefined ? {} : { path: e.path }) };
}

/**
 * Decode with pkg/turn-control.cjs: { ok } or { error: { code, version?, path? }, detail: { expected?, message } };
 * anything else thrown fails.
 */
function tcResult(value) {
  try {
    return { ok: tc.decode(value) };
  } catch (e) {
    assert.ok(e instanceof tc.TurnControlWireError, `decode threw something else: ${e}`);
    return { error: errorOf(e), detail: { expected: e.expected, message: e.message } };
  }
}

/** Encode with turnControl.encode: { ok } or { error: { code, version?, path? } }. */
function encResult(command, target) {
  try {
    return { ok: target === undefined ? encoder.turnControl.encode(command) : encoder.turnControl.encode(command, target) };
  } catch (e) {
    assert.ok(e instanceof tc.TurnControlWireError, `encode threw something else: ${e}`);
    return { error: errorOf(e) };
  }
}

/** Run the native CLI for the turn-control family on NDJSON lines; one answer per line. */
function cli(args, lines) {
  const stdout = execFileSync(hookwireBin(), ["--family", FAMILY, ...args], {
    input: lines.map((v) => JSON.stringify(v)).join("\n") + "\n",
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  const out = stdout.trimEnd().split("\n");
  assert.equal(out.length, lines.length, "one output line per input line");
  return out;
}

/** Assert `e` is a turn-control wire error of this realm, as the contract describes it. */
function assertTurnControlError(e) {
  assert.ok(e instanceof tc.TurnControlWireError, `${e} is a TurnControlWireError`);
  assert.ok(e instanceof tc.WireError, "instanceof the entry's WireError");
  assert.ok(e instanceof hookwire.WireError, "instanceof the main entry's WireError");
  assert.ok(!(e instanceof hookwire.SessionInboxWireError), "not the other family's class");
  assert.ok(e instanceof Error);
  assert.equal(e.name, "TurnControlWireError");
  assert.equal(e.family, FAMILY);
  assert.equal(typeof e.code, "string");
  assert.ok(e.message.length > 10, "a message that says something");
}

/** A small seeded PRNG (mulberry32), so a failure can be replayed. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each kind and the fields it keeps, from the generated kind table (a symbol, plus 256 × its read check). */
const DECLARED = Object.fromEntries(KIND_TABLE.map(([kind, ...fields]) => [SYMBOLS[kind], fields.map((f) => SYMBOLS[f & 255])]));
const KINDS = Object.keys(DECLARED);

/** Generated turn-control values (JSON only), valid and invalid, in every kind and version. */
function valueGenerator(seed) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const json = (depth) => {
    const k = r();
    if (depth <= 0 || k < 0.45) return pick([null, true, false, 0, -1, 2.5, 1e21, "", "x", "ünï", 9007199254740993]);
    if (k < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => json(depth - 1));
    return Object.fromEntries(Array.from({ length: Math.floor(r() * 4) }, () => [pick(["a", "b", "kind", "version", "action", "z"]), json(depth - 1)]));
  };
  const action = () =>
    pick([
      { kind: "reply", text: "t" },
      { kind: "stop" },
      { kind: "reply", attachments: [{ name: "a.pdf" }], futureField: { x: 1 } },
      { kind: "", nested: json(2) },
      { kind: 3 },
      { text: "x" },
      { kind: null },
      [],
      [{ kind: "reply" }],
      null,
      "reply",
      7,
    ]);
  const buffered = () => pick([[], [{}], [{ kind: "deliver", version: 6, payloads: [] }], [{}, "x"], [null], [[]], [{}, {}, 3], {}, "x", null, 1]);
  const str = () => pick(["s", "s", "s", "", 7, null, [], {}, true]);
  const fields = {
    action: () => action(),
    bufferedDeliveries: () => buffered(),
    error: () => json(2),
    continuationToken: () => str(),
    inboxToken: () => str(),
    requestId: () => str(),
  };
  for (const key of Object.values(DECLARED).flat()) assert.ok(fields[key], `no generator for the field ${key}`);
  return () => {
    if (r() < 0.06) return json(3);
    const v = {};
    const kind = pick([...KINDS, ...KINDS, ...KINDS, "turn-handoff", "deliver", undefined, 7, null]);
    if (kind !== undefined) v.kind = kind;
    const version = pick([undefined, undefined, undefined, undefined, 0, 1, 1, 1, 1, 2, "1", null, 1.5, -1, true, 1e300, 9007199254740993, [1]]);
    if (version !== undefined) v.version = version;
    // Mostly the kind's own fields (each usually present), sometimes another kind's, sometimes noise.
    const own = DECLARED[kind] ?? [];
    for (const key of Object.keys(fields)) {
      const p = own.includes(key) ? 0.85 : 0.12;
      if (r() < p) v[key] = fields[key]();
    }
    if (r() < 0.15) v[pick(["sessionId", "extra", "payload", "turnId"])] = json(2);
    return v;
  };
}

/** Generated turn-control commands (JSON only), valid and invalid, with a target. */
function commandGenerator(seed) {
  const r = rng(seed);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const json = (depth) => {
    const k = r();
    // Numbers and strings whose canonical form (RFC 8785) the CLI must write exactly as JS does,
    // and keys whose UTF-16 order differs from their code-point order.
    if (depth <= 0 || k < 0.5) return pick([null, true, 0, -1, 2.5, 1e21, 1e-7, 0.1 + 0.2, 5e-324, 1e20, "", "x", "ünï", "\u2028\u0000\u001f\"\\\u007f\b\t/"]);
    if (k < 0.75) return Array.from({ length: Math.floor(r() * 3) }, () => json(depth - 1));
    return Object.fromEntries(Array.from({ length: Math.floor(r() * 3) }, () => [pick(["a", "kind", "z", "Z", "ä", "😀", "\uffff", ""]), json(depth - 1)]));
  };
  const str = () => pick(["s", "s", "s", "s", "", 7, null]);
  return () => {
    const kind = pick([...KINDS, ...KINDS, "turn-handoff", undefined]);
    const c = kind === undefined ? {} : { kind };
    const has = (p) => r() < p;
    const keeps = (field) => (DECLARED[kind] ?? []).includes(field) || has(0.05);
    if (keeps("action") || keeps("bufferedDeliveries")) {
      if (has(0.92)) c.action = pick([{ kind: "reply", text: "t", extra: json(2) }, { kind: "stop" }, { kind: "" }, { text: "x" }, { kind: 3 }, [], null, "reply"]);
      if (has(0.4)) c.bufferedDeliveries = pick([[], [{ kind: "deliver", version: 6, payloads: [] }], [{ a: json(2) }, {}], [1], [{}, null], {}, "x"]);
    }
    if (keeps("error") && has(0.92)) c.error = json(2);
    for (const field of ["continuationToken", "inboxToken", "requestId"]) if (keeps(field) && has(0.92)) c[field] = str();
    if (has(0.04)) c.version = pick([0, 1]);
    if (has(0.05)) c.stray = 1;
    const target = pick([{ version: 0 }, { version: 0 }, { version: 1 }, { version: 1 }, undefined, { version: NEWER }, { version: 0, variant: "send" }, { version: "1" }, "v1", null]);
    return { command: r() < 0.02 ? json(2) : c, target };
  };
}

// ---------------------------------------------------------------------------------------------
// The entry and its constants.

test("the entry's exports, constants and capability helper", () => {
  const current = nativeCurrentVersion("turn-control");
  assert.ok(current >= 1);
  assert.equal(tc.WIRE_VERSION, current);
  assert.equal(tc.CAPABILITY_KEY, "turnControlWireVersion");
  assert.deepEqual(tc.driverCapabilities(), { turnControlWireVersion: current });
  assert.notEqual(tc.driverCapabilities(), tc.driverCapabilities(), "a fresh object each call");
  assert.equal(typeof tc.decode, "function");
  assert.equal(typeof tc.memoryStats, "function");
  assert.equal(tc.WireError, hookwire.WireError, "one WireError class for both families in a realm");
  assert.equal(encoder.WireError, hookwire.WireError);
  assert.equal(encoder.TurnControlWireError, tc.TurnControlWireError, "the encoder throws the decoder's class");
  assert.equal(encoder.turnControl.WIRE_VERSION, tc.WIRE_VERSION);
  assert.ok(tc.TurnControlWireError.prototype instanceof hookwire.WireError);
  assert.ok(hookwire.SessionInboxWireError.prototype instanceof hookwire.WireError);
  assert.equal(tc.TurnControlWireError.prototype.name, "TurnControlWireError");
});

test("a decode's error is the error its family's class makes from the same arguments", () => {
  // A decode makes its error as an Error given WireError's fields and the family class's
  // prototype, without running the family's constructor: this holds only while that constructor
  // does nothing but call super. Its stack starts at decode's own frame, and names the class.
  const rejects = [
    [hookwire, hookwire.SessionInboxWireError, { kind: "deliver", version: 6, payloads: [{}, "x"], payload: {} }],
    [hookwire, hookwire.SessionInboxWireError, { kind: "deliver", version: 9 }],
    [tc, tc.TurnControlWireError, { kind: "turn-delivery-accepted", version: 1, requestId: 7 }],
    [tc, tc.TurnControlWireError, 3],
  ];
  for (const [entry, ErrorClass, value] of rejects) {
    let thrown;
    try {
      entry.decode(value);
    } catch (e) {
      thrown = e;
    }
    assert.ok(thrown instanceof ErrorClass, `${JSON.stringify(value)} was refused`);
    const made = new ErrorClass(thrown.code, thrown.message, thrown.version, thrown.path, thrown.expected);
    assert.equal(Object.getPrototypeOf(thrown), Object.getPrototypeOf(made));
    const own = (e) => Object.fromEntries(Reflect.ownKeys(e).filter((k) => k !== "stack").map((k) => [k, Object.getOwnPropertyDescriptor(e, k)]));
    assert.deepEqual(own(thrown), own(made), `${JSON.stringify(value)}: the same own properties, each described alike`);
    assert.deepEqual(Reflect.ownKeys(thrown), Reflect.ownKeys(made), "in the same order");
    const [head, top] = thrown.stack.split("\n");
    assert.equal(head, `${ErrorClass.prototype.name}: ${thrown.message}`);
    assert.match(top, /\bdecode\b/, "the stack starts at the decode");
    assert.ok(thrown instanceof Error && Object.prototype.toString.call(thrown) === "[object Error]");
  }
});

test("the entry loads by require and by import, as one instance", async () => {
  const esm = await import(turnControlPath());
  assert.equal(esm.decode, tc.decode);
  assert.equal(esm.TurnControlWireError, tc.TurnControlWireError);
  assert.deepEqual(esm.decode({ kind: "turn-delivery-accepted", requestId: "r" }), { kind: "turn-delivery-accepted", requestId: "r" });
});

// ---------------------------------------------------------------------------------------------
// The frozen fixtures.

for (const dir of DECODE_DIRS) {
  for (const c of tcCases(dir)) {
    test(`turn-control decode ${c.name}`, () => {
      if (c.error) {
        assert.throws(
          () => tc.decode(c.input),
          (e) => {
            assertTurnControlError(e);
            assert.equal(e.code, c.error.code);
            if (c.error.version !== undefined) assert.equal(e.version, c.error.version);
            if (c.error.path !== undefined) assert.equal(e.path, c.error.path);
            if (e.code === "INVALID") assert.equal(typeof e.expected, "string", "INVALID says what was expected");
            if (e.code === "NEWER_VERSION") {
              assert.match(e.message, /newer/);
              assert.ok(e.message.includes(String(c.error.version)) && e.message.includes(String(tc.WIRE_VERSION)));
            }
            return true;
          },
        );
      } else {
        const out = tc.decode(c.input);
        assert.equal(canon(out), canon(c.expect));
        assert.ok(!("version" in out), "the wire-only version is dropped");
      }
    });
  }
}

const decodable = DECODE_DIRS.flatMap((d) => tcCases(d)).filter((c) => !c.error);

test("action and bufferedDeliveries are the input's own references; the output is a fresh object", () => {
  let checked = 0;
  for (const c of decodable) {
    const input = structuredClone(c.input);
    const out = tc.decode(input);
    assert.notEqual(out, input, c.name);
    for (const key of ["action", "bufferedDeliveries", "error"]) {
      if (key in out && out[key] !== null && typeof out[key] === "object") {
        assert.equal(out[key], input[key], `${c.name}: ${key} by reference`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 4, "the fixtures exercise the by-reference fields");
  // Also by hand: every kind, versioned and not.
  const action = { kind: "reply", text: "t", nested: { deep: [1, 2] } };
  const bufferedDeliveries = [{ kind: "deliver", payloads: [] }];
  for (const version of [undefined, 0, 1]) {
    const input = { kind: "turn-result", action, bufferedDeliveries, ...(version === undefined ? {} : { version }) };
    const out = tc.decode(input);
    assert.equal(out.action, action);
    assert.equal(out.bufferedDeliveries, bufferedDeliveries);
    assert.notEqual(out, input);
    assert.deepEqual(Object.keys(out).sort(), ["action", "bufferedDeliveries", "kind"]);
  }
  const a = tc.decode({ kind: "turn-delivery-accepted", requestId: "r" });
  const b = tc.decode({ kind: "turn-delivery-accepted", requestId: "r" });
  assert.notEqual(a, b, "every decode returns a new object");
});

test("decode never mutates its input", () => {
  const inputs = [...DECODE_DIRS.flatMap((d) => tcCases(d)).map((c) => c.input)];
  const next = valueGenerator(7);
  for (let i = 0; i < 300; i++) inputs.push(next());
  for (const original of inputs) {
    const input = structuredClone(original);
    const before = canon(input);
    const keys = input && typeof input === "object" ? Object.keys(input) : null;
    tcResult(input);
    assert.equal(canon(input), before, `mutated ${before}`);
    if (keys) assert.deepEqual(Object.keys(input), keys, `keys of ${before}`);
  }
  // Frozen inputs (deeply) decode as well: nothing is written to them.
  const frozen = Object.freeze({ kind: "turn-result", version: 1, action: Object.freeze({ kind: "stop" }), bufferedDeliveries: Object.freeze([Object.freeze({})]) });
  assert.deepEqual(tc.decode(frozen), { kind: "turn-result", action: { kind: "stop" }, bufferedDeliveries: [{}] });
});

test("decode is idempotent on every decodable fixture (decode's output is a v0 value that decodes to itself)", () => {
  for (const c of decodable) {
    const once = tc.decode(structuredClone(c.input));
    const twice = tc.decode(once);
    assert.equal(canon(twice), canon(once), c.name);
    if (once.action) assert.equal(twice.action, once.action, `${c.name}: still by reference`);
  }
  // And on every value the generator makes that decodes.
  const next = valueGenerator(99);
  let n = 0;
  for (let i = 0; i < 1000; i++) {
    const r = tcResult(next());
    if (r.ok === undefined) continue;
    n++;
    assert.equal(canon(tc.decode(r.ok)), canon(r.ok), canon(r.ok));
  }
  assert.ok(n > 100, `too few decodable generated values (${n})`);
});

test("§16 order: version rules before the kind, the kind before the envelope", () => {
  const code = (v) => tcResult(v).error?.code ?? "ok";
  assert.equal(code({ kind: "turn-handoff", version: NEWER }), "NEWER_VERSION");
  assert.equal(code({ kind: "turn-result", version: "1", action: "x" }), "MALFORMED_VERSION");
  assert.equal(code({ kind: "turn-result", version: null }), "MALFORMED_VERSION");
  assert.equal(code({ kind: "turn-result", version: 1.5 }), "MALFORMED_VERSION");
  assert.equal(code({ kind: "turn-result", version: -1 }), "MALFORMED_VERSION");
  assert.equal(code({ kind: "turn-handoff", version: 1, requestId: 7 }), "UNKNOWN_KIND");
  assert.equal(code({ version: 1, requestId: "r" }), "UNKNOWN_KIND");
  assert.equal(code({ kind: "turn-delivery-accepted", version: 1 }), "INVALID");
  assert.equal(code({ kind: "turn-result", action: [] }), "LEGACY_SHAPE", "v0: the migration refuses first");
  assert.equal(code({ kind: "turn-result", version: 1, action: [] }), "INVALID", "v1: the envelope check");
  assert.equal(code({ kind: "turn-error", version: 1, error: null }), "ok", "null is an error value");
  for (const v of [null, undefined, 0, "turn-error", true, [], [{ kind: "turn-error", error: 1 }], () => 1]) {
    assert.equal(code(v), "NOT_OBJECT", String(v));
  }
  assert.throws(() => tc.decode({ kind: "turn-delivery-request", version: 1, continuationToken: "c", inboxToken: 3, requestId: "r" }), (e) => {
    assertTurnControlError(e);
    return e.code === "INVALID" && e.path === "/inboxToken" && /string/.test(e.expected);
  });
});

test("hostile values: a throwing getter or proxy trap is a typed error; a plain Proxy decodes", () => {
  const boom = (key, base) => Object.defineProperty({ ...base }, key, { get() { throw new Error("boom"); }, enumerable: true });
  for (const v of [
    boom("version", { kind: "turn-error", error: 1 }),
    boom("kind", {}),
    boom("action", { kind: "turn-result", version: 1 }),
    boom("action", { kind: "turn-result" }),
    boom("requestId", { kind: "turn-delivery-accepted" }),
    new Proxy({ kind: "turn-error", error: 1 }, { get() { throw new Error("trap"); } }),
    new Proxy({ kind: "turn-error", error: 1 }, { getOwnPropertyDescriptor() { throw new Error("trap"); } }),
  ]) {
    assert.throws(() => tc.decode(v), (e) => {
      assertTurnControlError(e);
      return e.code === "NOT_OBJECT";
    });
  }
  const action = { kind: "stop" };
  const proxied = new Proxy({ kind: "turn-result", version: 1, action }, {});
  const out = tc.decode(proxied);
  assert.deepEqual(out, { kind: "turn-result", action });
  assert.equal(out.action, action);
  assert.deepEqual(tc.decode({ kind: "turn-delivery-accepted", requestId: "r" }), { kind: "turn-delivery-accepted", requestId: "r" }, "still usable");
});

// ---------------------------------------------------------------------------------------------
// The native CLI and pkg/turn-control.cjs on generated inputs.

test("native CLI and pkg/turn-control.cjs agree on 2000 generated inputs", () => {
  const next = valueGenerator(20261130);
  const inputs = Array.from({ length: 2000 }, next);
  const lines = cli(["decode", "--lines"], inputs);
  let ok = 0;
  const codes = new Set();
  const kinds = new Set();
  for (let i = 0; i < inputs.length; i++) {
    const native = JSON.parse(lines[i]);
    // What the CLI saw is the JSON text, so the wasm decoder gets the same value re-parsed.
    const wasm = tcResult(JSON.parse(JSON.stringify(inputs[i])));
    const label = `#${i} ${JSON.stringify(inputs[i])}`;
    if (native.ok !== undefined) {
      ok++;
      kinds.add(native.ok.kind);
      assert.ok(wasm.ok !== undefined, `${label}: native ok, wasm ${canon(wasm)}`);
      assert.equal(canon(wasm.ok), canon(native.ok), label);
    } else {
      codes.add(native.error.code);
      assert.equal(wasm.error?.code, native.error.code, `${label}: code (wasm ${canon(wasm)})`);
      assert.equal(wasm.error?.version, native.error.version, `${label}: version`);
      assert.equal(wasm.error?.path, native.error.path, `${label}: path`);
      assert.equal(wasm.detail.expected, native.error.expected, `${label}: expected`);
      assert.equal(wasm.detail.message, native.error.message, `${label}: message`);
    }
  }
  assert.ok(ok > 250 && ok < 1900, `a useful mix of valid and invalid (${ok} valid)`);
  for (const k of KINDS) assert.ok(kinds.has(k), `no valid ${k} was generated`);
  for (const c of ["NOT_OBJECT", "MALFORMED_VERSION", "NEWER_VERSION", "LEGACY_SHAPE", "UNKNOWN_KIND", "INVALID"]) {
    assert.ok(codes.has(c), `the generator never produced ${c}`);
  }
});

// ---------------------------------------------------------------------------------------------
// The encoder: turnControl.encode.

for (const c of tcCases("encode")) {
  test(`turn-control encode ${c.name} for {version: 0} and {version: 1}`, () => {
    for (const [name, target] of Object.entries(TC_TARGETS)) {
      const r = encResult(c.command, target);
      if (c.error) {
        assert.equal(r.error?.code, c.error.code, `${name}: ${canon(r)}`);
        if (c.error.path !== undefined) assert.equal(r.error.path, c.error.path, name);
        assert.throws(() => encoder.turnControl.encode(c.command, target), (e) => {
          assertTurnControlError(e);
          return true;
        });
      } else {
        assert.ok(r.ok !== undefined, `${name}: ${canon(r)}`);
        const frozen = tcFrozen(c.stem, name);
        assert.ok(frozen !== undefined, `a frozen output for ${c.stem}.${name}`);
        assert.equal(canon(r.ok), frozen, name);
        if (target.version === 0) assert.ok(!("version" in r.ok), "v0 has no version key");
        else assert.equal(r.ok.version, 1);
        // Round trip: the frozen decode.
        assert.equal(canon(tc.decode(r.ok)), canon(c.decoded), `${name}: decode(encode(c))`);
        assert.equal(canon(tc.decode(JSON.parse(frozen))), canon(c.decoded), `${name}: decode(frozen)`);
      }
    }
  });
}

test("the default target is the current version", () => {
  const command = { kind: "turn-delivery-cancelled", requestId: "r" };
  assert.deepEqual(encoder.turnControl.encode(command), { kind: "turn-delivery-cancelled", requestId: "r", version: 1 });
  assert.deepEqual(encoder.turnControl.encode(command), encoder.turnControl.encode(command, { version: 1 }));
});

test("encode: the returned action is the command's own object, for every target", () => {
  const action = { kind: "reply", text: "t", attachments: [{ name: "a.pdf" }], futureField: { x: [1, { y: null }] } };
  const command = { kind: "turn-result", action, bufferedDeliveries: [{ kind: "deliver", version: 6, payloads: [] }] };
  const before = canon(command);
  for (const target of [undefined, { version: 0 }, { version: 1 }]) {
    const out = target === undefined ? encoder.turnControl.encode(command) : encoder.turnControl.encode(command, target);
    assert.equal(out.action, action, canon(target));
    assert.notEqual(out, command);
    assert.equal(tc.decode(out).action, action, "and decode keeps it");
  }
  assert.equal(canon(command), before, "the command is not mutated");
  for (const f of tcCases("encode").filter((c) => !c.error && c.command.kind === "turn-result")) {
    for (const target of Object.values(TC_TARGETS)) assert.equal(encoder.turnControl.encode(f.command, target).action, f.command.action, f.name);
  }
});

test("encode: targets, strictness and JSON-ness", () => {
  const ok = { kind: "turn-error", error: { message: "boom" } };
  for (const target of [{ version: NEWER }, { version: -1 }, { version: 0.5 }, { version: "1" }, { version: 0, variant: "send" }, { version: 1, extra: true }, "v1", 1, {}, null]) {
    assert.throws(() => encoder.turnControl.encode(ok, target), (e) => {
      assertTurnControlError(e);
      return e.code === "UNSUPPORTED_TARGET";
    }, canon(target));
  }
  assert.equal(encoder.turnControl.encode(ok, { version: 1.0 }).version, 1);
  const invalid = (command, path) =>
    assert.throws(() => encoder.turnControl.encode(command), (e) => {
      assertTurnControlError(e);
      assert.equal(e.code, "INVALID", path);
      assert.equal(e.path, path);
      return true;
    });
  invalid({ kind: "turn-delivery-request", continuationToken: "c", requestId: "r" }, "/inboxToken");
  invalid({ kind: "turn-continuation-token", continuationToken: 3 }, "/continuationToken");
  invalid({ kind: "turn-result", action: { kind: "stop" }, bufferedDeliveries: {} }, "/bufferedDeliveries");
  invalid({ kind: "turn-result" }, "/action");
  invalid({ kind: "turn-error", error: NaN }, "/error");
  invalid({ kind: "turn-error", error: { at: new Date(0) } }, "/error/at");
  invalid({ kind: "turn-result", action: { kind: "stop", bytes: new Uint8Array(1) } }, "/action/bytes");
  invalid({ kind: "turn-result", action: { kind: "stop", n: 1n } }, "/action/n");
  const cyclic = { kind: "stop" };
  cyclic.self = cyclic;
  invalid({ kind: "turn-result", action: cyclic }, "/action/self");
  // Keys whose value is undefined are absent.
  assert.deepEqual(encoder.turnControl.encode({ kind: "turn-delivery-accepted", requestId: "r", extra: undefined }, { version: 0 }), { kind: "turn-delivery-accepted", requestId: "r" });
  assert.throws(() => encoder.turnControl.encode(undefined), { code: "INVALID" });
  assert.throws(() => encoder.turnControl.encode([]), { code: "INVALID" });
});

test(
  "encode: the target is checked before the command (§16), even when the command is not JSON",
  () => {
    assert.throws(() => encoder.turnControl.encode({ kind: "turn-error", error: 1 }, { version: NEWER }), { code: "UNSUPPORTED_TARGET" });
    assert.throws(() => encoder.turnControl.encode({ kind: "turn-error" }, { version: NEWER }), { code: "UNSUPPORTED_TARGET" }, "invalid command, bad target");
    assert.throws(() => encoder.turnControl.encode({ kind: "turn-error", error: NaN }, { version: NEWER }), { code: "UNSUPPORTED_TARGET" }, "non-JSON command, bad target");
  },
);

test("JS encoder and native CLI agree on 2000 generated commands", () => {
  const next = commandGenerator(314159);
  const requests = Array.from({ length: 2000 }, next);
  const lines = cli(["encode", "--lines"], requests.map(({ command, target }) => (target === undefined ? { command } : { command, target })));
  let ok = 0;
  const codes = new Set();
  for (let i = 0; i < requests.length; i++) {
    const native = JSON.parse(lines[i]);
    const { command, target } = requests[i];
    const js = encResult(command, target);
    const label = `#${i} ${JSON.stringify(requests[i])}`;
    if (native.ok !== undefined) {
      ok++;
      assert.ok(js.ok !== undefined, `${label}: native ok, js ${canon(js)}`);
      assert.equal(canon(js.ok), lines[i].slice(6, -1), label);
      if (command.kind === "turn-result") assert.equal(js.ok.action, command.action, `${label}: action by reference`);
      // Every encoder output decodes, on both sides.
      assert.equal(canon(tc.decode(js.ok)), canon(tc.decode(JSON.parse(lines[i].slice(6, -1)))), label);
    } else {
      codes.add(native.error.code);
      assert.equal(js.error?.code, native.error.code, `${label}: code (js ${canon(js)})`);
      assert.equal(js.error?.path, native.error.path, `${label}: path`);
      assert.equal(js.error?.version, native.error.version, `${label}: version`);
    }
  }
  assert.ok(ok > 300 && ok < 1800, `a useful mix of valid and invalid (${ok} valid)`);
  for (const c of ["INVALID", "UNSUPPORTED_TARGET"]) assert.ok(codes.has(c), `the generator never produced ${c}`);
});

test("decode(encode(c, t)) is decode(c) for every generated valid command and target", () => {
  const next = commandGenerator(2718);
  let n = 0;
  for (let i = 0; i < 2000; i++) {
    const { command, target } = next();
    const r = encResult(command, target);
    if (r.ok === undefined) continue;
    n++;
    const decoded = tc.decode(r.ok);
    // The command is the wire value without version: as an unversioned value it decodes the same.
    assert.equal(canon(decoded), canon(tc.decode(command)), canon(command));
  }
  assert.ok(n > 300, `too few valid commands (${n})`);
});

// ---------------------------------------------------------------------------------------------
// Negotiation: turnControl.negotiate and `negotiate --lines`.

const negotiateCases = tcCases("negotiate");

for (const c of negotiateCases) {
  test(`turn-control negotiate ${c.name}`, () => {
    const want = c.answer.ok ? { ok: c.answer.ok.target } : { error: c.answer.error.code };
    // The CLI, with the fixture's write ceiling.
    const args = ["negotiate", "--lines", ...(c.writeAtMost ? ["--write-at-most", String(c.writeAtMost)] : [])];
    const [line] = cli(args, [c.request]);
    const native = JSON.parse(line);
    assert.deepEqual(native.ok ? { ok: native.ok.target } : { error: native.error.code }, want, "CLI");
    // JS: a request line without `capabilities` is a CLI-only shape; JS has no such line to refuse.
    if (!("capabilities" in c.request)) return;
    let got;
    try {
      got = { ok: encoder.turnControl.negotiate(c.request.capabilities, { writeAtMost: c.writeAtMost }) };
    } catch (e) {
      assertTurnControlError(e);
      got = { error: e.code };
    }
    assert.deepEqual(got, want, "JS");
  });
}

test("negotiate: every fixture through one `negotiate --lines` run, in order", () => {
  const plain = negotiateCases.filter((c) => !c.writeAtMost);
  const lines = cli(["negotiate", "--lines"], plain.map((c) => c.request));
  for (const [i, c] of plain.entries()) {
    const native = JSON.parse(lines[i]);
    assert.equal(native.ok ? canon(native.ok.target) : native.error.code, c.answer.ok ? canon(c.answer.ok.target) : c.answer.error.code, c.name);
  }
});

test("negotiate: JS and the CLI agree on generated capabilities, refusals word for word", () => {
  const r = rng(5);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const requests = Array.from({ length: 400 }, () => {
    const k = r();
    if (k < 0.1) return { capabilities: pick([null, 1, "x", [1], true]) };
    const caps = {};
    if (r() < 0.85) caps.turnControlWireVersion = pick([1, 1, 2, 3, 9007199254740991, 9007199254740992, 0, -1, 1.5, "1", null, true, [1], { v: 1 }, 1e300]);
    if (r() < 0.3) caps.sessionInboxWireVersion = pick([6, "x"]);
    return { capabilities: caps };
  });
  const lines = cli(["negotiate", "--lines"], requests);
  const seen = new Set();
  for (const [i, req] of requests.entries()) {
    const native = JSON.parse(lines[i]);
    let js;
    try {
      js = { ok: encoder.turnControl.negotiate(req.capabilities) };
    } catch (e) {
      assertTurnControlError(e);
      js = { error: e.code, message: e.message };
    }
    const want = native.ok ? { ok: native.ok.target } : { error: native.error.code, message: native.error.message };
    seen.add(canon(native.ok ? want : { error: want.error }));
    assert.deepEqual(js, want, JSON.stringify(req));
  }
  for (const w of [{ ok: { version: 0 } }, { ok: { version: 1 } }, { error: "UNSUPPORTED_TARGET" }]) assert.ok(seen.has(canon(w)), canon(w));
});

test("negotiate: the write ceiling, no capabilities, and the target feeding encode", () => {
  const { negotiate, encode } = encoder.turnControl;
  assert.deepEqual(negotiate({ turnControlWireVersion: 1 }, { writeAtMost: 1 }), { version: 1 });
  assert.deepEqual(negotiate({ turnControlWireVersion: 5 }, { writeAtMost: 1 }), { version: 1 });
  assert.deepEqual(negotiate(undefined), { version: 0 }, "an older driver passes no capabilities");
  assert.deepEqual(negotiate(null), { version: 0 });
  assert.deepEqual(negotiate({}), { version: 0 });
  assert.deepEqual(negotiate({ turnControlWireVersion: undefined }), { version: 0 }, "an undefined capability is absent, as an undefined field is everywhere");
  assert.deepEqual(negotiate(tc.driverCapabilities()), { version: 1 }, "this build's driver");
  for (const w of [0, 2, 1.5, "1", NaN, Infinity, -Infinity]) {
    assert.throws(() => negotiate({ turnControlWireVersion: 1 }, { writeAtMost: w }), (e) => e.code === "INVALID_REQUEST", String(w));
  }
  for (const caps of [{ turnControlWireVersion: 0 }, { turnControlWireVersion: NaN }, { turnControlWireVersion: Infinity }, { turnControlWireVersion: "1" }]) {
    assert.throws(() => negotiate(caps), (e) => {
      assertTurnControlError(e);
      return e.code === "UNSUPPORTED_TARGET";
    });
  }
  const command = { kind: "turn-continuation-token", continuationToken: "s-1:turn-control:4" };
  assert.deepEqual(encode(command, negotiate(null)), command);
  assert.deepEqual(encode(command, negotiate(tc.driverCapabilities())), { ...command, version: 1 });
  // CLI: the write ceiling is a configuration (exit 2 when it is not 1..current).
  const bad = spawnSync(hookwireBin(), ["--family", FAMILY, "negotiate", "--lines", "--write-at-most", "2"], { input: '{"capabilities":null}\n', encoding: "utf8" });
  assert.equal(bad.status, 2, bad.stdout + bad.stderr);
});

test(
  "negotiate: a present capability that JSON cannot hold is refused, never taken for absent",
  () => {
    assert.throws(() => encoder.turnControl.negotiate({ turnControlWireVersion: 1n }), { code: "UNSUPPORTED_TARGET" });
    const throwing = Object.defineProperty({}, "turnControlWireVersion", { get() { throw new Error("boom"); }, enumerable: true });
    assert.throws(() => encoder.turnControl.negotiate(throwing), (e) => e instanceof tc.TurnControlWireError);
    // The object's own key is what counts, not what its toJSON says.
    assert.throws(() => encoder.turnControl.negotiate({ turnControlWireVersion: 0, toJSON: () => ({}) }), { code: "UNSUPPORTED_TARGET" });
  },
);

// ---------------------------------------------------------------------------------------------
// The workflow sandbox (contract §10): the entry bundled by esbuild, run in a fresh vm context.

const TC_WORKFLOW = `
const { decode, TurnControlWireError, WireError, driverCapabilities, WIRE_VERSION, memoryStats } = require("hookwire/turn-control");
const results = [];
for (const input of globalThis.inputs) {
  try {
    results.push({ ok: decode(input) });
  } catch (e) {
    results.push({ error: e, code: e.code, name: e.name, family: e.family, wire: e instanceof TurnControlWireError, base: e instanceof WireError, path: e.path, message: e.message });
  }
}
globalThis.results = results;
globalThis.capabilities = driverCapabilities();
globalThis.capabilitiesJson = JSON.stringify(driverCapabilities());
globalThis.classes = { TurnControlWireError, WireError, WIRE_VERSION };
globalThis.handles = memoryStats().handles;
`;

const BOTH_WORKFLOW = `
const inbox = require("hookwire");
const turn = require("hookwire/turn-control");
const errors = [];
for (const [family, decode] of [["inbox", inbox.decode], ["turn", turn.decode]]) {
  try { decode({ version: 99 }); } catch (e) { errors.push(e); }
}
globalThis.both = {
  inbox, turn, errors,
  sameBase: inbox.WireError === turn.WireError,
  inboxIsBase: errors[0] instanceof turn.WireError && errors[0] instanceof inbox.SessionInboxWireError && !(errors[0] instanceof turn.TurnControlWireError),
  turnIsBase: errors[1] instanceof inbox.WireError && errors[1] instanceof turn.TurnControlWireError && !(errors[1] instanceof inbox.SessionInboxWireError),
  inboxDecoded: inbox.decode({ kind: "clear" }),
  turnDecoded: turn.decode({ kind: "turn-delivery-accepted", requestId: "r" }),
  metadata: JSON.stringify(inbox.hookMetadata()),
  capabilities: JSON.stringify(turn.driverCapabilities()),
};
`;

async function bundle(contents) {
  const esbuild = await import("esbuild");
  // Resolve "hookwire" as a consumer's bundler does: a package in node_modules, by its exports.
  // A folder of its own, so this file can run beside js-tests/sandbox.test.mjs.
  const app = join(root, "target", "js-tests", "turn-control-app");
  mkdirSync(join(app, "node_modules"), { recursive: true });
  rmSync(join(app, "node_modules", "hookwire"), { recursive: true, force: true });
  symlinkSync(pkgDir, join(app, "node_modules", "hookwire"), "dir");
  const out = await esbuild.build({
    stdin: { contents, resolveDir: app, loader: "js" },
    bundle: true,
    write: false,
    format: "cjs",
    platform: "neutral",
    target: "es2022",
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

function sandbox(code, inputs, options) {
  const context = vm.createContext({ TextEncoder, TextDecoder, atob, URL, inputs }, options);
  vm.runInContext(code, context, { timeout: 10_000 });
  return context;
}

test("the turn-control bundle needs no require, fs, fetch, Buffer or dynamic import", async () => {
  const code = await bundle(TC_WORKFLOW);
  for (const word of ["require", "fetch", "Buffer", "import", "readFileSync", "process"]) {
    const use = new RegExp(`(?<![\\w$.])${word}\\s*[(.]`);
    assert.ok(!use.test(code), `the bundle uses ${word}`);
  }
  assert.match(code, /new WebAssembly\.Module/);
  assert.match(code, /new WebAssembly\.Instance/);
});

test("hookwire/turn-control decodes inside a fresh vm context; its errors are that realm's classes", async () => {
  const code = await bundle(TC_WORKFLOW);
  const action = { kind: "reply", bytes: new TextEncoder().encode("png") };
  const bufferedDeliveries = [{ kind: "deliver", payloads: [] }];
  for (let delivery = 0; delivery < 3; delivery++) {
    const ctx = sandbox(code, [
      { kind: "turn-result", version: 1, action, bufferedDeliveries },
      { kind: "turn-error", version: NEWER, error: "x" },
      { kind: "turn-delivery-accepted", requestId: 7, version: 1 },
      { kind: "turn-result", action: [] },
      { kind: "turn-continuation-token", continuationToken: "s:turn-control:1" },
    ]);
    const [ok, newer, invalid, legacy, token] = ctx.results;
    assert.equal(ok.ok.action, action, "a host object passes through by reference");
    assert.equal(ok.ok.bufferedDeliveries, bufferedDeliveries);
    assert.equal(ok.ok.kind, "turn-result");
    assert.ok(!("version" in ok.ok));
    assert.equal(newer.code, "NEWER_VERSION");
    assert.equal(newer.name, "TurnControlWireError");
    assert.equal(newer.family, "turn-control");
    assert.equal(newer.wire, true, "instanceof works inside the sandbox");
    assert.equal(newer.base, true, "and the sandbox's WireError");
    assert.equal(invalid.code, "INVALID");
    assert.equal(invalid.path, "/requestId");
    assert.equal(legacy.code, "LEGACY_SHAPE");
    assert.equal(token.ok.continuationToken, "s:turn-control:1");
    // The errors are the sandbox realm's: its classes, its Error, not the host's.
    const e = newer.error;
    const realmError = vm.runInContext("Error", ctx);
    assert.ok(e instanceof ctx.classes.TurnControlWireError);
    assert.ok(e instanceof ctx.classes.WireError);
    assert.ok(e instanceof realmError);
    assert.ok(!(e instanceof tc.TurnControlWireError), "not the host's class");
    assert.ok(!(e instanceof hookwire.WireError), "not the host's WireError");
    assert.ok(!(e instanceof Error), "not the host's Error");
    assert.notEqual(ctx.classes.WireError, hookwire.WireError);
    assert.equal(vm.runInContext('globalThis[Symbol.for("hookwire.WireError")]', ctx), ctx.classes.WireError, "the realm's registered base class");
    // The driver's capabilities: this build reads version 1.
    assert.equal(ctx.capabilitiesJson, '{"turnControlWireVersion":1}');
    assert.deepEqual({ ...ctx.capabilities }, { turnControlWireVersion: 1 });
    assert.equal(ctx.classes.WIRE_VERSION, 1);
    assert.equal(ctx.handles, 0);
  }
});

test("hookwire and hookwire/turn-control bundled together share one WireError in the sandbox", async () => {
  const code = await bundle(BOTH_WORKFLOW);
  const ctx = sandbox(code, []);
  const { both } = ctx;
  assert.equal(both.sameBase, true);
  assert.equal(both.inboxIsBase, true);
  assert.equal(both.turnIsBase, true);
  assert.equal(both.errors[0].family, "session-inbox");
  assert.equal(both.errors[0].name, "SessionInboxWireError");
  assert.equal(both.errors[1].family, "turn-control");
  assert.equal(both.errors[1].name, "TurnControlWireError");
  assert.equal(both.errors[0].code, "NEWER_VERSION");
  assert.equal(both.errors[1].code, "NEWER_VERSION");
  assert.equal(canon(both.inboxDecoded), '{"kind":"clear"}');
  assert.equal(canon(both.turnDecoded), '{"kind":"turn-delivery-accepted","requestId":"r"}');
  assert.equal(both.metadata, '{"sessionInboxWireVersion":6}');
  assert.equal(both.capabilities, '{"turnControlWireVersion":1}');
  assert.ok(!(both.errors[1] instanceof hookwire.WireError), "the host's class is another realm's");
});

test("a sandbox that forbids wasm code generation gets a clear error from the turn-control decoder", async () => {
  const code = await bundle(`
    const { decode } = require("hookwire/turn-control");
    try { decode({ kind: "turn-error", error: 1 }); globalThis.r = { ok: true }; }
    catch (e) { globalThis.r = { name: e.name, message: e.message }; }
  `);
  const ctx = sandbox(code, [], { codeGeneration: { wasm: false } });
  assert.equal(ctx.r.name, "HookwireStartError");
  assert.match(ctx.r.message, /WebAssembly/);
  assert.match(ctx.r.message, /turn-control/);
});

// ---------------------------------------------------------------------------------------------
// Resources.

test("no handles held and no wasm memory growth after 50,000 mixed decodes", () => {
  const throwing = Object.defineProperty({ kind: "turn-result", version: 1 }, "action", { get() { throw new Error("boom"); }, enumerable: true });
  const MIX = [
    { kind: "turn-result", action: { kind: "reply", text: "t" }, bufferedDeliveries: [{}, {}] },
    { kind: "turn-result", version: 1, action: { kind: "stop" } },
    { kind: "turn-error", error: { message: "boom" } },
    { kind: "turn-delivery-request", version: 1, continuationToken: "c", inboxToken: "i", requestId: "r" },
    { kind: "turn-delivery-accepted", requestId: "r" },
    new Proxy({ kind: "turn-continuation-token", continuationToken: "c" }, {}),
    // invalid from here
    { kind: "turn-result", action: [] },
    { kind: "turn-result", version: 1, action: { kind: "stop" }, bufferedDeliveries: [{}, "x"] },
    { kind: "turn-handoff", version: 1 },
    { kind: "turn-error", version: NEWER },
    { kind: "turn-error", version: "1" },
    null,
    throwing,
    new Proxy({}, { get() { throw new Error("trap"); } }),
  ];
  const VALID = 6;
  const run = (n) => {
    let errors = 0;
    for (let i = 0; i < n; i++) {
      try {
        tc.decode(MIX[i % MIX.length]);
      } catch (e) {
        assertTurnControlError(e);
        errors++;
      }
    }
    return errors;
  };
  run(5_000);
  const before = tc.memoryStats();
  assert.equal(before.handles, 0);
  const errors = run(50_000);
  const after = tc.memoryStats();
  let expected = 0;
  for (let i = 0; i < 50_000; i++) expected += Number(i % MIX.length >= VALID);
  assert.equal(errors, expected, "every invalid value is a typed error, every valid one decodes");
  assert.equal(after.handles, 0);
  assert.deepEqual(after, before, "wasm memory and table unchanged after warm-up");
});

// ---------------------------------------------------------------------------------------------
// The TypeScript declarations (pkg/turn-control.d.ts, pkg/encoder.d.ts), as a driver's code uses them.

/** Compile js-tests/types/<file> with tsc in strict mode, "hookwire" resolved to pkg/ by its exports. */
function compile(file) {
  const app = join(root, "target", "js-tests", `types-${file.replace(/\W/g, "-")}`);
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, "node_modules"), { recursive: true });
  symlinkSync(pkgDir, join(app, "node_modules", "hookwire"), "dir");
  copyFileSync(join(root, "js-tests", "types", file), join(app, file));
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"], skipLibCheck: false, types: [] },
      files: [file],
    }),
  );
  return spawnSync(join(root, "node_modules", ".bin", "tsc"), ["-p", join(app, "tsconfig.json")], { encoding: "utf8", cwd: app });
}

test("pkg/turn-control.d.ts and turnControl of pkg/encoder.d.ts type a driver in strict mode", () => {
  const tsc = compile("turn-control-usage.ts");
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});

test(
  "encoding for a negotiated target (version 0 | 1) does not type a version the value may lack",
  () => {
    const tsc = compile("turn-control-negotiated.ts");
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
    assert.equal("version" in encoder.turnControl.encode({ kind: "turn-delivery-accepted", requestId: "r" }, encoder.turnControl.negotiate(null)), false);
  },
);

test(
  "encode: a string JSON text cannot carry unaltered (an unpaired surrogate) is INVALID at its pointer",
  () => {
    for (const [command, path] of [
      [{ kind: "turn-error", error: "\ud800" }, "/error"],
      [{ kind: "turn-error", error: { "\ud800": 1 } }, "/error"],
      [{ kind: "turn-result", action: { kind: "stop", text: "a\udc00" } }, "/action/text"],
      [{ kind: "turn-delivery-accepted", requestId: "\udfff" }, "/requestId"],
    ]) {
      assert.throws(() => encoder.turnControl.encode(command), (e) => {
        assertTurnControlError(e);
        assert.equal(e.code, "INVALID", path);
        assert.ok(e.path === path || (typeof e.path === "string" && e.path.startsWith(`${path}/`)), `${e.path} at ${path}`);
        return true;
      });
    }
  },
);

test(
  "decode: a turn-error whose error is not a JSON value at all (bigint, function, symbol) is INVALID at /error",
  () => {
    assert.throws(() => tc.decode({ kind: "turn-error", error: undefined }), { code: "INVALID", path: "/error" });
    for (const error of [1n, () => 1, Symbol("s")]) {
      for (const version of [undefined, 1]) {
        assert.throws(() => tc.decode({ kind: "turn-error", error, ...(version === undefined ? {} : { version }) }), (e) => {
          assertTurnControlError(e);
          return e.code === "INVALID" && e.path === "/error";
        }, `${typeof error} v${version}`);
      }
    }
  },
);
