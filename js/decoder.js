// The decoder core both decoder entries share (js/entry.js, js/turn-control-entry.js): the
// module's inline bytes instantiated synchronously at import — no fs, require, fetch, dynamic
// import or async init, so it runs inside a workflow sandbox (a fresh node:vm context per
// delivery) — and `decode`, which hands the value to the wasm module by handle and turns the
// codes the module leaves behind into the family's error (no string is formatted in wasm).
import { IMPORTS, UNPACK, WASM_LENGTH, WASM_TEXT, exportsOf } from "hookwire:wasm";
import { CODES, DETAILS, FAMILY, MESSAGES, SYMBOLS, WIRE_VERSION } from "hookwire:contract";
import { mark, settle, V } from "./host.js";

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

let startFailure = null;
let module = null;
let wasm = null;
/** Whether something unwound through the instance: the next decode starts a fresh one. */
let stale = false;
/** How many decodes are running (a getter of a value being decoded may decode). */
let running = 0;

/** Instantiate the module (again, after an exception unwound through it and left it suspect). */
function start() {
  // wasm-bindgen's start function only fills its externref table, which this module never uses
  // (values travel as handles): it is not called.
  wasm = exportsOf(new WebAssembly.Instance(module, IMPORTS).exports);
  stale = false;
}

try {
  if (typeof WebAssembly !== "object" || WebAssembly === null) {
    throw new Error("no WebAssembly global");
  }
  module = new WebAssembly.Module(moduleBytes());
  start();
} catch (cause) {
  const why = cause && cause.message ? cause.message : String(cause);
  startFailure = new Error(
    `hookwire: the ${FAMILY} decoder cannot start: ${why} (it needs WebAssembly code generation from bytes)`,
    { cause },
  );
  startFailure.name = "HookwireStartError";
}

function message(code, version, detail, path) {
  return MESSAGES[code]
    .replace("{version}", String(version))
    .replace("{current}", String(WIRE_VERSION))
    .replace("{path}", path)
    .replace("{detail}", detail);
}

/** A decoder that throws `ErrorClass(code, message, version, path, expected)` and nothing else. */
export function decoder(ErrorClass) {
  const unreadable = () => new ErrorClass("NOT_OBJECT", message("NOT_OBJECT", NaN, DETAILS[7], ""));
  return function decode(value) {
    if (startFailure !== null) throw startFailure;
    // Decodes nested in getters (even of the value itself) stop four deep: each level may read a
    // key more than once, so unbounded nesting would multiply the work at every level.
    if (running > 3) throw unreadable();
    if (stale) start();
    // This decode's instance: errors are read from it even if a nested decode replaced it.
    const w = wasm;
    const base = V.length;
    const m = mark();
    let r = -2;
    running++;
    try {
      V[base] = value;
      r = w.decode(base);
    } catch {
      // Something unwound through the module (the stack ran out inside a getter, say): its stack
      // pointer cannot be trusted any more, so the next decode runs on a fresh instance (not
      // this one's callers: a decode that is still running keeps its own).
      stale = true;
    }
    running--;
    const out = V[r];
    V.length = base;
    if (settle(m) || r < -1) throw unreadable();
    if (r >= 0) return out;
    const code = CODES[w.error_code()];
    const version = w.error_version();
    const where = w.error_detail();
    const detail = DETAILS[where & 255];
    const key = (where >> 8) - 1;
    const index = w.error_index();
    const path =
      key < 0 ? undefined : `/${SYMBOLS[key].replaceAll("~", "~0").replaceAll("/", "~1")}${index < 0 ? "" : `/${index}`}`;
    throw new ErrorClass(code, message(code, version, detail, path ?? ""), Number.isNaN(version) ? undefined : version, path, path && detail);
  };
}

/**
 * The decoder's own resources: wasm linear memory bytes, externref table slots, and the value
 * handles held between decodes (always 0: a decode releases its handles when it returns).
 */
export function memoryStats() {
  if (startFailure !== null) throw startFailure;
  const table = wasm.__wbindgen_externrefs;
  return { memoryBytes: wasm.memory.buffer.byteLength, tableSlots: table ? table.length : 0, handles: V.length };
}
