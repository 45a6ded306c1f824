// The JS encoder's boundary (a command in as a tape, the wire value back as a tape turned into
// objects: src/surfaces/tape.rs, js/encoder-entry.js) against `hookwire encode --lines`, answer by
// answer: the wire value deep-equal to JSON.parse of the CLI's canonical text, with the same key
// order at every level (JSON.stringify of both alike) and the same numbers (-0 and 0 apart),
// every error with the CLI's code, message, path, expected and version, for every target of both
// families, over bench/commands.json, every encode and decode fixture's command, and a seeded
// sweep of mutations (keys removed or added, values replaced by edge values: numbers beyond 2^53,
// -0, non-ASCII strings and keys whose UTF-8 and UTF-16 orders differ, integer-like keys,
// "__proto__"), again with setters for the wire values' keys on Object.prototype, and again with
// setters for indexes on Array.prototype and Object.prototype and a replaced Array[Symbol.species].
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { canon, cases, cliEncodeAnswers, DECODE_DIRS, ENCODE_DIRS, encoderAnswer, hookwire, hookwireBin, pkgDir, root, TARGETS } from "./helpers.mjs";

const encoder = createRequire(import.meta.url)(join(pkgDir, "encoder.cjs"));

const FAMILIES = {
  "session-inbox": { encode: encoder.encode, ErrorClass: hookwire.SessionInboxWireError, targets: Object.values(TARGETS), args: [] },
  "turn-control": {
    encode: encoder.turnControl.encode,
    ErrorClass: encoder.TurnControlWireError,
    targets: [{ version: 0 }, { version: 1 }],
    args: ["--family", "turn-control"],
  },
};

/** Every command a family's fixtures hold (encode commands and decode inputs alike). */
function fixtureCommands(family) {
  if (family === "session-inbox") {
    const commands = JSON.parse(readFileSync(join(root, "bench", "commands.json"), "utf8")).commands;
    return [...commands, ...ENCODE_DIRS.flatMap((d) => cases(d)).map((c) => c.command), ...DECODE_DIRS.flatMap((d) => cases(d)).map((c) => c.input)];
  }
  const base = join(root, "fixtures", "turn-control");
  return readdirSync(base, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== "negotiate")
    .flatMap((d) => readdirSync(join(base, d.name)).filter((f) => f.endsWith(".json")).map((f) => JSON.parse(readFileSync(join(base, d.name, f), "utf8"))))
    .map((c) => c.command ?? c.input)
    .filter((c) => c !== undefined);
}

/** A seeded generator (mulberry32): the sweep is the same on every run. */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EDGE_VALUES = [null, true, false, 0, -0, 1, -1, 7.5, -2147483649, 2147483648, 2 ** 53, 2 ** 53 + 2, -(2 ** 60), 12345678901234567890, 1e21, 5e-324, "", "é", "𝄞", "\ue000", 'q"\\\n\u2028', [], {}, [1, "a", null], { a: 1 }];
const EDGE_KEYS = ["__proto__", "0", "10", "é", "𝄞", "\ue000", "", "constructor", "toString", "a b"];

/** A copy of `v` with one change at a random object or array inside it. */
function mutate(v, rnd) {
  const copy = JSON.parse(JSON.stringify(v ?? null));
  const places = [];
  const visit = (x) => {
    if (x === null || typeof x !== "object") return;
    places.push(x);
    for (const k of Object.keys(x)) visit(x[k]);
  };
  visit(copy);
  if (places.length === 0) return EDGE_VALUES[Math.floor(rnd() * EDGE_VALUES.length)];
  const at = places[Math.floor(rnd() * places.length)];
  const keys = Object.keys(at);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const value = pick(EDGE_VALUES);
  const choice = rnd();
  if (Array.isArray(at)) {
    if (choice < 0.3 && at.length > 0) at.splice(Math.floor(rnd() * at.length), 1);
    else if (choice < 0.6) at.push(JSON.parse(JSON.stringify(value)));
    else if (at.length > 0) at[Math.floor(rnd() * at.length)] = JSON.parse(JSON.stringify(value));
  } else if (choice < 0.25 && keys.length > 0) {
    delete at[pick(keys)];
  } else if (choice < 0.55) {
    Object.defineProperty(at, pick(EDGE_KEYS), { value: JSON.parse(JSON.stringify(value)), enumerable: true, writable: true, configurable: true });
  } else if (keys.length > 0) {
    at[pick(keys)] = JSON.parse(JSON.stringify(value));
  }
  return copy;
}

