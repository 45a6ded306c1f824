// The package's encoder entry (pkg/encoder.cjs): hookwire's native encoder and negotiation,
// compiled to wasm, for JS server and step code. Never import it from workflow code: the
// workflow-safe decoder is the package's main entry and does not grow by a byte because of this.
//
// A command crosses into wasm as JSON text. Before that, this file checks JSON-ness the way the
// contract says — keys whose value is undefined are dropped; NaN, ±Infinity, dates, maps,
// functions, symbols, bigints and cycles are INVALID, with a JSON pointer — and sets binary
// values (Uint8Array, ArrayBuffer, URL) aside where the contract allows them (the image/data of
// a message part), putting the very same objects back into the wire value.
import { __wbg_set_wasm, encode_json, negotiate_json, turn_control_encode_json, turn_control_negotiate_json } from "hookwire:glue";
import { exportsOf, IMPORTS, WASM_BASE64 } from "hookwire:wasm";
import { HOOK_METADATA_KEY, SessionInboxWireError, WireError, WIRE_VERSION } from "./hookwire.cjs";
import { TurnControlWireError, WIRE_VERSION as TURN_CONTROL_WIRE_VERSION } from "./turn-control.cjs";

export { HOOK_METADATA_KEY, SessionInboxWireError, TurnControlWireError, WireError, WIRE_VERSION };

const bytes = Uint8Array.from(atob(WASM_BASE64), (c) => c.charCodeAt(0));
const exports = exportsOf(new WebAssembly.Instance(new WebAssembly.Module(bytes), IMPORTS).exports);
__wbg_set_wasm(exports);
exports.__wbindgen_start?.();

const MAX_DEPTH = 2000;
const tag = (v) => Object.prototype.toString.call(v);
const BINARY = new Set(["[object Uint8Array]", "[object ArrayBuffer]", "[object URL]"]);

function wireError(error, ErrorClass = SessionInboxWireError) {
  return new ErrorClass(error.code, error.message, error.version, error.path, error.expected);
}

function invalid(path, expected, found, ErrorClass) {
  return wireError({ code: "INVALID", message: `invalid wire value at ${path || "the root"}: expected ${expected}, found ${found}`, path, expected }, ErrorClass);
}

/** The command's place of `path` in the wire value a send becomes (payload → payloads/0). */
function wirePath(kind, path) {
  if (kind !== "send") return path;
  return path.replace(/^\/payload(?=\/|$)/, "/payloads/0").replace(/^\/delivery(?=\/|$)/, "/deliveryMetadata/0");
}

const escape = (k) => k.replaceAll("~", "~0").replaceAll("/", "~1");

/** JSON text of a command, checked, with binaries replaced by tokens kept in `binaries`. */
function jsonText(command, binaries, token, ErrorClass = SessionInboxWireError) {
  const kind = command && typeof command === "object" ? command.kind : undefined;
  const binaryPlace =
    ErrorClass !== SessionInboxWireError ? /^$/ : kind === "send" ? /^\/payload\/message\/\d+\/(image|data)$/ : /^\/payloads\/\d+\/message\/\d+\/(image|data)$/;
  const seen = new Set();
  const fail = (path, expected, found) => invalid(ErrorClass === SessionInboxWireError ? wirePath(kind, path) : path, expected, found, ErrorClass);
  const write = (v, path, depth) => {
    switch (typeof v) {
      case "string":
        return JSON.stringify(v);
      case "boolean":
        return v ? "true" : "false";
      case "number":
        if (!Number.isFinite(v)) throw fail(path, "a finite number", String(v));
        return JSON.stringify(v);
      case "object":
        break;
      default:
        throw fail(path, "a JSON value", typeof v);
    }
    if (v === null) return "null";
    if (depth > MAX_DEPTH) throw fail(path, `JSON nested at most ${MAX_DEPTH} levels deep`, "deeper nesting");
    const t = tag(v);
    if (BINARY.has(t)) {
      if (!binaryPlace.test(path)) throw fail(path, "a JSON value (binary data is allowed only as a part's image or data)", t.slice(8, -1));
      binaries.push(v);
      return JSON.stringify(`${token}${binaries.length - 1}`);
    }
    if (seen.has(v)) throw fail(path, "a JSON value", "a cycle");
    seen.add(v);
    let out;
    try {
      if (Array.isArray(v)) {
        const items = [];
        for (let i = 0; i < v.length; i++) {
          if (v[i] === undefined) throw fail(`${path}/${i}`, "a JSON value", "undefined");
          items.push(write(v[i], `${path}/${i}`, depth + 1));
        }
        out = `[${items.join(",")}]`;
      } else if (t === "[object Object]") {
        const fields = [];
        for (const k of Object.keys(v)) {
          const x = v[k];
          if (x !== undefined) fields.push(`${JSON.stringify(k)}:${write(x, `${path}/${escape(k)}`, depth + 1)}`);
        }
        out = `{${fields.join(",")}}`;
      } else {
        throw fail(path, "a JSON value", t.slice(8, -1));
      }
    } catch (e) {
      if (e instanceof WireError) throw e;
      throw fail(path, "a readable value", `a value that threw while read (${e && e.message})`);
    } finally {
      seen.delete(v);
    }
    return out;
  };
  return write(command, "", 0);
}

