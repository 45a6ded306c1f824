// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.

export * from "./hookwire.cjs";

/**
 * Start the decoder on `module`: this package's `hookwire_bg.wasm` as a precompiled
 * `WebAssembly.Module` (what workerd, edge runtimes and bundlers give for an imported `.wasm`), or
 * its bytes where the runtime compiles wasm from bytes. Synchronous. Until it has succeeded,
 * `decode` throws a HookwireStartError; so does `init` when the decoder cannot start on `module`.
 */
export declare function init(module: WebAssembly.Module | ArrayBuffer | ArrayBufferView): void;
