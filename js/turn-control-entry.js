// The turn-control entry of pkg/ (`hookwire/turn-control`): the decoder a session driver's
// workflow bundle uses on its per-turn control hook. Its own wasm module (only this family's
// steps and kinds), inlined and instantiated synchronously at import (js/inline.js); for a
// precompiled module, js/turn-control-module.js (`hookwire/turn-control/module`).
import "./inline.js";
export * from "./turn-control.js";
