// The session inbox decoder's API, shared by its two entries: `hookwire` (js/entry.js, the wasm
// inlined) and `hookwire/module` (js/module.js, a precompiled module given to `init`).
import { CAPABILITY_KEY, WIRE_VERSION } from "hookwire:contract";
import { decoder, memoryStats } from "./decoder.js";
import { standard } from "./standard-schema.js";
import { WireError } from "./wire-error.js";

export { memoryStats, WireError, WIRE_VERSION };
export const HOOK_METADATA_KEY = CAPABILITY_KEY;

/**
 * Why a session inbox value could not be decoded: the only error `decode` throws. `version`
 * names the version involved; `path` (a JSON pointer) and `expected` say where an envelope is
 * INVALID. `family` is "session-inbox".
 */
export class SessionInboxWireError extends WireError {
  constructor(code, message, version, path, expected) {
    super("session-inbox", code, message, version, path, expected);
  }
}
Object.defineProperty(SessionInboxWireError.prototype, "name", { value: "SessionInboxWireError", writable: true, configurable: true });

/** The metadata a consumer stamps on createHook. */
export function hookMetadata() {
  return { [HOOK_METADATA_KEY]: WIRE_VERSION };
}

/**
 * Decode a session inbox value of any version: a fresh normalized object whose opaque subtrees
 * are the input's own references. Throws SessionInboxWireError, and nothing else.
 */
export const decode = decoder(SessionInboxWireError);

/** The same decoder as a Standard Schema v1 (`validate`: `{ value }` or `{ issues }`). */
export const standardSchema = standard(decode);
