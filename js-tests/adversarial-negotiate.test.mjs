// Negotiation through the JS encoder (pkg/encoder.cjs) against `hookwire negotiate --lines`, on
// generated requests, with lookups that are slow, concurrent, re-entrant (encoding and
// negotiating while they wait) or that answer what is not a hook; turn control's negotiate and
// its JS decoder against the native CLI (contract §6, §12, §14, §16).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { canon, cases, ENCODE_DIRS, hookwireBin, pkgDir } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const encoder = require(join(pkgDir, "encoder.cjs"));
const turnControl = require(join(pkgDir, "turn-control.cjs"));
const { SessionInboxWireError } = encoder;

/** A small deterministic generator. */
function rng(seed) {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 4294967296;
  };
  return { next, pick: (a) => a[Math.floor(next() * a.length)], chance: (p) => next() < p };
}

const VERSIONS = [1, 2, 3, 5, 6, 7, 100, 0, -1, 1.5, 2.0, "3", null, true, [], {}, 9007199254740991, 9007199254740992, 1e20, 6.000000000000001, 5.999999999999999];
const COMMANDS = [
  ...ENCODE_DIRS.flatMap((d) => cases(d)).map((c) => c.command),
  { kind: "clear" },
  { kind: "reset", reason: 5 },
  { kind: "cancel", tasks: true },
  { kind: "nope" },
  {},
  { kind: "send" },
  { kind: "send", payload: { message: "hi" }, extra: 1 },
];

/** A generated `negotiate --lines` request (every part JSON) and its write ceiling. */
function request(r) {
  const template = r.pick([undefined, null, "inbox/{runId}", "{runId}", "eve:session:{runId}:inbox"]);
  const form = typeof template === "string" ? template : "eve:session:{runId}:inbox";
  const stable = (run) => form.replace("{runId}", run);
  const tokens = ["c-1", "c-2", stable("r1"), stable("r2"), stable(""), "eve:session:r1:inbox"];
  const destination = r.chance(0.7)
    ? { token: r.pick(tokens) }
    : { address: { sessionId: r.pick(["s", "", "a:b"]), version: r.pick(VERSIONS) } };
  const hooks = [];
  const n = Math.floor(r.next() * 4);
  for (let i = 0; i < n; i++) {
    const h = { token: r.pick(tokens), runId: r.pick(["r1", "r2", "", "a:b"]) };
    const m = r.next();
    if (m < 0.4) h.metadata = { sessionInboxWireVersion: r.pick(VERSIONS) };
    else if (m < 0.5) h.metadata = r.pick([null, "x", [], 5, { other: 1 }]);
    if (r.chance(0.05)) delete h.runId;
    hooks.push(h);
  }
  const req = { command: r.pick(COMMANDS), destination, hooks };
  if (template !== undefined) req.stableInboxToken = template;
  return { req, ceiling: r.pick([undefined, undefined, 1, 3, 5, 6]) };
}

/** The CLI's answers to `reqs`, one process per write ceiling. */
function cliAnswers(reqs) {
  const out = new Array(reqs.length);
  for (const ceiling of [undefined, 1, 3, 5, 6]) {
    const idx = reqs.flatMap((c, i) => (c.ceiling === ceiling ? [i] : []));
    if (idx.length === 0) continue;
    const args = ["negotiate", "--lines", ...(ceiling ? ["--write-at-most", String(ceiling)] : [])];
    const input = idx.map((i) => JSON.stringify(reqs[i].req)).join("\n") + "\n";
    const lines = execFileSync(hookwireBin(), args, { input, encoding: "utf8" }).trim().split("\n");
    assert.equal(lines.length, idx.length);
    idx.forEach((i, k) => (out[i] = JSON.parse(lines[k])));
  }
  return out;
}

