//! The hookwire encoder and negotiation as a wasm module for JS server and step code: a `cdylib`
//! over the library built with its `wasm-encoder` feature. The `#[wasm_bindgen]` exports are the
//! library's (`src/surfaces/wasm_encoder.rs`); this crate only links them, so that a user of the library
//! never builds a cdylib. Built by `scripts/build-pkg.mjs`.

// Link the library: its exports are this module's exports.
extern crate hookwire;
