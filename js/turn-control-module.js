// `hookwire/turn-control/module` (pkg/turn-control-module.mjs, .cjs): the turn-control decoder
// without the inlined wasm; the API of `hookwire/turn-control`, plus `init(module)` for
// `turn-control_bg.wasm` precompiled.
export { init } from "./init.js";
export * from "./turn-control.js";
