// Adversarial tests of the JS encoder (pkg/encoder.cjs) where it was recently optimized: the
// answer tape (strings named by the command's string number, by a slot the JS side keeps across
// calls, or sent as bytes), the command's region, the length of the JSON text counted without
// escapes until it nears the limit, and the cached target texts. Every answer is held to what
// `hookwire encode --lines` answers for the same command and target (README: the JS encoder
// answers exactly what the CLI answers), value by value with key order, or error by code,
// message, path, expected and version; and to the limits the entry documents.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { cliEncodeAnswers, encoderAnswer, hookwireBin, pkgDir, TARGETS } from "./helpers.mjs";

const encoder = createRequire(import.meta.url)(join(pkgDir, "encoder.cjs"));
const INBOX = { encode: encoder.encode, ErrorClass: encoder.SessionInboxWireError, args: [], targets: Object.values(TARGETS) };
const TURN = { encode: encoder.turnControl.encode, ErrorClass: encoder.TurnControlWireError, args: ["--family", "turn-control"], targets: [{ version: 0 }, { version: 1 }] };

/** Hold one JS answer to the CLI's: the same value, with the same key order, or the same error. */
function same(got, want, where) {
  if (want.ok !== undefined) {
    assert.ok("ok" in got, `${where}: refused ${JSON.stringify(got.error)}`);
    assert.deepStrictEqual(got.ok, want.ok, where);
    assert.equal(JSON.stringify(got.ok), JSON.stringify(want.ok), `${where}: key order`);
  } else {
    const expected = { code: want.error.code, message: want.error.message };
    for (const k of ["path", "expected", "version"]) if (want.error[k] !== undefined) expected[k] = want.error[k];
    assert.deepStrictEqual(got, { error: expected }, where);
  }
}

/** Every command of `commands` for every target of `f`, against the CLI; answers how many were valid. */
function compareAll(f, commands, label, answer = (c, t) => encoderAnswer(f, c, t)) {
  const requests = commands.flatMap((command) => f.targets.map((target) => ({ command, target })));
  const want = cliEncodeAnswers(f, requests);
  let valid = 0;
  for (const [i, { command, target }] of requests.entries()) {
    same(answer(command, target), want[i], `${label}: ${JSON.stringify(command).slice(0, 400)} for ${JSON.stringify(target)}`);
    if (want[i].ok !== undefined) valid++;
  }
  return valid;
}

// Generated commands: strings drawn from a pool that collides with the encoder's own keys and
// constants, Object.prototype's names, U+FEFF, non-ASCII and astral text, strings just under and
// over the 32 bytes a kept string may have; edge numbers; payloads with adapter keys.
const POOL = [
  "", "a", "hi", "deliver", "send", "version", "payload", "payloads", "kind", "message", "text", "image", "type",
  "__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "\ufeff", "\ufeffx", "x\ufeff", "é", "𝄞", "\ue000",
  "a\n\nb", "queue", "steer", "x".repeat(32), "y".repeat(33), "é".repeat(16), "\u2028", "\\", '"', "0", "10", "a b",
];
const STR = fc.oneof(fc.constantFrom(...POOL), fc.string({ maxLength: 6 }), fc.string({ unit: "grapheme", maxLength: 4 }));
const NUMBERS = [0, -0, 1, -1, 7.5, 1e21, -1e21, 1e20, 5e-324, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 32, 2 ** 53, 2 ** 53 + 2, -(2 ** 60), 12345678901234567890, 1.7976931348623157e308, 0.1 + 0.2];
const json = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    STR,
    fc.constantFrom(...NUMBERS, null, true, false),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(STR, tie("v"), { maxKeys: 4 }),
  ),
})).v;
/** An object with the keys of `o` and `extra` defined (so that "__proto__" is an own key, as JSON.parse makes it). */
const withKeys = (o, extra) => {
  const out = {};
  for (const [k, v] of [...Object.entries(o), ...Object.entries(extra)]) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
};
const part = fc.oneof(
  fc.record({ type: fc.constant("text"), text: STR }),
  fc.record({ type: fc.constant("image"), image: STR, mediaType: STR }, { requiredKeys: ["type", "image"] }),
  fc.record({ type: fc.constant("file"), data: STR, mediaType: STR, filename: STR }, { requiredKeys: ["type", "data", "mediaType"] }),
);
const payload = fc
  .tuple(
    fc.record({ message: fc.oneof(STR, fc.array(part, { maxLength: 3 })), context: fc.array(STR, { maxLength: 3 }), outputSchema: fc.dictionary(STR, json, { maxKeys: 3 }) }, { requiredKeys: [] }),
    fc.dictionary(STR, json, { maxKeys: 2 }),
  )
  .map(([p, extra]) => withKeys(p, extra));
