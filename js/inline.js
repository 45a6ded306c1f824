// The inline decoder entries' start (js/entry.js, js/turn-control-entry.js): the module's bytes
// are inlined as text, compressed (js/unpack.wat has the format), and the module is compiled and
// instantiated synchronously at import.
import { newMemory } from "./decoder.js";
import { host, IMPORTS } from "./host.js";
import { UNPACK } from "hookwire:unpack";

/**
 * The start of a module inlined as `text`, `length` bytes once unpacked: a small module
 * (js/unpack.wat) unpacks it in the decoder's memory (which the decoder's first instance then
 * takes over, and whose bytes the compiled module no longer needs), filled with the text by
 * TextEncoder, the bytes written past the text. No per-character loop runs in JS, where every
 * fresh workflow context would interpret it.
 */
export const inline = (text, length) => () => {
  // The text and the bytes fit below the decoder's stack top (scripts/build-pkg.mjs checks it).
  // Without TextEncoder, the start error is the ReferenceError that names it.
  const memory = (host[0] = newMemory());
  const bytes = new Uint8Array(memory.buffer);
  new TextEncoder().encodeInto(text, bytes);
  new WebAssembly.Instance(new WebAssembly.Module(UNPACK), IMPORTS).exports.d(text.length, text.length, text.length + length);
  return [new WebAssembly.Module(bytes.subarray(text.length, text.length + length)), memory];
};
