// Hostile callers and hostile values, for the decoders and the encoder: a stack nearly used up,
// polluted prototypes, getters that decode re-entrantly or answer differently on each read,
// proxies claiming any length, objects lying about what they are, commands too deep or too long.
// Whatever happens, each entry throws its family's error (or, where the caller left no stack to
// build one, the engine's own RangeError) and keeps working afterwards.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import vm from "node:vm";
import { canon, cases, DECODE_DIRS, decodeExpectation, hookwire, pkgDir, root } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const encoder = require(join(pkgDir, "encoder.cjs"));
const turnControl = require(join(pkgDir, "turn-control.cjs"));
const { decode, SessionInboxWireError } = hookwire;

const DELIVER = { kind: "deliver", payloads: [{ message: "a" }, { message: "b" }], requestId: "r" };
const DECODED = { kind: "deliver", payloads: [{ message: "a" }, { message: "b" }], requestId: "r" };

/** The outcome of `f`: { ok } or { code, path }; anything but a family error fails the test. */
function outcome(f, ErrorClass = SessionInboxWireError) {
  try {
    return { ok: f() };
  } catch (e) {
    assert.ok(e instanceof ErrorClass, `not a ${ErrorClass.name}: ${e && e.stack}`);
    return { code: e.code, path: e.path, expected: e.expected, message: e.message };
  }
}

/** What decode answers for each value: its output as canonical text, or its error's code (anything else named). */
const answers = (values) =>
  values.map((v) => {
    try {
      return canon(decode(v));
    } catch (e) {
      return e instanceof SessionInboxWireError ? e.code : `${e.name}: ${e.message}`;
    }
  });

const healthy = () => {
  assert.deepEqual(decode(DELIVER), DECODED);
  assert.deepEqual(hookwire.memoryStats().handles, 0);
};

/** Call `f` at every depth of a recursion that runs out of stack, on the way back. */
function atEveryDepth(f) {
  const seen = new Map();
  const dive = () => {
    try {
      dive();
    } catch {}
    let r;
    try {
      f();
      r = "ok";
    } catch (e) {
      r = e instanceof hookwire.WireError ? e.code : e instanceof RangeError ? "RangeError" : `${e && e.name}: ${e && e.message}`;
    }
    seen.set(r, (seen.get(r) ?? 0) + 1);
  };
  for (let i = 0; i < 5; i++) dive();
  return seen;
}

// --- The decoder -------------------------------------------------------------------------------

test("decode with the stack running out around it: a family error or the engine's own, then healthy", () => {
  const seen = atEveryDepth(() => decode(DELIVER));
  for (const k of seen.keys()) assert.ok(["ok", "NOT_OBJECT", "RangeError"].includes(k), k);
  assert.ok(seen.get("ok") > 1000);
  healthy();
});

test("a decode nested in a getter that unwound through the module leaves the outer decode's answer intact", () => {
  const storm = () => atEveryDepth(() => decode({ kind: "deliver", payloads: [{}] }));
  const unknown = { get kind() { storm(); return "explode"; } };
  assert.equal(outcome(() => decode(unknown)).code, "UNKNOWN_KIND");
  const invalid = { version: 1, get kind() { storm(); return "cancel"; }, taskId: 5 };
  assert.deepEqual(outcome(() => decode(invalid)).path, "/taskId");
  healthy();
});

test("a decode nested in a getter of a field keeps the fields read before it", () => {
  // The nested decode's handles stack above the outer decode's fields: the element at fault is
  // still named, and the checked values are the ones returned.
  const nest = () => decode({ kind: "deliver", version: 6, payload: {}, payloads: [{}], caller: {} });
  const bad = { kind: "deliver", version: 6, payload: {}, payloads: [{}, 1], get auth() { nest(); return null; } };
  const r = outcome(() => decode(bad));
  assert.deepEqual([r.code, r.path, r.expected], ["INVALID", "/payloads/1", "an object"]);
  const p = { message: "m" };
  const good = { kind: "deliver", version: 6, payload: p, payloads: [p], get auth() { nest(); return null; }, caller: { id: "c" } };
  assert.deepEqual(decode(good), { kind: "deliver", payloads: [p], auth: null, caller: { id: "c" } });
  const kinded = { kind: "turn-result", version: 1, action: { get kind() { nest(); return "reply"; } }, bufferedDeliveries: [{}] };
  assert.equal(turnControl.decode(kinded).action, kinded.action);
  healthy();
});