const entry = fc.record(
  { channelKind: STR, channelName: STR, deliveryId: STR, payloadIndex: fc.nat(3), requestId: STR, acceptedDeploymentId: STR },
  { requiredKeys: ["channelKind", "channelName", "deliveryId", "payloadIndex"] },
);
const caller = fc.record(
  {
    callId: STR,
    subagentName: STR,
    taskId: STR,
    replyTo: fc.oneof(fc.record({ kind: fc.constant("hook"), token: STR }), fc.record({ kind: fc.constant("callback"), token: STR, url: STR })),
    activityObserver: fc.record({ sink: fc.record({ url: STR, version: fc.constant(1) }) }),
  },
  { requiredKeys: ["callId", "subagentName", "replyTo"] },
);
const command = fc.oneof(
  fc.record(
    {
      kind: fc.constant("send"),
      payload,
      requestId: STR,
      taskDeliveryId: STR,
      turnPolicy: fc.constantFrom("queue", "steer"),
      caller,
      delivery: fc.record({ channelKind: STR, channelName: STR, deliveryId: STR, acceptedDeploymentId: STR }, { requiredKeys: ["channelKind", "channelName", "deliveryId"] }),
      auth: fc.constant(null),
      stray: json,
    },
    { requiredKeys: ["kind", "payload"] },
  ),
  fc.record(
    { kind: fc.constant("deliver"), payloads: fc.array(payload, { maxLength: 4 }), requestId: STR, deliveryMetadata: fc.array(entry, { maxLength: 2 }), caller, auth: fc.constant(null) },
    { requiredKeys: ["kind", "payloads"] },
  ),
  fc.record({ kind: fc.constantFrom("reset", "cancel", "clear", "compact", "session-timeout"), reason: STR, taskId: STR, turnId: STR, tasks: fc.boolean() }, { requiredKeys: ["kind"] }),
);

test("generated commands answer what encode --lines answers, for every target, call after call", () => {
  const commands = fc.sample(command, { seed: 0x5eed, numRuns: 500 });
  // Twice over: the second round meets the strings the module told this side to keep.
  const valid = compareAll(INBOX, [...commands, ...commands], "generated");
  assert.ok(valid > 500, `${valid} valid`);
});

test("answers stay right across fresh instances, walks that fail midway and encodes nested in getters", () => {
  const commands = fc.sample(command, { seed: 0xbad, numRuns: 200 });
  const want = cliEncodeAnswers(INBOX, commands.map((command) => ({ command, target: TARGETS.v6 })));
  const nest = (d) => {
    let v = 1;
    for (let i = 0; i < d; i++) v = i % 2 ? [v] : { z: v };
    return v;
  };
  const deepCommand = { kind: "send", payload: { x: nest(990) } };
  // Run out of stack at many depths: some of the calls unwind through the module (the next call
  // then starts a fresh instance, whose kept strings start empty).
  const storm = () => {
    const deep = (n) => (n === 0 ? encoderAnswer(INBOX, deepCommand) : deep(n - 1));
    for (let n = 0; n < 12_000; n += 211) {
      try {
        deep(n);
      } catch {
        // The engine's RangeError, when not even an error could be made.
      }
    }
  };
  for (const [i, c] of commands.entries()) {
    if (i % 17 === 0) storm();
    if (i % 5 === 0 && c !== null && typeof c === "object") {
      // A getter that encodes another command (answered right too) while this one is walked.
      const j = (i * 7 + 3) % commands.length;
      let inner;
      const kind = c.kind;
      const outer = { ...c };
      Object.defineProperty(outer, "kind", {
        get: () => ((inner = encoderAnswer(INBOX, commands[j], TARGETS.v6)), kind),
        enumerable: true,
        configurable: true,
      });
      same(encoderAnswer(INBOX, outer, TARGETS.v6), want[i], `outer ${i}`);
      same(inner, want[j], `inner ${j} of ${i}`);
      continue;
    }
    if (i % 3 === 0) {
      // A walk that fails midway, on a getter.
      const broken = { kind: "deliver", payloads: [{ message: "x" }, Object.defineProperty({}, "message", { get: () => { throw new Error("midway"); }, enumerable: true })] };
      assert.equal(encoderAnswer(INBOX, broken).error.expected, "a readable value");
    }
    same(encoderAnswer(INBOX, c, TARGETS.v6), want[i], `command ${i}`);
  }
});