/** The JS encoder's answer in the CLI's form, with the lookups it made. */
async function jsAnswer({ req, ceiling }, wrap = (f) => f) {
  const asked = [];
  const lookup = wrap(async (token) => {
    asked.push(token);
    return req.hooks.find((h) => h.token === token) ?? null;
  });
  try {
    const n = await encoder.negotiate(req.command, req.destination, lookup, { writeAtMost: ceiling, stableInboxToken: req.stableInboxToken });
    assert.equal(asked.length, n.lookups, "the lookups made are the lookups reported");
    // The inspected hook object itself, or the destination's token on a zero-lookup path.
    if (n.lookups > 0) assert.equal(n.resume.hook, req.hooks.find((h) => h.token === asked[0]));
    const token = n.lookups > 0 ? n.resume.hook.token : n.resume.token;
    return { answer: { ok: { target: n.target, lookups: n.lookups, resume: { token } } }, asked };
  } catch (e) {
    assert.ok(e instanceof SessionInboxWireError, `not the family's error: ${e}`);
    return { answer: { error: { code: e.code, message: e.message } }, asked };
  }
}

/** The CLI's answer without what only the CLI gives (an INVALID_REQUEST's path). */
function comparable(a) {
  return a.ok ? a : { error: { code: a.error.code, message: a.error.message } };
}

test("negotiate answers every generated request as negotiate --lines does, looking up only what it reports", async () => {
  const r = rng(42);
  const reqs = Array.from({ length: 800 }, () => request(r));
  const cli = cliAnswers(reqs);
  let ok = 0;
  for (const [i, c] of reqs.entries()) {
    const { answer } = await jsAnswer(c);
    if (answer.ok) ok++;
    if (cli[i].error?.code === "LOOKUP_FAILED" && answer.error?.code === "LOOKUP_FAILED") continue; // messages name what each read
    assert.equal(canon(answer), canon(comparable(cli[i])), JSON.stringify(c));
  }
  assert.ok(ok > 150, `a useful share of targets (${ok})`);
});

test("concurrent and re-entrant negotiations answer what each answers alone", async () => {
  const r = rng(7);
  const reqs = Array.from({ length: 150 }, () => request(r));
  const alone = [];
  for (const c of reqs) alone.push(canon((await jsAnswer(c)).answer));
  const nested = (f) => async (token) => {
    await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 3)));
    // While it waits: encodes that succeed and fail, another negotiation, turn control.
    try {
      encoder.encode({ kind: "send", payload: { message: "x", deep: JSON.parse("[".repeat(900) + "]".repeat(900)) } });
    } catch {}
    try {
      encoder.encode({ kind: "send", payload: 5 });
    } catch {}
    try {
      await encoder.negotiate({ kind: "deliver", payloads: [{ message: "y" }] }, { token: "zz" }, async () => ({ token: "zz", runId: "q", metadata: { sessionInboxWireVersion: 2 } }));
    } catch {}
    try {
      encoder.turnControl.negotiate({ turnControlWireVersion: "x" });
    } catch {}
    return f(token);
  };
  const together = await Promise.all(reqs.map((c) => jsAnswer(c, nested)));
  together.forEach((t, i) => assert.equal(canon(t.answer), alone[i], JSON.stringify(reqs[i])));
  assert.equal(encoder.memoryStats().arenaBlocks, 0);
});

test("turn control's negotiate answers every JSON capability as negotiate --lines does", () => {
  const vals = [1, 2, 0, -1, 1.5, 1.0, "1", null, true, false, [], [1], {}, { a: 1 }, 9007199254740991, 9007199254740992, 1e300, 1.0000000000000002, 0.9999999999999999];
  const caps = [null, 5, "x", [], [1], {}, { other: 1 }, ...vals.map((v) => ({ turnControlWireVersion: v })), ...vals.map((v) => ({ other: 2, turnControlWireVersion: v }))];
  for (const ceiling of [undefined, 1]) {
    const args = ["--family", "turn-control", "negotiate", "--lines", ...(ceiling ? ["--write-at-most", String(ceiling)] : [])];
    const input = caps.map((c) => JSON.stringify({ capabilities: c })).join("\n") + "\n";
    const lines = execFileSync(hookwireBin(), args, { input, encoding: "utf8" }).trim().split("\n").map((l) => JSON.parse(l));
    caps.forEach((c, i) => {
      let js;
      try {
        js = { ok: { target: encoder.turnControl.negotiate(c, { writeAtMost: ceiling }) } };
      } catch (e) {
        assert.ok(e instanceof encoder.TurnControlWireError, `${e}`);
        js = { error: { code: e.code, message: e.message } };
      }
      assert.equal(canon(js), canon(comparable(lines[i])), JSON.stringify(c));
    });
  }
});