test("inherited setters never run on what decode builds", () => {
  const calls = [];
  const keys = ["kind", "reason", "payloads", "payload", "deliveryMetadata", "payloadIndex", "requestId", "auth", "taskId"];
  try {
    for (const k of keys) Object.defineProperty(Object.prototype, k, { set() { calls.push(k); throw new Error(`setter ${k}`); }, configurable: true });
    assert.deepEqual(outcome(() => decode({ kind: "reset", reason: "r" })).ok, { kind: "reset", reason: "r" });
    const sent = outcome(() => decode({ kind: "send", payload: { message: "m" }, delivery: { channelKind: "c" }, requestId: "q" })).ok;
    assert.ok(Object.hasOwn(sent, "payloads") && Object.hasOwn(sent.deliveryMetadata[0], "payloadIndex"));
    assert.equal(sent.deliveryMetadata[0].payloadIndex, 0);
  } finally {
    for (const k of keys) delete Object.prototype[k];
  }
  assert.deepEqual(calls, []);
});

test("every decode fixture decodes the same under polluted prototypes (values and setters)", () => {
  const all = DECODE_DIRS.flatMap((d) => cases(d));
  // Every key the decoders read or write but `version`, which the error classes assign when an
  // error is built (js/wire-error.js), so a setter there runs for errors that name a version.
  const keys = ["kind", "payload", "payloads", "auth", "caller", "deliveryMetadata", "requestId", "taskDeliveryId", "turnPolicy", "delivery", "payloadIndex", "reason", "taskId", "turnId", "tasks", "task", "inputRequests", "agentRequests", "replyTo", "hookPayload", "childContinuationToken", "event", "requests", "request", "sequence", "stepIndex"];
  const run = () => answers(all.map((c) => c.input));
  const pristine = run();
  let withValues;
  let withSetters;
  const calls = [];
  try {
    for (const k of [...keys, "version"]) Object.prototype[k] = k === "version" ? 9 : k === "kind" ? "reset" : [{ polluted: k }];
    for (let i = 0; i < 4; i++) Array.prototype[i] = { polluted: i };
    withValues = run();
  } finally {
    for (const k of [...keys, "version"]) delete Object.prototype[k];
    for (let i = 0; i < 4; i++) delete Array.prototype[i];
  }
  try {
    for (const k of keys) Object.defineProperty(Object.prototype, k, { set() { calls.push(k); }, configurable: true });
    for (let i = 0; i < 4; i++) Object.defineProperty(Array.prototype, i, { set() { calls.push(i); }, configurable: true });
    withSetters = run();
  } finally {
    for (const k of keys) delete Object.prototype[k];
    for (let i = 0; i < 4; i++) delete Array.prototype[i];
  }
  assert.deepEqual(calls, []);
  for (const [i, c] of all.entries()) {
    const want = decodeExpectation(c);
    assert.equal(pristine[i], want.error ? want.error.code : canon(want.expect), c.name);
    assert.equal(withValues[i], pristine[i], `${c.name} with polluted values`);
    assert.equal(withSetters[i], pristine[i], `${c.name} with inherited setters`);
  }
});

test("the arrays decode builds meet no inherited index: setters on Object.prototype, read-only indexes, a prototype put under Array.prototype", () => {
  const all = DECODE_DIRS.flatMap((d) => cases(d));
  // A value whose task rewrite builds arrays element by element (two requests, two payload lists).
  const old = { task: { inputRequests: [{ taskId: "t", hookPayload: { childContinuationToken: "c", event: { requests: [{ id: "a" }, { id: "b" }], sequence: 1, stepIndex: 0, turnId: "u" } } }] } };
  const rewrite = { kind: "deliver", version: 3, payloads: [{ message: "m" }, old], payload: old };
  const run = () => answers([rewrite, ...all.map((c) => c.input)]);
  const pristine = run();
  assert.equal(decode(rewrite).payloads[1].task.inputRequests.length, 2);
  const calls = [];
  const INDEXES = [0, 1, 2, 3];
  const setters = (p) => { for (const i of INDEXES) Object.defineProperty(p, i, { set() { calls.push(i); }, configurable: true }); };
  const clear = (p) => { for (const i of INDEXES) delete p[i]; };
  const phases = {
    "index setters on Object.prototype": [() => setters(Object.prototype), () => clear(Object.prototype)],
    "read-only indexes on Array.prototype": [
      () => { for (const i of INDEXES) Object.defineProperty(Array.prototype, i, { value: { polluted: i }, writable: false, configurable: true }); },
      () => clear(Array.prototype),
    ],
    "a prototype with index setters under Array.prototype": [
      () => { const between = Object.create(Object.prototype); setters(between); Object.setPrototypeOf(Array.prototype, between); },
      () => Object.setPrototypeOf(Array.prototype, Object.prototype),
    ],
  };
  for (const [name, [pollute, restore]] of Object.entries(phases)) {
    let got;
    try {
      pollute();
      got = run();
    } finally {
      restore();
    }
    assert.deepEqual(calls, [], name);
    assert.deepEqual(got, pristine, name);
  }
  healthy();
});

