// The inline decoder entries' start (js/entry.js, js/turn-control-entry.js): the module's bytes
// are inlined as base-85 text and the module is compiled and instantiated synchronously at import.
import { UNPACK, WASM_LENGTH, WASM_TEXT } from "hookwire:wasm";
import { load } from "./decoder.js";

/**
 * The module's bytes from its inlined base-85 text: a 100-byte module (js/unpack.wat) unpacks it
 * in its own memory, which TextEncoder fills with the text. No per-character loop runs in JS,
 * where every fresh workflow context would interpret it.
 */
function moduleBytes() {
  if (typeof TextEncoder !== "function") throw new Error("no TextEncoder to read the inlined module");
  const unpack = new WebAssembly.Instance(new WebAssembly.Module(new Uint8Array(UNPACK))).exports;
  const pages = Math.ceil(WASM_TEXT.length / 65536);
  if (pages > 1) unpack.m.grow(pages - 1);
  const memory = new Uint8Array(unpack.m.buffer);
  new TextEncoder().encodeInto(WASM_TEXT, memory);
  unpack.d(WASM_TEXT.length);
  return memory.subarray(0, WASM_LENGTH);
}

load(() => new WebAssembly.Module(moduleBytes()), "WebAssembly code generation from bytes");
