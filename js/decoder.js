// The decoder core every decoder entry shares (js/entry.js, js/turn-control-entry.js and their
// precompiled-module twins js/module.js, js/turn-control-module.js): the module started
// synchronously by `load` — from the inlined bytes at import (js/inline.js: no fs, require,
// fetch, dynamic import or async init, so it runs inside a workflow sandbox, a fresh node:vm
// context per delivery) or from a precompiled module (js/init.js) — and `decode`, which hands
// the value to the wasm module by handle and turns the codes the module leaves behind into the
// family's error (no string is formatted in wasm).
import { IMPORTS, MEMORY, MEMORY_KEY, exportsOf } from "hookwire:wasm";
import { CODES, DETAILS, FAMILY, MESSAGES, SYMBOLS, WIRE_VERSION } from "hookwire:contract";
import { mark, settle, V } from "./host.js";

let startFailure = null;
let module = null;
let wasm = null;
/** The memory of the current instance. */
let memory = null;
/** Whether something unwound through the instance: the next decode starts a fresh one. */
let stale = false;
/** How many decodes are running (a getter of a value being decoded may decode). */
let running = 0;

/** Instantiate the module (again, after an exception unwound through it and left it suspect). */
function start() {
  // The first instance takes the memory the glue made (the inline entries unpacked the module's
  // text in it); a later one gets a fresh memory, so a decode still running on the instance it
  // replaces keeps its stack.
  const fresh = memory !== null;
  memory = fresh ? new WebAssembly.Memory({ initial: MEMORY.buffer.byteLength >>> 16 }) : MEMORY;
  // wasm-bindgen's start function only fills its externref table, which this module never uses
  // (values travel as handles): it is not called.
  wasm = exportsOf(new WebAssembly.Instance(module, fresh ? { a: { ...IMPORTS.a, [MEMORY_KEY]: memory } } : IMPORTS).exports);
  stale = false;
}

/**
 * Start the decoder on the module `make()` answers (js/inline.js: the inlined bytes; js/init.js:
 * a precompiled module). Answers the HookwireStartError that every decode then throws, or null.
 */
export function load(make, needs) {
  try {
    if (typeof WebAssembly !== "object" || WebAssembly === null) {
      throw new Error("no WebAssembly global");
    }
    module = make();
    start();
    startFailure = null;
  } catch (cause) {
    const why = cause && cause.message ? cause.message : String(cause);
    startFailure = new Error(`hookwire: the ${FAMILY} decoder cannot start: ${why} (it needs ${needs})`, { cause });
    startFailure.name = "HookwireStartError";
  }
  return startFailure;
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
    // No key a decode names needs a JSON pointer escape (tests/generated.rs checks it).
    const path = key < 0 ? undefined : `/${SYMBOLS[key]}${index < 0 ? "" : `/${index}`}`;
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
  return { memoryBytes: memory.buffer.byteLength, tableSlots: table ? table.length : 0, handles: V.length };
}
