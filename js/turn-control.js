// The turn-control decoder's API, shared by its two entries: `hookwire/turn-control`
// (js/turn-control-entry.js, the wasm inlined) and `hookwire/turn-control/module`
// (js/turn-control-module.js, a precompiled module given to `init`).
import { CAPABILITY_KEY, DETAILS, ERROR_CLASS, FAMILY, KINDS, SYMBOLS, WIRE_VERSION } from "./turn-control-contract.js";
import { family } from "./decoder.js";
import { OUTPUTS } from "./turn-control-outputs.js";
import { validate } from "./standard-schema.js";
import { WireError, familyError } from "./wire-error.js";

export { CAPABILITY_KEY, WireError, WIRE_VERSION };

/** Why a turn-control value could not be decoded: the only error `decode` throws. */
export const TurnControlWireError = familyError(FAMILY, ERROR_CLASS);

/**
 * The family as the decoder core takes it; `O`, the outputs made as literals of those of its kinds
 * that have them (generated); `X` names its module's decode export (scripts/build-pkg.mjs gives
 * the export this name).
 */
export const TURN_CONTROL = { FAMILY, WIRE_VERSION, S: SYMBOLS, K: KINDS, DETAILS, O: OUTPUTS, X: "t" };
/** The decoder, started by the entry (js/turn-control-entry.js or js/turn-control-module.js). */
export const turnControl = family(TURN_CONTROL, TurnControlWireError);

/** What a driver of this build advertises in the turn workflow's input. */
export function driverCapabilities() {
  return { [CAPABILITY_KEY]: WIRE_VERSION };
}

/**
 * Decode a turn-control value of any version: a fresh normalized object whose `action` and other
 * subtrees are the input's own references. Throws TurnControlWireError, and nothing else.
 */
export const decode = turnControl.decode;

/**
 * The decoder's own resources: wasm linear memory bytes, table slots and the value handles held
 * between decodes (always 0).
 */
export const memoryStats = turnControl.memoryStats;

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