/** The commands of a family: its fixtures and, for each, `mutations` seeded mutations. */
function commandsOf(family, mutations) {
  const base = fixtureCommands(family);
  const rnd = random(family.length * 7919);
  const out = [...base];
  for (const c of base) for (let i = 0; i < mutations; i++) out.push(mutate(c, rnd));
  return out;
}

/** Hold the JS encoder's answers (`answer(i)`, by default asked now) equal to the CLI's; answers how many were valid. */
function compare(f, requests, want, label, answer = (i) => encoderAnswer(f, requests[i].command, requests[i].target)) {
  let valid = 0;
  for (const [i, { command, target }] of requests.entries()) {
    const got = answer(i);
    const where = `${label}: ${JSON.stringify(command)} for ${JSON.stringify(target)}`;
    if (want[i].ok !== undefined) {
      valid++;
      assert.ok("ok" in got, `${where}: ${JSON.stringify(got.error)}`);
      assert.deepStrictEqual(got.ok, want[i].ok, where);
      // A turn result's action is the command's own object, by reference, in its own key order.
      const action = got.ok.kind === "turn-result" ? got.ok.action : undefined;
      if (action !== undefined) assert.equal(action, command.action, `${where}: the action by reference`);
      const text = (v) => JSON.stringify(action === undefined ? v : { ...v, action: JSON.parse(canon(v.action)) });
      assert.equal(text(got.ok), text(want[i].ok), `${where}: key order`);
    } else {
      const e = want[i].error;
      const expected = { code: e.code, message: e.message };
      for (const k of ["path", "expected", "version"]) if (e[k] !== undefined) expected[k] = e[k];
      assert.deepStrictEqual(got, { error: expected }, where);
    }
  }
  return valid;
}

