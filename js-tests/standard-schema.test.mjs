// Standard Schema v1 (https://standardschema.dev): the decoder entries' `standardSchema` and the
// encoder entry's `encoderSchema({ target, family })`, checked against `decode` and `encode`
// themselves over every fixture, as a consumer of the specification reads them: `validate` is
// synchronous and answers `{ value }` or `{ issues: [{ message, path }] }`, the message starting
// with the code and the path being the error's pointer as keys and array indexes. (The Workflow
// SDK's `defineHook` with both schemas runs in the end-to-end suite, e2e/suite.mjs.)
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { cases, DECODE_DIRS, ENCODE_DIRS, entryPath, hookwire, pkgDir, root, TARGETS } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const encoder = require(join(pkgDir, "encoder.cjs"));
const turnControl = require(join(pkgDir, "turn-control.cjs"));

/** What a Standard Schema consumer does: the sync result, never a promise. */
function validate(schema, value) {
  const props = schema["~standard"];
  assert.equal(props.version, 1);
  assert.equal(props.vendor, "hookwire");
  const result = props.validate(value);
  assert.ok(!(result instanceof Promise), "validate is synchronous");
  return result;
}

/** The result a decode or encode that throws `e` must give: its code, message and pointer. */
function issuesOf(e, path) {
  return { issues: [{ message: `${e.code}: ${e.message}`, path }] };
}

/** A decode pointer (`/<key>` or `/<key>/<index>`) as a path. */
const decodePath = (pointer) => pointer?.slice(1).split("/").map((s, i) => (i ? Number(s) : s));

function familyCases(family, dirs) {
  return dirs.flatMap((dir) => {
    const base = join(root, "fixtures", family, dir);
    return readdirSync(base)
      .filter((f) => f.endsWith(".json"))
      .map((f) => ({ name: `${family}/${dir}/${f}`, ...JSON.parse(readFileSync(join(base, f), "utf8")) }));
  });
}

for (const [name, entry, dirs] of [
  ["hookwire", hookwire, DECODE_DIRS.map((d) => ["session-inbox", d])],
  ["hookwire/turn-control", turnControl, ["v0", "v1", "chain"].map((d) => ["turn-control", d])],
]) {
  test(`${name}: standardSchema answers what decode answers, for every decode fixture`, () => {
    let ok = 0;
    let refused = 0;
    for (const c of dirs.flatMap(([family, dir]) => familyCases(family, [dir]))) {
      if (!("input" in c)) continue;
      const result = validate(entry.standardSchema, c.input);
      let decoded;
      try {
        decoded = entry.decode(c.input);
      } catch (e) {
        assert.ok(e instanceof entry.WireError, c.name);
        assert.deepEqual(result, issuesOf(e, decodePath(e.path)), c.name);
        assert.ok(result.issues[0].message.startsWith(`${c.error?.code ?? e.code}: `), c.name);
        if (e.path !== undefined) assert.equal(`/${result.issues[0].path.join("/")}`, e.path, c.name);
        refused++;
        continue;
      }
      assert.deepEqual(result, { value: decoded }, c.name);
      ok++;
    }
    assert.ok(ok > 10 && refused > 5, `${ok} decoded, ${refused} refused`);
  });
}

test("standardSchema: a path's index is a number, its key a string; the value keeps decode's references", () => {
  const payloads = [{ message: "a" }, 7];
  assert.deepEqual(validate(hookwire.standardSchema, { kind: "deliver", version: 6, payloads, payload: {} }), {
    issues: [{ message: "INVALID: invalid envelope at /payloads/1: expected an object", path: ["payloads", 1] }],
  });
  const payload = { message: "hello" };
  const { value } = validate(hookwire.standardSchema, { kind: "deliver", version: 6, payloads: [payload], payload });
  assert.equal(value.payloads[0], payload);
  // Errors without a pointer have no path.
  assert.deepEqual(validate(hookwire.standardSchema, { kind: "clear", version: 99 }).issues[0].path, undefined);
  assert.match(validate(hookwire.standardSchema, { kind: "clear", version: 99 }).issues[0].message, /^NEWER_VERSION: version 99 is newer/);
});

test("encoderSchema: validate answers encode's wire value for its fixed target, for every encode fixture and target", () => {
  let ok = 0;
  let refused = 0;
  for (const dir of ENCODE_DIRS) {
    for (const c of cases(dir)) {
      for (const target of Object.values(TARGETS)) {
        const schema = encoder.encoderSchema({ target });
        const result = validate(schema, c.command);
        let wire;
        try {
          wire = encoder.encode(c.command, target);
        } catch (e) {
          assert.ok(e instanceof encoder.SessionInboxWireError, c.name);
          assert.equal(result.issues.length, 1, c.name);
          assert.equal(result.issues[0].message, `${e.code}: ${e.message}`, c.name);
          const path = result.issues[0].path;
          if (e.path === undefined) assert.equal(path, undefined, c.name);
          else if (c.command?.kind !== "send") assert.equal(path.length ? `/${path.join("/")}` : "", e.path, c.name);
          // A send's places in the deliver built from it are the command's payload and delivery.
          else assert.equal(`/${path.join("/")}`, e.path.replace(/^\/payloads\/0(?=\/|$)/, "/payload").replace(/^\/deliveryMetadata\/0(?=\/|$)/, "/delivery"), c.name);
          refused++;
          continue;
        }
        assert.deepEqual(result, { value: wire }, `${c.name} ${JSON.stringify(target)}`);
        ok++;
      }
    }
  }
  assert.ok(ok > 50 && refused > 5, `${ok} encoded, ${refused} refused`);
});

