// `hookwire/module` (pkg/module.mjs, pkg/module.cjs): the session inbox decoder without the
// inlined wasm, for runtimes and bundlers that import `.wasm` files as precompiled modules
// (workerd forbids compiling wasm from bytes). The API of `hookwire`, plus `init(module)`.
export { init } from "./init.js";
export * from "./session-inbox.js";