test("descriptor and option keys on Object.prototype (get, set, value, shared, maximum, …) change no decode or encode, nor a fresh start", () => {
  // Every descriptor and option object the packages make has no prototype: one made with
  // Object.prototype would inherit these (a polluted `get` makes a data descriptor throw; a
  // polluted `shared` or `maximum` makes a memory throw, or a smaller one).
  const POLLUTION = { get: () => 1, set: () => {}, value: "polluted", writable: false, enumerable: false, configurable: false, shared: true, maximum: 1, cause: "polluted" };
  const inbox = DECODE_DIRS.flatMap((d) => cases(d)).map((c) => c.input);
  const turn = [
    { kind: "turn-result", version: 1, action: { kind: "stop" }, bufferedDeliveries: [{ a: 1 }] },
    { kind: "turn-result", action: { kind: "reply" } },
    { kind: "turn-delivery-request", version: 1, continuationToken: "c", inboxToken: "i", requestId: "r" },
    { kind: "turn-error", version: 1, error: { message: "m" } },
  ];
  const bytes = new Uint8Array([1, 2, 3]);
  const commands = [
    ...JSON.parse(readFileSync(join(root, "bench", "commands.json"), "utf8")).commands,
    // An answer array longer than the encoder's item stack, inside an array being built.
    { kind: "deliver", payloads: ["a", "b", "c"].map((p) => ({ message: p, context: Array.from({ length: 400 }, (_, i) => `${p}${i}`) })) },
    { kind: "send", payload: { message: [{ type: "image", image: bytes }] } },
  ];
  const answer = (f) => {
    try {
      return { ok: f() };
    } catch (e) {
      return { error: e instanceof hookwire.WireError ? e.code : `${e && e.name}: ${e && e.message}` };
    }
  };
  const run = () => ({
    inbox: inbox.map((v) => answer(() => decode(v))),
    turn: turn.map((v) => answer(() => turnControl.decode(v))),
    encoded: commands.map((c) => answer(() => encoder.encode(c))),
    // A decode and an encode that unwind through their modules (the stack runs out): the next
    // ones start fresh instances, with fresh memories, under the pollution.
    storm: (atEveryDepth(() => decode(DELIVER)), atEveryDepth(() => encoder.encode({ kind: "clear" })), answer(() => [decode(DELIVER), encoder.encode({ kind: "clear" })])),
  });
  const pristine = run();
  let polluted;
  try {
    for (const [k, v] of Object.entries(POLLUTION)) Object.prototype[k] = v;
    polluted = run();
  } finally {
    for (const k of Object.keys(POLLUTION)) delete Object.prototype[k];
  }
  const text = (r) => (r.ok !== undefined ? canon(r.ok) : r.error);
  for (const part of ["inbox", "turn", "encoded"]) {
    for (const [i, r] of pristine[part].entries()) assert.equal(text(polluted[part][i]), text(r), `${part} ${i}`);
  }
  assert.ok(pristine.encoded.every((r) => r.ok !== undefined || typeof r.error === "string"));
  assert.equal(polluted.encoded.at(-1).ok.payloads[0].message[0].image, bytes, "the binary, by reference");
  assert.deepEqual(polluted.storm, pristine.storm);
  assert.ok(pristine.storm.ok, JSON.stringify(pristine.storm));
  healthy();
});

