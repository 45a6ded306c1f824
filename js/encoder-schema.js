// `encoderSchema({ target })` of the encoder entry (hookwire/encoder): the producer side as a
// Standard Schema v1 (https://standardschema.dev), for `defineHook({ schema })` of the Workflow
// SDK — its `resume(token, command)` calls `validate` and resumes the hook with the value it
// answers. `validate` encodes the command for the schema's fixed target: `{ value }`, the wire
// value, or `{ issues: [{ message, path }] }`, the error's code and message and its JSON pointer as
// a path into the command. Synchronous, like `encode`.
import { encode, SessionInboxWireError, turnControl, TurnControlWireError, WireError } from "./encoder-entry.js";

const FAMILIES = {
  __proto__: null,
  "session-inbox": { encode: (c, t) => encode(c, t), ErrorClass: SessionInboxWireError },
  "turn-control": { encode: (c, t) => turnControl.encode(c, t), ErrorClass: TurnControlWireError },
};

/** An own property of `v`, or undefined (a getter that throws reads as undefined). */
function read(v, k) {
  try {
    return v !== null && typeof v === "object" && Object.hasOwn(v, k) ? v[k] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The path of an error's JSON pointer in the command: unescaped keys, and numbers where the
 * command holds an array (or, past what the command holds, where the segment is an index). The
 * encoder names a send's places in the deliver it builds (`/payloads/0/…`, `/deliveryMetadata/0/…`):
 * they are the command's `/payload/…` and `/delivery/…`.
 */
export function commandPath(command, pointer) {
  if (pointer === undefined) return undefined;
  if (pointer === "") return [];
  let p = pointer;
  if (read(command, "kind") === "send") p = p.replace(/^\/payloads\/0(?=\/|$)/, "/payload").replace(/^\/deliveryMetadata\/0(?=\/|$)/, "/delivery");
  let at = command;
  return p
    .slice(1)
    .split("/")
    .map((s) => {
      const key = s.replaceAll("~1", "/").replaceAll("~0", "~");
      const index = /^(0|[1-9]\d*)$/.test(key) && (Array.isArray(at) || at === undefined);
      at = read(at, key);
      return index ? Number(key) : key;
    });
}

/**
 * A Standard Schema v1 whose `validate(command)` encodes `command` for `target` (default: the
 * family's current version) and answers `{ value }`, the wire value, or `{ issues }`. `family` is
 * "session-inbox" (default) or "turn-control". The target is checked and copied here: an
 * unsupported one throws the family's UNSUPPORTED_TARGET now, not at every validate.
 */
export function encoderSchema({ target, family = "session-inbox" } = {}) {
  const f = FAMILIES[family];
  if (f === undefined) {
    throw new SessionInboxWireError("UNSUPPORTED_TARGET", `unknown family ${JSON.stringify(String(family))}: expected "session-inbox" or "turn-control"`);
  }
  let fixed;
  try {
    fixed = target === undefined ? undefined : Object.freeze(JSON.parse(JSON.stringify(target)));
  } catch (e) {
    throw new f.ErrorClass("UNSUPPORTED_TARGET", `the target cannot be read as JSON (${e?.message ?? String(e)})`);
  }
  try {
    // The target is checked before the command (contract §16): with no command, only a command
    // error (INVALID at the root) says the target is supported.
    f.encode(undefined, fixed);
  } catch (e) {
    if (!(e instanceof WireError)) throw e;
    if (e.code !== "INVALID" || e.path !== "") throw e;
  }
  return {
    "~standard": {
      version: 1,
      vendor: "hookwire",
      validate(command) {
        try {
          return { value: f.encode(command, fixed) };
        } catch (e) {
          if (!(e instanceof WireError)) throw e;
          return { issues: [{ message: `${e.code}: ${e.message}`, path: commandPath(command, e.path) }] };
        }
      },
    },
  };
}