test("encoderSchema: issue paths point into the command, indexes as numbers", () => {
  const schema = encoder.encoderSchema({ target: { version: 6 } });
  // The encoder names a send's places in the deliver it builds; the issue names the command's.
  assert.deepEqual(validate(schema, { kind: "send", payload: { message: [{ type: "image", image: Number.NaN }] } }), {
    issues: [{ message: "INVALID: invalid wire value at /payloads/0/message/0/image: expected a finite number, found NaN", path: ["payload", "message", 0, "image"] }],
  });
  const { issues } = validate(schema, { kind: "deliver", payloads: [{ message: "a" }, { message: 1 }] });
  assert.deepEqual(issues[0].path.slice(0, 2), ["payloads", 1]);
  // A key made of digits in an object stays a string.
  const keyed = validate(schema, { kind: "send", payload: { message: "m", interaction: { 0: Number.NaN } } });
  if (keyed.issues) assert.deepEqual(keyed.issues[0].path, ["payload", "interaction", "0"]);
  assert.deepEqual(validate(schema, 5), { issues: [{ message: `INVALID: ${errorOf(() => encoder.encode(5)).message}`, path: [] }] });
  const v5 = encoder.encoderSchema({ target: { version: 5 } });
  assert.deepEqual(validate(v5, { kind: "cancel", turnId: "t", tasks: true }).issues.map((i) => [i.message.split(":")[0], i.path]), [["INCOMPATIBLE", ["tasks"]]]);
});

function errorOf(f) {
  try {
    f();
  } catch (e) {
    return e;
  }
  assert.fail("did not throw");
}

test("encoderSchema: the target is checked once and fixed; the default is the current version", () => {
  assert.equal(validate(encoder.encoderSchema(), { kind: "clear" }).value.version, encoder.WIRE_VERSION);
  for (const target of [{ version: 9 }, { version: 0 }, { version: 0, variant: "other" }, "v6"]) {
    const e = errorOf(() => encoder.encoderSchema({ target }));
    assert.ok(e instanceof encoder.SessionInboxWireError);
    assert.equal(e.code, "UNSUPPORTED_TARGET", JSON.stringify(target));
  }
  const cyclic = { version: 6 };
  cyclic.self = cyclic;
  assert.equal(errorOf(() => encoder.encoderSchema({ target: cyclic })).code, "UNSUPPORTED_TARGET");
  const target = { version: 3 };
  const schema = encoder.encoderSchema({ target });
  target.version = 6;
  assert.equal(validate(schema, { kind: "clear" }).value.version, 3);
  const raw = validate(encoder.encoderSchema({ target: { version: 0, variant: "send" } }), { kind: "send", payload: { message: "m" } });
  assert.deepEqual(raw, { value: encoder.encode({ kind: "send", payload: { message: "m" } }, { version: 0, variant: "send" }) });
  assert.equal(errorOf(() => encoder.encoderSchema({ family: "other" })).code, "UNSUPPORTED_TARGET");
});

test("encoderSchema({ family: \"turn-control\" }): turn control's encode, its errors as issues", () => {
  const action = { kind: "final", text: "done" };
  const v1 = encoder.encoderSchema({ family: "turn-control" });
  const { value } = validate(v1, { kind: "turn-result", action });
  assert.deepEqual(value, encoder.turnControl.encode({ kind: "turn-result", action }));
  assert.equal(value.action, action, "the command's own action object");
  const v0 = encoder.encoderSchema({ family: "turn-control", target: { version: 0 } });
  assert.equal("version" in validate(v0, { kind: "turn-error", error: "x" }).value, false);
  const bad = validate(v1, { kind: "turn-result" });
  assert.match(bad.issues[0].message, /^INVALID: /);
  assert.equal(errorOf(() => encoder.encoderSchema({ family: "turn-control", target: { version: 2 } })).name, "TurnControlWireError");
  // Decoding what the producer schema wrote through the consumer schema gives the command back.
  assert.deepEqual(validate(turnControl.standardSchema, value), { value: turnControl.decode(value) });
});

test("a decoder's standardSchema rethrows what is not a wire error (a decoder that cannot start)", async () => {
  const { runInNewContext } = await import("node:vm");
  const code = readFileSync(entryPath(), "utf8");
  const module = { exports: {} };
  // No WebAssembly in the context: decode throws a HookwireStartError, and so does validate.
  runInNewContext(code, { module, exports: module.exports, Symbol, Object, Error, String, Math, Number, Array });
  const e = errorOf(() => module.exports.standardSchema["~standard"].validate({ kind: "clear" }));
  assert.equal(e.name, "HookwireStartError");
});
