// The turn-control entry of pkg/ (`hookwire/turn-control`): the decoder a session driver's
// workflow bundle uses on its per-turn control hook. Its own wasm module (only this family's
// steps and kinds), inlined and instantiated synchronously at import (js/decoder.js).
import { CAPABILITY_KEY, WIRE_VERSION } from "hookwire:contract";
import { decoder, memoryStats } from "./decoder.js";
import { WireError } from "./wire-error.js";

export { CAPABILITY_KEY, memoryStats, WireError, WIRE_VERSION };

/** Why a turn-control value could not be decoded: the only error `decode` throws. */
export class TurnControlWireError extends WireError {
  constructor(code, message, version, path, expected) {
    super("turn-control", code, message, version, path, expected);
  }
}
Object.defineProperty(TurnControlWireError.prototype, "name", { value: "TurnControlWireError", writable: true, configurable: true });

/** What a driver of this build advertises in the turn workflow's input. */
export function driverCapabilities() {
  return { [CAPABILITY_KEY]: WIRE_VERSION };
}

/**
 * Decode a turn-control value of any version: a fresh normalized object whose `action` and other
 * subtrees are the input's own references. Throws TurnControlWireError, and nothing else.
 */
export const decode = decoder(TurnControlWireError);