/** Put the set-aside binaries back, by reference. */
function restore(v, binaries, token) {
  if (typeof v === "string") return v.startsWith(token) ? binaries[Number(v.slice(token.length))] : v;
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = restore(v[i], binaries, token);
  } else {
    for (const k of Object.keys(v)) Object.defineProperty(v, k, { value: restore(v[k], binaries, token), writable: true, enumerable: true, configurable: true });
  }
  return v;
}

/**
 * Encode a command for a target (default: the current version): build the complete v1 value,
 * validate it once, convert it down for a v0 target. Throws SessionInboxWireError (INVALID with
 * `path` and `expected`, or UNSUPPORTED_TARGET).
 */
export function encode(command, target = { version: WIRE_VERSION }) {
  const binaries = [];
  const token = `\u0000hookwire-binary-${Math.random().toString(36).slice(2)}:`;
  const text = command === undefined ? "null" : jsonText(command, binaries, token);
  let targetText;
  try {
    targetText = JSON.stringify(target) ?? "null";
  } catch {
    targetText = "null";
  }
  const answer = JSON.parse(encode_json(text, targetText));
  if (answer.error) throw wireError(answer.error);
  return binaries.length ? restore(answer.ok, binaries, token) : answer.ok;
}

/** One move of the negotiation state machine in wasm: the rules, counts and messages live there. */
function move(request) {
  const answer = JSON.parse(negotiate_json(JSON.stringify(request)));
  if (answer.error) throw wireError(answer.error);
  return answer;
}

/** What the state machine is told a lookup found: a hook's fields, "none", or a failure. */
function found(hook) {
  if (hook === null || hook === undefined) return { hook: null };
  if (typeof hook !== "object") return { hook };
  try {
    return { hook: { token: hook.token ?? null, runId: hook.runId ?? null, metadata: hook.metadata ?? null } };
  } catch (e) {
    return { failed: `reading the hook threw (${e && e.message})` };
  }
}

/** The stable inbox token of a run (`template` defaults to `eve:session:{runId}:inbox`). */
export function stableInboxToken(runId, template = "eve:session:{runId}:inbox") {
  return template.replace("{runId}", runId);
}

/**
 * Choose the target a receiver understands (contract §12). `destination` is `{ token }` or
 * `{ address: { sessionId, version } }`; `lookup(token)` is the caller's getHookByToken (sync or
 * async): a hook, or null/undefined when there is none. A lookup that throws or rejects refuses
 * with LOOKUP_FAILED. Resolves to `{ target, lookups, resume }`, where `resume` is `{ hook }` —
 * the inspected hook object to resume — or `{ token }` on the zero-lookup paths. This function
 * only performs the lookups the wasm state machine asks for; every rule is in Rust.
 */
export async function negotiate(command, destination, lookup, options = {}) {
  const binaries = [];
  const token = `\u0000hookwire-binary-${Math.random().toString(36).slice(2)}:`;
  const text = command === undefined ? "null" : jsonText(command, binaries, token);
  let answer = move({
    start: {
      command: JSON.parse(text),
      destination,
      writeAtMost: options.writeAtMost ?? null,
      stableInboxToken: options.stableInboxToken ?? null,
    },
  });
  let inspected;
  let lookups = 0;
  while (answer.lookup !== undefined) {
    let hook;
    let result;
    try {
      hook = await lookup(answer.lookup);
      result = found(hook);
    } catch (e) {
      result = { failed: `the lookup threw (${e && e.message})` };
    }
    if (++lookups === 1) inspected = hook;
    answer = move({ resume: answer.state, answer: result });
  }
  const { target, resume } = answer.ok;
  return { target, lookups: answer.ok.lookups, resume: answer.ok.lookups > 0 ? { hook: inspected } : { token: resume.token } };
}

/**
 * Turn control (contract §14), for the turn workflow: `encode(command, target)` writes the value
 * for `{ version: 1 }` (default) or `{ version: 0 }` (a driver without the capability), with the
 * command's own `action` object in it (passed through by reference, never rebuilt);
 * `negotiate(capabilities, { writeAtMost })` is the pure choice of target from the driver's
 * capabilities (no lookups). Both throw TurnControlWireError.
 */
export const turnControl = {
  WIRE_VERSION: TURN_CONTROL_WIRE_VERSION,
  encode(command, target = { version: TURN_CONTROL_WIRE_VERSION }) {
    const text = command === undefined ? "null" : jsonText(command, [], "\u0000", TurnControlWireError);
    let targetText;
    try {
      targetText = JSON.stringify(target) ?? "null";
    } catch {
      targetText = "null";
    }
    const answer = JSON.parse(turn_control_encode_json(text, targetText));
    if (answer.error) throw wireError(answer.error, TurnControlWireError);
    if (answer.ok.kind === "turn-result") answer.ok.action = command.action;
    return answer.ok;
  },
  negotiate(capabilities, options = {}) {
    let caps;
    try {
      caps = capabilities === undefined ? null : JSON.parse(JSON.stringify(capabilities) ?? "null");
    } catch {
      caps = null;
    }
    const answer = JSON.parse(turn_control_negotiate_json(JSON.stringify({ capabilities: caps, writeAtMost: options.writeAtMost ?? null })));
    if (answer.error) throw wireError(answer.error, TurnControlWireError);
    return answer.ok.target;
  },
};