test("the turn-control JS decoder answers generated plain values as the native decoder does", () => {
  const r = rng(3);
  const kinds = ["turn-result", "turn-error", "turn-continuation-token", "turn-delivery-request", "turn-delivery-accepted", "turn-delivery-cancelled", "deliver", "TURN-RESULT", ""];
  const anything = [null, true, false, 0, 1.5, "x", "", [], {}, [{}], [1], { kind: "reply" }, { kind: 1 }, { kind: null }, [{ kind: "r" }], { kind: "a", x: [1] }];
  const versions = [0, 1, 2, 1.0, 0.5, "1", null, [], 1e-300];
  const values = Array.from({ length: 6000 }, () => {
    const v = {};
    if (r.chance(0.95)) v.kind = r.pick(kinds);
    if (r.chance(0.4)) v.version = r.pick(versions);
    for (const k of ["action", "bufferedDeliveries", "error", "continuationToken", "inboxToken", "requestId", "extra"]) if (r.chance(0.45)) v[k] = r.pick(anything);
    if (v.kind === "turn-result" && r.chance(0.6)) v.action = { kind: "reply", n: 1 };
    for (const k of ["continuationToken", "inboxToken", "requestId"]) if (r.chance(0.4)) v[k] = "t";
    return v;
  });
  const input = values.map((v) => JSON.stringify(v)).join("\n") + "\n";
  const lines = execFileSync(hookwireBin(), ["--family", "turn-control", "decode", "--lines"], { input, encoding: "utf8", maxBuffer: 1 << 28 }).trim().split("\n").map((l) => JSON.parse(l));
  const seen = new Set();
  values.forEach((v, i) => {
    let js;
    try {
      js = { ok: turnControl.decode(v) };
    } catch (e) {
      assert.ok(e instanceof turnControl.TurnControlWireError, `${e}`);
      js = { error: { code: e.code, message: e.message, path: e.path, version: e.version } };
    }
    const n = lines[i];
    const native = n.ok ? n : { error: { code: n.error.code, message: n.error.message, path: n.error.path, version: n.error.version } };
    assert.equal(canon(js), canon(native), JSON.stringify(v));
    seen.add(n.ok ? "ok" : n.error.code);
  });
  for (const code of ["ok", "LEGACY_SHAPE", "INVALID", "UNKNOWN_KIND"]) assert.ok(seen.has(code), code);
});

// What a lookup may answer in JS that JSON cannot carry. Contract §12/§16: a lookup that
// answers something that is not a hook with a string token and runId is LOOKUP_FAILED, never
// "not found"; only null (or undefined) is "not found".
const deliver = { kind: "deliver", payloads: [] };
const outcome = (p) =>
  p.then(
    (n) => ({ target: n.target, lookups: n.lookups }),
    (e) => {
      assert.ok(e instanceof SessionInboxWireError, `not the family's error: ${e}`);
      return { code: e.code, message: e.message };
    },
  );

test("a lookup that answers a function, a symbol or a non-finite number is a failed lookup", async () => {
  for (const bad of [() => ({ token: "c", runId: "r" }), Symbol("hook"), NaN, Infinity]) {
    const r = await outcome(encoder.negotiate(deliver, { token: "c" }, () => bad));
    assert.equal(r.code, "LOOKUP_FAILED", `${String(bad)}: ${JSON.stringify(r)}`);
    // The stable inbox lookup of a markerless hook: garbage must not become "no stable inbox".
    const markerless = (token) => (token === "c" ? { token: "c", runId: "r" } : bad);
    const m = await outcome(encoder.negotiate(deliver, { token: "c" }, markerless));
    assert.equal(m.code, "LOOKUP_FAILED", `stable inbox ${String(bad)}: ${JSON.stringify(m)}`);
  }
});