test("decode reads own properties only: nothing inherited becomes a kind, a version or a field", () => {
  try {
    Object.prototype.kind = "reset";
    Object.prototype.version = 9;
    Object.prototype.auth = { principalId: "inherited" };
    assert.equal(outcome(() => decode({})).code, "UNKNOWN_KIND");
    assert.equal(outcome(() => turnControl.decode({}), turnControl.TurnControlWireError).code, "UNKNOWN_KIND");
    assert.deepEqual(outcome(() => decode({ kind: "clear" })).ok, { kind: "clear" });
    const raw = outcome(() => decode({ kind: "send", payload: { message: "m" } })).ok;
    assert.ok(!Object.hasOwn(raw, "auth"));
    assert.deepEqual(Object.keys(raw), ["kind", "payloads"]);
  } finally {
    delete Object.prototype.kind;
    delete Object.prototype.version;
    delete Object.prototype.auth;
  }
  try {
    Array.prototype[0] = { message: "inherited" };
    assert.equal(outcome(() => decode({ kind: "deliver", payloads: new Array(1) })).code, "LEGACY_SHAPE");
    assert.equal(outcome(() => decode({ kind: "deliver", version: 6, payload: {}, payloads: new Array(1) })).path, "/payloads/0");
  } finally {
    delete Array.prototype[0];
  }
  // An own getter is an own property; a getter on a class's prototype is not.
  assert.deepEqual(decode({ get kind() { return "clear"; } }), { kind: "clear" });
  class Inherited {
    get kind() {
      return "clear";
    }
  }
  assert.equal(outcome(() => decode(new Inherited())).code, "UNKNOWN_KIND");
  class Own {
    constructor() {
      this.kind = "reset";
      this.reason = "r";
    }
  }
  assert.deepEqual(decode(new Own()), { kind: "reset", reason: "r" });
  assert.equal(outcome(() => decode(Object.create({ kind: "clear" }))).code, "UNKNOWN_KIND");
  healthy();
});

test("own-key tests replaced after the decoder loaded change nothing it reads", () => {
  const { hasOwnProperty } = Object.prototype;
  const { hasOwn } = Object;
  try {
    // Lying built-ins: every key own (an inherited value would then be read), or none.
    Object.prototype.hasOwnProperty = () => true;
    Object.hasOwn = () => true;
    Object.prototype.kind = "clear";
    assert.equal(outcome(() => decode({})).code, "UNKNOWN_KIND");
    assert.equal(outcome(() => turnControl.decode({}), turnControl.TurnControlWireError).code, "UNKNOWN_KIND");
    delete Object.prototype.kind;
    Object.prototype.hasOwnProperty = () => false;
    Object.hasOwn = () => false;
    assert.deepEqual(decode({ kind: "reset", reason: "r" }), { kind: "reset", reason: "r" });
  } finally {
    delete Object.prototype.kind;
    Object.prototype.hasOwnProperty = hasOwnProperty;
    Object.hasOwn = hasOwn;
  }
  healthy();
});

test("an inherited getter never runs: decode does not read what a value only inherits", () => {
  let calls = 0;
  const keys = ["kind", "version", "payload", "payloads", "auth", "reason", "error", "action", "requestId", "message", "0"];
  const getter = { get: () => (calls++, "from a getter"), configurable: true };
  const values = [
    () => decode({ kind: "clear" }),
    () => decode({ kind: "send", payload: { message: "m" } }),
    () => decode({ kind: "deliver", version: 6, payloads: [{ message: "m" }], payload: { message: "m" } }),
    () => decode({}),
    () => turnControl.decode({ kind: "turn-error", version: 1, error: 1 }),
    () => turnControl.decode({ kind: "turn-result", action: { kind: "reply" } }),
  ];
  const plain = values.map((f) => canon(outcome(f)));
  try {
    for (const k of keys) Object.defineProperty(Object.prototype, k, getter);
    Object.defineProperty(Array.prototype, "0", getter);
    const polluted = values.map((f) => canon(outcome(f)));
    assert.equal(calls, 0, "an inherited getter ran");
    assert.deepEqual(polluted, plain);
  } finally {
    for (const k of keys) delete Object.prototype[k];
    delete Array.prototype[0];
  }
  healthy();
});

test("top-level Dates, Maps and class instances are read by their own properties: UNKNOWN_KIND without an own kind", () => {
  for (const v of [new Date(), new Map([["kind", "clear"]]), new Set(), /kind/, new Error("kind"), new (class {})()]) {
    assert.equal(outcome(() => decode(v)).code, "UNKNOWN_KIND", Object.prototype.toString.call(v));
  }
});

