// The inline decoder entries' start (js/entry.js, js/turn-control-entry.js): the module's bytes
// are inlined as base-85 text and the module is compiled and instantiated synchronously at import.
import { MEMORY, UNPACK, WASM_LENGTH, WASM_TEXT } from "hookwire:wasm";
import { load } from "./decoder.js";

/**
 * The module's bytes from its inlined base-85 text: a 100-byte module (js/unpack.wat) unpacks it
 * in the decoder's memory (which the decoder's first instance then takes over, and whose bytes
 * the compiled module no longer needs), filled with the text by TextEncoder. No per-character
 * loop runs in JS, where every fresh workflow context would interpret it.
 */
function moduleBytes() {
  // The text fits below the decoder's stack top (scripts/build-pkg.mjs checks it). Without
  // TextEncoder, the start error is the ReferenceError that names it.
  const unpack = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(UNPACK)), { a: { m: MEMORY } }).exports;
  const memory = new Uint8Array(MEMORY.buffer);
  new TextEncoder().encodeInto(WASM_TEXT, memory);
  unpack.d(WASM_TEXT.length);
  return memory.subarray(0, WASM_LENGTH);
}

load(() => new WebAssembly.Module(moduleBytes()), "WebAssembly code generation from bytes");