test("a lookup that answers a bigint is a failed lookup", async () => {
  const r = await outcome(encoder.negotiate(deliver, { token: "c" }, () => 5n));
  assert.equal(r.code, "LOOKUP_FAILED", JSON.stringify(r));
});

test("hook metadata JSON cannot carry is a failed lookup that says so", async () => {
  // A looked-up hook that is malformed refuses the negotiation (contract §16): metadata JSON text
  // would drop (a function, a symbol) or cannot write (a bigint, anywhere in it) is never taken
  // for "no metadata".
  const lookup = (metadata) => (t) => (t === "c" ? { token: "c", runId: "r", metadata } : null);
  for (const [metadata, says] of [[() => 1, /metadata is a function/], [Symbol("m"), /metadata is a symbol/], [5n, /BigInt/], [{ sessionInboxWireVersion: 6, n: 1n }, /BigInt/], [{ toJSON: () => undefined }, /toJSON answers nothing/]]) {
    const r = await outcome(encoder.negotiate(deliver, { token: "c" }, lookup(metadata)));
    assert.equal(r.code, "LOOKUP_FAILED", String(metadata));
    assert.match(r.message, says);
  }
  // Metadata that is JSON but not an object counts as absent: a markerless hook.
  const markerless = await outcome(encoder.negotiate(deliver, { token: "c" }, lookup("x")));
  assert.deepEqual(markerless, { target: { variant: "deliver", version: 0 }, lookups: 2 });
});

test("a receiver address whose version or sessionId is a bigint is an unsupported target", async () => {
  // Contract §12: the address's version must be a positive safe integer and its sessionId a
  // non-empty string without ':', else UNSUPPORTED_TARGET (as for "3", NaN or Infinity).
  assert.equal((await outcome(encoder.negotiate(deliver, { address: { sessionId: "s", version: "3" } }, () => null))).code, "UNSUPPORTED_TARGET");
  assert.equal((await outcome(encoder.negotiate(deliver, { address: { sessionId: "s", version: NaN } }, () => null))).code, "UNSUPPORTED_TARGET");
  assert.equal((await outcome(encoder.negotiate(deliver, { address: { sessionId: "s", version: 3n } }, () => null))).code, "UNSUPPORTED_TARGET");
  assert.equal((await outcome(encoder.negotiate(deliver, { address: { sessionId: 1n, version: 3 } }, () => null))).code, "UNSUPPORTED_TARGET");
});

test("a lookup answering an array is a failed lookup that says so", async () => {
  const r = await outcome(encoder.negotiate(deliver, { token: "c" }, () => [{ token: "c", runId: "r" }]));
  assert.equal(r.code, "LOOKUP_FAILED");
  assert.match(r.message, /answered an array, not a hook/);
});

test("what a lookup answers that is not a hook, JSON-shaped, is a failed lookup", async () => {
  for (const bad of [5, "c", true, false, [], {}, { token: "c" }, { token: "c", runId: 5 }, { runId: "r" }]) {
    const r = await outcome(encoder.negotiate(deliver, { token: "c" }, () => bad));
    assert.equal(r.code, "LOOKUP_FAILED", JSON.stringify(bad));
  }
  for (const none of [null, undefined]) {
    assert.equal((await outcome(encoder.negotiate(deliver, { token: "c" }, () => none))).code, "HOOK_NOT_FOUND");
  }
  // A lookup that throws anything, or rejects, refuses with LOOKUP_FAILED.
  for (const lookup of [() => { throw null; }, () => Promise.reject(new Error("down")), () => { throw { get message() { throw new Error("x"); } }; }]) {
    assert.equal((await outcome(encoder.negotiate(deliver, { token: "c" }, lookup))).code, "LOOKUP_FAILED");
  }
});