test("arrays claiming lengths they do not hold are refused at once", () => {
  // Work is counted, not timed: a claimed length must not be walked element by element.
  let reads = 0;
  const claiming = (n) =>
    new Proxy([], {
      get: (t, k) => {
        if (typeof k === "string" && /^\d+$/.test(k)) reads++;
        return k === "length" ? n : k in t ? t[k] : {};
      },
    });
  for (const n of [Infinity, -1, 1.5, NaN, "9", 2 ** 32, 2 ** 32 - 1, 2 ** 21]) {
    for (const v of [{ kind: "deliver", payloads: claiming(n) }, { kind: "deliver", version: 6, payload: {}, payloads: claiming(n) }]) {
      reads = 0;
      assert.equal(outcome(() => decode(v)).code, "NOT_OBJECT", String(n));
      assert.ok(reads <= 1, `${reads} element reads for a claimed length of ${n}`);
    }
  }
  const sparse = [];
  sparse.length = 2 ** 32 - 1;
  const refused = outcome(() => decode({ kind: "deliver", version: 1, payload: {}, payloads: sparse }));
  assert.equal(refused.code, "NOT_OBJECT");
  // Its message says what was refused: no getter threw here.
  assert.match(refused.message, /a sparse array is too long/);
  const task = { inputRequests: sparse };
  assert.equal(outcome(() => decode({ kind: "deliver", version: 1, payload: { task }, payloads: [] })).code, "NOT_OBJECT");
  // A real array of any length, and a short sparse one, are read as they are.
  assert.equal(outcome(() => decode({ kind: "deliver", payloads: new Array(10) })).code, "LEGACY_SHAPE");
  const long = Array.from({ length: 2 ** 20 + 1 }, () => ({}));
  assert.equal(outcome(() => decode({ kind: "deliver", payloads: long })).ok.payloads, long);
  healthy();
});

test("a getter that decodes the value it belongs to costs a bounded amount of work", () => {
  for (const base of [{}, { version: 6 }, { version: 1 }, { version: 3, payload: {} }]) {
    let calls = 0;
    const v = {
      ...base,
      get kind() {
        calls++;
        decode(this);
        return "clear";
      },
    };
    const r = outcome(() => decode(v));
    assert.ok(calls < 10_000, `${calls} getter calls`);
    assert.equal(r.code, "NOT_OBJECT", "the innermost refusal surfaces as an unreadable value");
  }
  // Shallow re-entrant decodes are answered as usual.
  const inner = { get kind() { return decode({ kind: "clear" }).kind; } };
  const outer = { get kind() { return decode({ get kind() { return decode(inner).kind; } }).kind; } };
  assert.deepEqual(decode(outer), { kind: "clear" });
  healthy();
});

test("what decode checks is what it returns, however a getter answers", () => {
  const flip = (a, b) => {
    let n = 0;
    return () => (n++ ? b : a);
  };
  // [value, outcome]: a legacy deliver is checked, then copied (a second read), and the copy's
  // envelope is checked again before it is projected. A value at the current version has its
  // `kind` read once, with its version: the declared-version checks and the envelope see the same
  // kind. An unversioned deliver that its shortcut takes as current has its `kind` read once
  // too, with the head (the fourth case: a deliver), and the shortcut reads its payloads first:
  // when they are not objects it runs the steps, whose step 0 → 1 reads them again (the third
  // case: a second read, an array).
  const cases = [
    [() => ({ kind: "deliver", get payloads() { return this.p(); }, p: flip([{}], "not an array") }), "INVALID /payloads"],
    [() => ({ kind: "deliver", version: 6, payload: {}, get payloads() { return this.p(); }, p: flip([{}], "not an array") }), '{"kind":"deliver","payloads":[{}]}'],
    [() => ({ kind: "deliver", get payloads() { return this.p(); }, p: flip("not an array", [{}]) }), '{"kind":"deliver","payloads":[{}]}'],
    [() => ({ get kind() { return this.k(); }, k: flip("deliver", "reset"), payloads: [{}], reason: 5 }), '{"kind":"deliver","payloads":[{}]}'],
    [() => ({ version: 6, get kind() { return this.k(); }, k: flip("reset", "deliver"), reason: "r" }), '{"kind":"reset","reason":"r"}'],
    [() => ({ version: 6, get kind() { return this.k(); }, k: flip("deliver", "reset"), payloads: [], reason: "r" }), "MISDECLARED_VERSION"],
    [() => ({ kind: "send", get payload() { return this.p(); }, p: flip({ message: "m" }, "not an object") }), '{"kind":"deliver","payloads":[{"message":"m"}]}'],
  ];
  for (const [make, want] of cases) {
    const r = outcome(() => decode(make()));
    assert.equal(r.ok ? canon(r.ok) : `${r.code}${r.path === undefined ? "" : ` ${r.path}`}`, want);
    if (r.ok) assert.deepEqual(decode(r.ok), r.ok, "a returned value passes its own checks");
  }
});