test("strings the encoder makes and the JS side keeps are the right ones when commands carry them later, elsewhere", () => {
  // A mirror of two string messages is a string no command holds ("a\n\nb"): short ones are kept
  // in a slot. Later commands carry those very strings in other places, and in a different order.
  const words = Array.from({ length: 600 }, (_, i) => `w${i.toString(36)}`);
  const joins = [];
  for (let i = 0; i + 1 < words.length; i += 2) joins.push({ kind: "deliver", payloads: [{ message: words[i] }, { message: words[i + 1] }] });
  const joined = [];
  for (let i = 0; i + 1 < words.length; i += 2) joined.push(`${words[i]}\n\n${words[i + 1]}`);
  const later = [];
  for (let i = 0; i < joined.length; i += 10) {
    const some = joined.slice(i, i + 10);
    later.push({ kind: "send", payload: { context: some.slice().reverse(), message: some[0], [some[1]]: some[2] } });
    later.push({ kind: "deliver", payloads: [{ message: some[3] }, { message: some[3] }], requestId: some[4] });
  }
  compareAll(INBOX, [...joins, ...later, ...joins, ...later], "kept strings");
});

test("many distinct strings, each at several places, past the naming table's probes", () => {
  const many = Array.from({ length: 40_000 }, (_, i) => `s${i}`);
  const commands = [
    { kind: "send", payload: { context: many, extra: Object.fromEntries(many.slice(0, 5000).map((s) => [s, s])), message: many[7] }, requestId: many[9] },
    { kind: "deliver", payloads: [{ context: many.slice(0, 20_000), message: "a" }, { context: many.slice(10_000), message: "b" }], requestId: "s1" },
    // Strings alike but in their middle, and strings of one length that differ in one byte.
    { kind: "send", payload: { context: Array.from({ length: 5000 }, (_, i) => `https://img.example/${String(i).padStart(5, "0")}/a.png`), outputSchema: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${String.fromCharCode(0x4e00 + i)}`, i])) } },
  ];
  compareAll(INBOX, [...commands, ...commands], "many strings");
});

test("edge numbers anywhere answer the doubles JSON.parse makes of the CLI's text", () => {
  const commands = NUMBERS.map((n) => ({ kind: "deliver", payloads: [{ n, list: [n, -n, [n]], outputSchema: { n } }, { n }], deliveryMetadata: [{ channelKind: "c", channelName: "n", deliveryId: "d", payloadIndex: 0 }] }));
  compareAll(INBOX, commands, "numbers");
  // -0 is written as 0 (JSON text has no -0): the answer holds 0, not -0.
  const w = encoder.encode({ kind: "send", payload: { n: -0, l: [-0] } });
  assert.ok(Object.is(w.payloads[0].n, 0) && Object.is(w.payload.l[0], 0));
  compareAll(TURN, NUMBERS.map((n) => ({ kind: "turn-error", error: { n, l: [n] } })), "turn-control numbers");
});

test("keys Object.prototype has, also once Object.prototype gains enumerable own properties, stay own keys of the answer", () => {
  const keys = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "message", "payloads", "kind", "version", "polluted"];
  const obj = (v) => withKeys({}, Object.fromEntries(keys.map((k) => [k, v])));
  const commands = [
    { kind: "send", payload: obj("p") },
    { kind: "deliver", payloads: [obj(1), obj([obj(2)])] },
    { kind: "send", payload: { message: "m", outputSchema: obj({ a: obj(null) }) } },
  ];
  const check = (label) => {
    compareAll(INBOX, commands, label);
    const w = encoder.encode(commands[0]);
    for (const k of keys) assert.ok(Object.hasOwn(w.payloads[0], k), `${label}: ${k} is an own key`);
    assert.equal(Object.getPrototypeOf(w.payloads[0]), Object.prototype);
  };
  check("plain");
  const added = ["polluted", "message", "payloads", "kind"];
  try {
    for (const k of added) Object.defineProperty(Object.prototype, k, { value: `inherited ${k}`, enumerable: true, writable: true, configurable: true });
    check("polluted");
    // Inherited values are never read as the command's: a send without its own payload is refused.
    assert.equal(encoderAnswer(INBOX, { kind: "send" }).error.path, "/payload");
  } finally {
    for (const k of added) delete Object.prototype[k];
  }
  assert.equal({}.polluted, undefined);
});

test("binaries are given back by reference at every place they reach, the coalesced mirror included", () => {
  const bytes = new Uint8Array([1, 2, 3]);
  const buffer = new ArrayBuffer(8);
  const url = new URL("https://example.com/i.png");
  const message = [
    { type: "image", image: bytes },
    { type: "file", data: buffer, mediaType: "application/pdf" },
    { type: "image", image: url },
    { type: "image", image: bytes },
  ];
  for (const target of INBOX.targets) {
    const w = encoder.encode({ kind: "deliver", payloads: [{ message }, { message: "text" }, { message: [{ type: "image", image: url }] }] }, target);
    const mirror = w.payload ?? (w.kind === "send" ? w.payload : undefined);
    for (const parts of [w.payloads?.[0].message, mirror?.message].filter(Boolean)) {
      assert.equal(parts[0].image, bytes);
      assert.equal(parts[1].data, buffer);
      assert.equal(parts[2].image, url);
      assert.equal(parts[3].image, bytes);
    }
    if (mirror !== undefined) assert.equal(mirror.message.at(-1).image, url, JSON.stringify(target));
  }
});

test("a command nested exactly as deep as allowed answers what the CLI answers, for every target", () => {
  const nest = (d, leaf) => {
    let v = leaf;
    for (let i = 0; i < d; i++) v = i % 2 ? [v] : { z: v };
    return v;
  };
  // The payload's adapter key is at depth 3: its deepest container at depth 1,000.
  const ok = { kind: "deliver", payloads: [{ x: nest(998, 1) }, { y: nest(998, "s") }] };
  assert.equal(compareAll(INBOX, [ok], "deepest"), INBOX.targets.length);
  const r = encoderAnswer(INBOX, { kind: "deliver", payloads: [{ x: nest(999, 1) }] });
  assert.equal(r.error?.code, "INVALID");
  assert.match(r.error.expected, /nested at most 1000 levels deep/);
});

test("a target that is an array or a boxed primitive is refused with the message the CLI gives its JSON text", () => {
  // js/encoder-entry.js says a target's text is what JSON.stringify writes for it; the refusal
  // names that text. [6] is written {"0":6}, new Number(6) {}, new String("x") {"0":"x"}.
  for (const f of [INBOX, TURN]) {
    const targets = [[6], [1], ["version"], [[6]], [1, 2, 3], new Number(6), new String("x"), new Boolean(true)];
    const command = f === INBOX ? { kind: "clear" } : { kind: "turn-error", error: 1 };
    const want = cliEncodeAnswers(f, targets.map((target) => ({ command, target: JSON.parse(JSON.stringify(target)) })));
    targets.forEach((t, i) => same(encoderAnswer(f, command, t), want[i], `target ${JSON.stringify(t)}`));
  }
});

// The limit on a command's JSON text (2^27 UTF-16 code units: README, js/encoder-entry.js):
// longer is INVALID where it crosses, and a command within it is encoded. These build commands of
// about 134 million characters (a few seconds and about a gigabyte each).
const MAX_TEXT = 2 ** 27;
/** A send whose payload holds a message of filler and `a: extra`, its JSON text exactly MAX_TEXT + `over` long. */
function sized(extra, over) {
  const empty = JSON.stringify({ kind: "send", payload: { message: "", a: extra } }).length;
  const command = { kind: "send", payload: { message: "m".repeat(MAX_TEXT + over - empty), a: extra } };
  assert.equal(JSON.stringify(command).length, MAX_TEXT + over);
  return command;
}

test("a command exactly at the limit is encoded, one character over it is INVALID (numbers, false)", () => {
  for (const extra of [false, 1, "s"]) {
    assert.ok("ok" in encoderAnswer(INBOX, sized(extra, 0)), `${JSON.stringify(extra)} at the limit`);
    const r = encoderAnswer(INBOX, sized(extra, 1));
    assert.equal(r.error?.code, "INVALID", `${JSON.stringify(extra)} one over`);
    assert.match(r.error.expected, /at most 134217728 characters/);
  }
});

test("a command exactly at the limit holding true is encoded", () => {
  const r = encoderAnswer(INBOX, sized(true, 0));
  assert.ok("ok" in r, JSON.stringify(r.error));
});

test("a command one character over the limit holding [] or {} is INVALID", () => {
  for (const extra of [[], {}]) assert.equal(encoderAnswer(INBOX, sized(extra, 1)).error?.code, "INVALID", JSON.stringify(extra));
});

test("a key's escapes count when the text reaches the point where the walk starts counting them", () => {
  // Counted without escapes until the text nears a sixth of the limit: here the payload's key
  // of 4,000,000 control characters (24,000,002 characters of JSON text) ends right at that
  // point, and the command's text is 20,000,000 characters past the limit.
  const UNESCAPED_UP_TO = Math.floor(MAX_TEXT / 6);
  const k = 4_000_000;
  const payload = { message: "m".repeat(UNESCAPED_UP_TO - 43 - k) };
  payload["\u0001".repeat(k)] = "x".repeat(MAX_TEXT - UNESCAPED_UP_TO - 3);
  const command = { kind: "send", payload };
  assert.equal(JSON.stringify(command).length, MAX_TEXT + 5 * k);
  const r = encoderAnswer(INBOX, command);
  assert.equal(r.error?.code, "INVALID", "accepted a command 20,000,000 characters over the limit");
});
