// The turn-control entry of pkg/ (`hookwire/turn-control`): the decoder a session driver's
// workflow bundle uses on its per-turn control hook. Its own wasm module (only this family's
// steps and kinds), inlined and instantiated synchronously at import (js/inline.js); for
// a precompiled module, js/turn-control-module.js (`hookwire/turn-control/module`).
import { inline } from "./inline.js";
import { turnControl } from "./turn-control.js";
import { LENGTH, TEXT } from "hookwire:turn-control-wasm";

turnControl.load(inline(TEXT, LENGTH), "WebAssembly code generation from bytes");
export { CAPABILITY_KEY, decode, driverCapabilities, memoryStats, standardSchema, TurnControlWireError, WireError, WIRE_VERSION } from "./turn-control.js";