// --- The encoder -------------------------------------------------------------------------------

const nested = (n, leaf = 1) => {
  let t = leaf;
  for (let i = 0; i < n; i++) t = { a: t };
  return t;
};
const encodes = () => {
  assert.deepEqual(encoder.encode({ kind: "clear" }), { kind: "clear", version: 6 });
  const bytes = new Uint8Array([1, 2]);
  assert.equal(encoder.encode({ kind: "send", payload: { message: [{ type: "image", image: bytes }] } }).payloads[0].message[0].image, bytes);
};

test("a command nested past 1,000 levels is INVALID where it crosses the limit, as often as it is given", () => {
  assert.equal(encoder.encode({ kind: "send", payload: { outputSchema: nested(998) } }).kind, "deliver");
  const deep = { kind: "send", payload: { outputSchema: nested(1998) } };
  for (let i = 0; i < 400; i++) {
    const r = outcome(() => encoder.encode(deep, { version: 1 }));
    assert.equal(r.code, "INVALID");
    assert.equal(r.path, `/payloads/0/outputSchema${"/a".repeat(999)}`);
    assert.match(r.expected, /nested at most 1000 levels/);
  }
  assert.equal(outcome(() => encoder.turnControl.encode({ kind: "turn-result", action: { kind: "x", d: nested(1200) } }), encoder.TurnControlWireError).code, "INVALID");
  encodes();
});

test("encode with the stack running out: INVALID (nested too deeply) or the engine's own, then the module is fresh", () => {
  const deep = { kind: "send", payload: { outputSchema: nested(990) } };
  const seen = new Map();
  const paths = new Set();
  const attempt = () => {
    try {
      encoder.encode(deep);
      return "ok";
    } catch (e) {
      if (!(e instanceof SessionInboxWireError)) return e instanceof RangeError ? "RangeError" : `${e && e.name}: ${e && e.message}`;
      assert.equal(e.code, "INVALID");
      assert.match(e.message, /stack/);
      paths.add(e.path.startsWith("/payloads/0/outputSchema") ? "under the deep value" : e.path);
      return "INVALID";
    }
  };
  // Encode from ever deeper in a recursion, until the recursion itself runs out.
  const dive = (n) => (n > 0 ? dive(n - 1) : attempt());
  for (let n = 0; ; n += 40) {
    let r;
    try {
      r = dive(n);
    } catch (e) {
      assert.ok(e instanceof RangeError);
      break;
    }
    seen.set(r, (seen.get(r) ?? 0) + 1);
  }
  for (const k of seen.keys()) assert.ok(["ok", "INVALID", "RangeError"].includes(k), k);
  assert.ok(seen.get("INVALID") > 0 && seen.get("ok") > 0, JSON.stringify([...seen]));
  assert.deepEqual([...paths], ["under the deep value"]);
  for (let i = 0; i < 50; i++) encodes();
});

test("encode throws the family's error for values that throw, whatever they throw", () => {
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const trap = new Proxy({ message: "m" }, { get() { throw new Error("get trap"); } });
  const keys = new Proxy({}, { ownKeys() { throw new Error("ownKeys trap"); } });
  const unprintable = Object.create(null);
  const cases = [
    [{ get kind() { throw new Error("kind"); } }, ""],
    [revoked, ""],
    [trap, ""],
    [keys, ""],
    [{ kind: "send", payload: revoked }, "/payloads/0"],
    [{ kind: "send", payload: trap }, "/payloads/0"],
    [{ kind: "send", payload: { message: [revoked] } }, "/payloads/0/message/0"],
    [{ kind: "send", payload: { task: keys } }, "/payloads/0/task"],
    [{ kind: "send", get payload() { throw unprintable; } }, ""],
    [{ kind: "send", get payload() { throw Symbol("s"); } }, ""],
    [{ kind: "send", get payload() { throw new Proxy({}, { get() { throw new Error("again"); }, getPrototypeOf() { throw new Error("again"); } }); } }, ""],
  ];
  for (const [command, path] of cases) {
    const r = outcome(() => encoder.encode(command));
    assert.equal(r.code, "INVALID", path);
    assert.equal(r.path, path);
    const t = outcome(() => encoder.turnControl.encode(command), encoder.TurnControlWireError);
    assert.equal(t.code, "INVALID");
  }
  encodes();
});