for (const [name, f] of Object.entries(FAMILIES)) {
  test(`${name}: the tape boundary answers what encode --lines answers, for every target, fixtures and a mutation sweep`, () => {
    const requests = commandsOf(name, 12).flatMap((command) => f.targets.map((target) => ({ command, target })));
    const want = cliEncodeAnswers(f, requests);
    const valid = compare(f, requests, want, name);
    // The sweep must reach both outcomes in numbers, or it proves little.
    assert.ok(valid > 50 && requests.length - valid > 50, `${valid} valid of ${requests.length}`);
    // Again, with every key the wire values carry given a setter on Object.prototype (index keys
    // aside, which the next test installs; and `version`, which the error classes assign, see
    // js/wire-error.js).
    const keys = [...new Set(want.flatMap((a) => (a.ok ? JSON.stringify(a.ok).match(/"[^"\\]*":/g) ?? [] : [])).map((k) => k.slice(1, -2)))].filter(
      (k) => !(k in Object.prototype) && !/^\d+$/.test(k) && k !== "version",
    );
    let calls = 0;
    try {
      for (const k of keys) Object.defineProperty(Object.prototype, k, { set: () => calls++, configurable: true });
      const some = requests.filter((_, i) => i % 7 === 0);
      compare(f, some, want.filter((_, i) => i % 7 === 0), `${name}, polluted`);
    } finally {
      for (const k of keys) delete Object.prototype[k];
    }
    assert.equal(calls, 0);
  });
}

test("strings the module keeps for later answers survive a fresh instance, and a nested encode", () => {
  const send = { kind: "send", payload: { message: "hi" } };
  const first = encoder.encode(send);
  // A getter that encodes while the outer command is being walked.
  let inner;
  const outer = {
    kind: "send",
    get payload() {
      inner = encoder.encode({ kind: "deliver", payloads: [{ message: "inner" }] }, { version: 1 });
      return { message: "outer" };
    },
  };
  assert.deepStrictEqual(encoder.encode(outer), { ...first, payload: { message: "outer" }, payloads: [{ message: "outer" }] });
  assert.deepStrictEqual(inner, { kind: "deliver", payload: { message: "inner" }, payloads: [{ message: "inner" }], version: 1 });
  // A trap unwinds through the module (the stack runs out): the next call is on a fresh instance.
  const deep = (n) => (n === 0 ? encoder.encode(send) : deep(n - 1));
  for (let n = 0; n < 200_000; n += 997) {
    try {
      deep(n);
    } catch {
      break;
    }
  }
  assert.deepStrictEqual(encoder.encode(send), first);
  // A command larger than the buffers the module keeps between calls: they are given back after
  // it, and the next command (large or small) has its own.
  const big = { kind: "send", payload: { message: "é".repeat(700_000), context: Array.from({ length: 300_000 }, (_, i) => `c${i % 10}`) } };
  for (let i = 0; i < 2; i++) {
    const w = encoder.encode(big);
    assert.equal(w.payloads[0].message, big.payload.message);
    assert.deepStrictEqual(w.payload.context, big.payload.context);
    assert.deepStrictEqual(encoder.encode(send), first);
  }
});

test("an array inside an array being built that outgrows the item stack loses nothing of the outer one", () => {
  // The answer's arrays of three items or more are built on one stack of items; a nested array
  // longer than its room replaces it while the outer array's items are being stored.
  const f = FAMILIES["session-inbox"];
  const long = (p) => Array.from({ length: 300 }, (_, i) => `${p}${i}`);
  const command = { kind: "deliver", payloads: ["a", "b", "c", "d"].map((p) => ({ message: p, context: long(p) })) };
  const requests = f.targets.map((target) => ({ command, target }));
  const want = cliEncodeAnswers(f, requests);
  assert.equal(compare(f, requests, want, "nested growth"), requests.length);
});

test("strings the encoder makes (a mirror's joined messages) keep a leading U+FEFF, kept or not", () => {
  // The coalesced mirror's message is a string of no command: it crosses as its UTF-8 bytes, which
  // a default TextDecoder would read without a leading byte order mark.
  const f = FAMILIES["session-inbox"];
  const commands = ["\ufeff", "\ufeffa", "\ufeff\ufeff", `\ufeff${"x".repeat(40)}`, "a"].map((message) => ({ kind: "deliver", payloads: [{ message }, { message: "b" }] }));
  // Twice: the second time the short ones are strings the module keeps (KNOWN_STR).
  const requests = [...commands, ...commands].flatMap((command) => f.targets.map((target) => ({ command, target })));
  compare(f, requests, cliEncodeAnswers(f, requests), "byte order marks");
  assert.equal(encoder.encode(commands[1]).payload.message, "\ufeffa\n\nb");
});

test("a WireError a getter throws is that value failing to be read, as any other exception", () => {
  for (const [name, f] of Object.entries(FAMILIES)) {
    const kind = name === "session-inbox" ? "send" : "turn-result";
    const field = name === "session-inbox" ? "payload" : "action";
    const throwers = [
      () => encoder.turnControl.encode({ kind: "no such kind" }),
      () => encoder.encode({ kind: "no such kind" }),
      () => {
        throw new encoder.WireError("X", "made up");
      },
      () => {
        throw new f.ErrorClass("INVALID", "made up", undefined, "/somewhere", "something");
      },
    ];
    for (const thrower of throwers) {
      const command = {
        kind,
        get [field]() {
          thrower();
        },
      };
      let thrown;
      try {
        f.encode(command);
      } catch (e) {
        thrown = e;
      }
      assert.ok(thrown instanceof f.ErrorClass, `${name}: ${thrown?.constructor?.name}: ${thrown?.message}`);
      assert.equal(thrown.code, "INVALID");
      assert.equal(thrown.path, "");
      assert.equal(thrown.expected, "a readable value");
      assert.match(thrown.message, /a value that threw while read/);
    }
  }
});

test("setters for indexes on Array.prototype and Object.prototype, and a replaced Array[Symbol.species], change no answer and run nothing", () => {
  // Every array the encoder stores into is its own (no prototype, or every index already its own),
  // and no copy it makes asks for a species: an index setter would lose the value stored, and a
  // species getter could hand back anything for an array of the answer.
  const INDEXES = ["0", "1", "2", "3", "4", "5", "6", "7"];
  const species = Object.getOwnPropertyDescriptor(Array, Symbol.species);
  for (const [name, f] of Object.entries(FAMILIES)) {
    const requests = commandsOf(name, 2).flatMap((command) => f.targets.map((target) => ({ command, target })));
    const want = cliEncodeAnswers(f, requests);
    // While the prototypes are polluted nothing here stores into an array: the answers go to a Map.
    const got = new Map();
    let calls = 0;
    try {
      for (const p of [Array.prototype, Object.prototype]) for (const k of INDEXES) Object.defineProperty(p, k, { set: () => calls++, configurable: true });
      Object.defineProperty(Array, Symbol.species, { get: () => (calls++, Array), configurable: true });
      for (let i = 0; i < requests.length; i++) got.set(i, encoderAnswer(f, requests[i].command, requests[i].target));
    } finally {
      Object.defineProperty(Array, Symbol.species, species);
      for (const p of [Array.prototype, Object.prototype]) for (const k of INDEXES) delete p[k];
    }
    assert.equal(calls, 0, `${name}: a setter or the species getter ran`);
    const valid = compare(f, requests, want, `${name}, index setters`, (i) => got.get(i));
    assert.ok(valid > 20, `${name}: ${valid} valid`);
  }
});
