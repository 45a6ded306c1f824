// The session inbox decoder's API, shared by its two entries: `hookwire` (js/entry.js, the wasm
// inlined) and `hookwire/module` (js/module.js, a precompiled module given to `init`).
import { CAPABILITY_KEY, DETAILS, ERROR_CLASS, FAMILY, KINDS, SYMBOLS, WIRE_VERSION } from "./contract.js";
import { family } from "./decoder.js";
import { validate } from "./standard-schema.js";
import { WireError, familyError } from "./wire-error.js";

export { WireError, WIRE_VERSION };
export const HOOK_METADATA_KEY = CAPABILITY_KEY;

/**
 * Why a session inbox value could not be decoded: the only error `decode` throws. `version`
 * names the version involved; `path` (a JSON pointer) and `expected` say where an envelope is
 * INVALID. `family` is "session-inbox".
 */
export const SessionInboxWireError = familyError(FAMILY, ERROR_CLASS);

/**
 * The family as the decoder core takes it; `O` null: no kind of it has its output made as a
 * literal (its own key, so that nothing on Object.prototype is taken for one); `X` names its
 * module's decode export (scripts/build-pkg.mjs gives the export this name).
 */
export const SESSION_INBOX = { FAMILY, WIRE_VERSION, S: SYMBOLS, K: KINDS, DETAILS, O: null, X: "s" };
/** The decoder, started by the entry (js/entry.js or js/module.js). */
export const session = family(SESSION_INBOX, SessionInboxWireError);

/** The metadata a consumer stamps on createHook. */
export function hookMetadata() {
  return { [HOOK_METADATA_KEY]: WIRE_VERSION };
}

/**
 * Decode a session inbox value of any version: a fresh normalized object whose opaque subtrees
 * are the input's own references. Throws SessionInboxWireError, and nothing else.
 */
export const decode = session.decode;

/**
 * The decoder's own resources: wasm linear memory bytes, table slots and the value handles held
 * between decodes (always 0).
 */
export const memoryStats = session.memoryStats;

/** The same decoder as a Standard Schema v1 (`validate`: `{ value }` or `{ issues }`). */
export const standardSchema = {
  "~standard": {
    version: 1,
    vendor: "hookwire",
    validate(value) {
      return validate(decode, value);
    },
  },
};