test("negotiate rejects with the family's error only", async () => {
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  const hook = { token: "c", runId: "r", metadata: { n: 1n } };
  const family = (e) => e instanceof SessionInboxWireError;
  await assert.rejects(encoder.negotiate({ get kind() { throw new Error("k"); } }, { token: "c" }, () => null), family);
  await assert.rejects(encoder.negotiate({ kind: "clear" }, { token: 1n }, () => null), (e) => family(e) && e.code === "INVALID_REQUEST");
  await assert.rejects(encoder.negotiate({ kind: "clear" }, { token: "c" }, () => null, null), (e) => family(e) && e.code === "HOOK_NOT_FOUND");
  await assert.rejects(encoder.negotiate({ kind: "clear" }, { token: "c" }, () => null, revoked), (e) => family(e) && e.code === "INVALID_REQUEST");
  await assert.rejects(encoder.negotiate({ kind: "clear" }, { token: "c" }, () => hook), (e) => family(e) && e.code === "LOOKUP_FAILED");
  await assert.rejects(encoder.negotiate({ kind: "clear" }, { token: "c" }, "not a function"), (e) => family(e) && e.code === "LOOKUP_FAILED");
  const turn = (f) => outcome(f, encoder.TurnControlWireError);
  assert.deepEqual(turn(() => encoder.turnControl.negotiate({}, null)), turn(() => encoder.turnControl.negotiate({})));
  assert.equal(turn(() => encoder.turnControl.negotiate({}, { writeAtMost: 1n })).code, "INVALID_REQUEST");
  assert.equal(turn(() => encoder.turnControl.negotiate({}, revoked)).code, "INVALID_REQUEST");
});

test("a lookup answering a hook with metadata past 1,000 levels is LOOKUP_FAILED, whatever encodes while it waits", async () => {
  // The module would run out of stack on such metadata, and the error then named the deepest
  // place of the command (after an encode during the lookup, even another command's, since the
  // walks' buffers are shared).
  const nested = (n, k) => {
    let o = {};
    for (let i = 0; i < n; i++) o = { [k]: o };
    return o;
  };
  const command = { kind: "send", payload: { message: "m", d: nested(5, "a") } };
  for (const n of [10, 500, 1000, 1001, 3000, 5000]) {
    const lookup = async (token) => {
      encoder.encode({ kind: "send", payload: { message: "m", q: nested(8, "q") } });
      return { token, runId: "r", metadata: nested(n, "m") };
    };
    const r = await encoder.negotiate(command, { token: "t" }, lookup).then(
      (ok) => ({ ok }),
      (e) => e,
    );
    if (n <= 1000) {
      // Metadata within the limit is read: the hook has no capability, so version 0.
      assert.deepEqual(r.ok?.target, { variant: "send", version: 0 }, `${n}: ${r && r.stack}`);
      continue;
    }
    // Deeper metadata is a failed lookup, never an error about the command (the module would
    // have run out of stack on it and blamed the command's deepest place).
    assert.ok(r instanceof SessionInboxWireError, `${n}: ${r && r.stack}`);
    assert.equal(r.code, "LOOKUP_FAILED", `${n}: ${r.message}`);
    assert.match(r.message, /metadata nests more than 1000 levels deep|reading the hook threw/);
  }
});

test("encode reads each property of a command once, and returns the very action it checked", () => {
  let reads = 0;
  assert.deepEqual(encoder.encode({ get kind() { reads++; return "clear"; } }), { kind: "clear", version: 6 });
  assert.equal(reads, 1);
  let kinds = 0;
  const flipping = { get kind() { return kinds++ ? "deliver" : "send"; }, payload: { message: [{ type: "image", image: new Uint8Array(1) }] } };
  assert.equal(encoder.encode(flipping).kind, "deliver");
  assert.equal(kinds, 1);
  const checked = { kind: "done" };
  let actions = 0;
  const command = { kind: "turn-result", get action() { return actions++ ? { kind: 7, unchecked: true } : checked; } };
  const out = encoder.turnControl.encode(command);
  assert.equal(out.action, checked);
  assert.equal(actions, 1);
});

