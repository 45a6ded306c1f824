// The decoder core both decoder entries share (js/entry.js, js/turn-control-entry.js): the
// module's inline bytes instantiated synchronously at import — no fs, require, fetch, dynamic
// import or async init, so it runs inside a workflow sandbox (a fresh node:vm context per
// delivery) — and `decode`, which hands the value to the wasm module by handle and turns the
// codes the module leaves behind into the family's error (no string is formatted in wasm).
import { __wbg_set_wasm, decode as wasmDecode, error_code, error_detail, error_index, error_version } from "hookwire:glue";
import { WASM_BASE64, IMPORTS, exportsOf } from "hookwire:wasm";
import { CODES, DETAILS, FAMILY, MESSAGES, SYMBOLS, WIRE_VERSION } from "hookwire:contract";
import { mark, settle, V } from "./host.js";

function base64Bytes(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

let startFailure = null;
let module = null;
let wasm = null;

/** Instantiate the module (again, after an exception unwound through it and left it suspect). */
function start() {
  const exports = exportsOf(new WebAssembly.Instance(module, IMPORTS).exports);
  __wbg_set_wasm(exports);
  exports.__wbindgen_start();
  wasm = exports;
}

try {
  if (typeof WebAssembly !== "object" || WebAssembly === null) {
    throw new Error("there is no WebAssembly global in this context");
  }
  module = new WebAssembly.Module(base64Bytes(WASM_BASE64));
  start();
} catch (cause) {
  const why = cause && cause.message ? cause.message : String(cause);
  startFailure = new Error(
    `hookwire: the ${FAMILY} decoder cannot start because WebAssembly is unavailable here (${why}); ` +
      "a sandbox that forbids wasm code generation cannot run it",
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
  return function decode(value) {
    if (startFailure !== null) throw startFailure;
    const base = V.length;
    V.push(value);
    const m = mark();
    let r;
    try {
      r = wasmDecode(base);
    } catch {
      // Something unwound through the module (the stack ran out inside a getter, say): its stack
      // pointer cannot be trusted any more, so the next decode runs on a fresh instance.
      r = -2;
      start();
    }
    const out = r < 0 ? undefined : V[r];
    V.length = base;
    if (settle(m) || r === -2) {
      throw new ErrorClass("NOT_OBJECT", message("NOT_OBJECT", NaN, DETAILS[7], ""));
    }
    if (r >= 0) return out;
    const code = CODES[error_code()];
    const version = error_version();
    const where = error_detail();
    const detail = DETAILS[where & 255];
    const key = (where >> 8) - 1;
    const index = error_index();
    const path =
      key < 0 ? undefined : `/${SYMBOLS[key].replaceAll("~", "~0").replaceAll("/", "~1")}${index < 0 ? "" : `/${index}`}`;
    throw new ErrorClass(code, message(code, version, detail, path ?? ""), Number.isNaN(version) ? undefined : version, path, detail);
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
