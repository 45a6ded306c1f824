//! The hookwire decoder as a wasm module: a `cdylib` over the library built with its `wasm`
//! feature (or `wasm-turn-control`). Everything — the `#[wasm_bindgen]` exports, the allocator,
//! the panic handler — is the library's (`src/hosts/wasm.rs`, `src/lib.rs`); this crate only links it,
//! so that a user of the library never builds a cdylib. Built by `scripts/build-pkg.mjs`.
#![no_std]

// Link the library: its exports are this module's exports.
extern crate hookwire;