test("binaries are told apart by what they are, not by what their tag says", () => {
  const part = (image) => ({ kind: "send", payload: { message: [{ type: "image", image }] } });
  const at = "/payloads/0/message/0/image";
  // Liars and exotic objects are INVALID whatever their tag.
  const date = new Date();
  Object.defineProperty(date, Symbol.toStringTag, { value: "Object" });
  const map = new Map([["a", 1]]);
  Object.defineProperty(map, Symbol.toStringTag, { value: "Object" });
  const liars = [
    { [Symbol.toStringTag]: "Uint8Array" },
    { [Symbol.toStringTag]: "ArrayBuffer", byteLength: 0 },
    { [Symbol.toStringTag]: "URL", href: "https://example.com/" },
    Object.assign(Object.create(Uint8Array.prototype), { 0: 1 }),
    date,
    map,
    Object.defineProperty(new Map(), Symbol.toStringTag, { value: 5 }),
    { [Symbol.toStringTag]: 5 },
    new DataView(new ArrayBuffer(1)),
    new Int8Array(1),
    new Set(),
  ];
  for (const v of liars) {
    const r = outcome(() => encoder.encode(part(v)));
    assert.equal(r.code, "INVALID", Object.prototype.toString.call(v));
    assert.equal(r.path, at);
  }
  for (const v of [date, map]) {
    assert.equal(outcome(() => encoder.encode({ kind: "send", payload: { task: { v } } })).path, "/payloads/0/task/v");
  }
  // Real binaries are binaries whatever their tag says, from any realm, by reference.
  const bytes = new Uint8Array([1]);
  Object.defineProperty(bytes, Symbol.toStringTag, { value: "Object" });
  const buffer = new ArrayBuffer(2);
  Object.defineProperty(buffer, Symbol.toStringTag, { value: undefined });
  const url = new URL("https://example.com/a.png");
  Object.defineProperty(url, Symbol.toStringTag, { value: "Object" });
  const foreign = vm.runInNewContext("new Uint8Array([1, 2])");
  const foreignBuffer = vm.runInNewContext("new ArrayBuffer(3)");
  for (const v of [bytes, buffer, url, foreign, foreignBuffer, Buffer.from("x")]) {
    assert.equal(encoder.encode(part(v)).payloads[0].message[0].image, v);
  }
  // Objects from another realm and class instances are objects.
  const foreignObject = vm.runInNewContext("({ message: 'm' })");
  assert.deepEqual(encoder.encode({ kind: "send", payload: foreignObject }).payloads, [{ message: "m" }]);
  class Payload {
    constructor() {
      this.message = "m";
    }
  }
  assert.deepEqual(encoder.encode({ kind: "send", payload: new Payload() }).payloads, [{ message: "m" }]);
  encodes();
});

test("a command whose JSON text passes 2^27 characters is INVALID where it crosses, without building it", () => {
  // String.prototype.repeat builds a rope: the limit is checked before anything flattens it.
  const long = "a".repeat(2 ** 27);
  const r = outcome(() => encoder.encode({ kind: "send", payload: { message: long } }));
  assert.equal(r.code, "INVALID");
  assert.equal(r.path, "/payloads/0/message");
  assert.match(r.expected, /at most 134217728 characters/);
  const half = "b".repeat(2 ** 26);
  const parts = [{ type: "text", text: half }, { type: "text", text: half }];
  const s = outcome(() => encoder.encode({ kind: "send", payload: { message: parts } }));
  assert.equal(s.path, "/payloads/0/message/1/text");
  const key = outcome(() => encoder.encode({ kind: "send", payload: { task: { [long]: 1 } } }));
  assert.equal(key.path, "/payloads/0/task");
  // Escapes count: 21,000,000 control characters are 126,000,000 characters of JSON text, so
  // 9,000,000 more cross the limit (the walk counts escapes only once the text nears it).
  const escaped = { message: [{ type: "text", text: "\u0001".repeat(21_000_000) }, { type: "text", text: "x".repeat(9_000_000) }] };
  const e = outcome(() => encoder.encode({ kind: "send", payload: escaped }));
  assert.equal(e.path, "/payloads/0/message/1/text");
  assert.match(e.message, /a longer one \(135000\d\d\d characters by here\)/);
  assert.equal(outcome(() => encoder.turnControl.encode({ kind: "turn-error", error: long }), encoder.TurnControlWireError).code, "INVALID");
  encodes();
});
