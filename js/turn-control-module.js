// `hookwire/turn-control/module` (pkg/turn-control-module.mjs, pkg/turn-control-module.cjs): the
// turn-control decoder without the inlined wasm, for runtimes that import `.wasm` files as
// precompiled modules. The API of `hookwire/turn-control`, plus `init(module)`.
import { initFor } from "./init.js";
import { turnControl, TURN_CONTROL } from "./turn-control.js";

export const init = initFor(turnControl, TURN_CONTROL);
export { CAPABILITY_KEY, decode, driverCapabilities, memoryStats, standardSchema, TurnControlWireError, WireError, WIRE_VERSION } from "./turn-control.js";
