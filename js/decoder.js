// The decoder core every decoder entry shares, for every family (js/session-inbox.js,
// js/turn-control.js): `family` makes a family's `decode`, which hands the value to the family's
// wasm module by handle and turns the codes the module leaves behind into the family's error (no
// string is formatted in wasm). The module is started synchronously by the start an entry gives
// (`load`: at import from js/inline.js, the inlined bytes — no fs, require, fetch, dynamic import
// or async init, so it runs inside a workflow sandbox, a fresh node:vm context per delivery — or
// from a precompiled module given to `init`, js/init.js). Bundled with both families, a bundler
// keeps one copy of this core (pkg/hookwire.mjs and pkg/turn-control.mjs import it).
//
// The codes and message templates are the same for every family: scripts/build-pkg.mjs checks
// that the generated tables agree and gives them once (hookwire:codes), with the details every
// family has alike (COMMON_DETAILS: the first ones, each followed by "|"; a family's tables keep
// the rest). Only an error needs them: the build packs them as text, split on "|" at the first
// error (MESSAGES holds each code's template at the code's index, its placeholders numbered
// {0}–{3}), so a fresh context that decodes without one never builds them.
import { CODES, COMMON_DETAILS, MESSAGES, NOT_OBJECT, UNREADABLE } from "hookwire:codes";
import { host, IMPORTS, state, V } from "./host.js";
import { fill, NativeError } from "./wire-error.js";

/** The pages of a decoder's memory (its import's minimum; scripts/build-pkg.mjs checks both modules). */
export const PAGES = 1;
/** A fresh memory of a decoder's size (js/inline.js unpacks the module in one). */
export const newMemory = () => new WebAssembly.Memory({ __proto__: null, initial: PAGES });
/** The codes and the message templates (each at its code's index, split), once parsed. */
let errors;

/**
 * The decoder of family `f` — its generated tables (`FAMILY`, `WIRE_VERSION`, `S` symbols, `K`
 * kinds with their fields' read checks, `DETAILS` as the build packs them: one string, the details
 * after the common ones, split on "|" at the first error; `O`, null or the outputs made as
 * literals, js/turn-control-outputs.js; and `X`, the name of its module's decode export) —
 * throwing an `ErrorClass` and nothing else. `ErrorClass(code, message, version, path,
 * expected)` must be a subclass of WireError whose constructor only calls
 * `super(f.FAMILY, code, …)`: a decode makes its error as an `Error` given WireError's fields
 * and ErrorClass's prototype (`fill`), which is the same object without a constructor call
 * between (constructing a subclass of `Error` makes its stack capture cost more; a test holds
 * every family's decode errors equal to the ones its class makes).
 */
export function family(f, ErrorClass) {
  // Each is set before it is read: `load` runs when an entry is imported, and sets `failure` to
  // an error or null (an error is the one truthy value it takes).
  let failure;
  let module;
  let wasm;
  /** The decode export of the current instance. */
  let run;
  /** The memory of the current instance, and the one its first instance takes. */
  let memory;
  let first;
  /** Whether something unwound through the instance: the next decode starts a fresh one. */
  let stale = false;
  /** How many decodes are running (a getter of a value being decoded may decode). */
  let running = 0;

  /** Instantiate the module (again, after an exception unwound through it and left it suspect). */
  function instantiate() {
    // The first instance takes the memory the start made (the inline entries unpacked the
    // module's text in it); a later one gets a fresh memory, so a decode still running on the
    // instance it replaces keeps its stack.
    memory = host[0] = first ?? newMemory();
    first = null;
    wasm = new WebAssembly.Instance(module, IMPORTS).exports;
    run = wasm[f.X];
    stale = false;
  }

  /** This family's details, once parsed. */
  let details;
  /**
   * The arguments of the error of code `c` (its index), about `version` (NaN: none); `where`,
   * the detail (its index) plus 256 × (1 + the symbol of the field it is at), `index` the element
   * there (-1: none), as the module answers them. The error itself is made where it is thrown:
   * each frame between adds to the stack an error captures.
   */
  const fail = (c, version, where, index) => {
    // Each template split on its braces: its text at the even places, the number of a
    // placeholder at the odd ones (scripts/build-pkg.mjs numbers them: version, current, path,
    // detail).
    const [codes, templates] = (errors ??= [CODES.split("|"), MESSAGES.split("|").map((t) => t.split(/[{}]/))]);
    const detail = (details ??= (COMMON_DETAILS + f.DETAILS).split("|"))[where & 255];
    const key = (where >> 8) - 1;
    // No key a decode names needs a JSON pointer escape (tests/generated.rs checks it).
    const path = key < 0 ? undefined : `/${f.S[key]}${index < 0 ? "" : `/${index}`}`;
    const fields = [version, f.WIRE_VERSION, path ?? "", detail];
    const text = templates[c].reduce((s, x, i) => s + (i & 1 ? fields[x] : x), "");
    // NaN (no version) is the one value not equal to itself.
    return [codes[c], text, version === version ? version : undefined, path, path && detail];
  };
  /** A value some read of which threw. */
  const unreadable = () => fail(NOT_OBJECT, NaN, UNREADABLE, -1);

  return {
    /**
     * Start the decoder on the module `make()` answers (with the memory its first instance takes,
     * if it made one): js/inline.js, the inlined bytes; js/init.js, a precompiled module.
     * Answers the HookwireStartError that every decode then throws, or null.
     */
    load(make, needs) {
      try {
        [module, first] = make();
        instantiate();
        failure = null;
      } catch (cause) {
        const why = cause?.message || String(cause);
        failure = new Error(`hookwire: the ${f.FAMILY} decoder cannot start: ${why} (it needs ${needs})`, { cause });
        failure.name = "HookwireStartError";
      }
      return failure;
    },

    decode(value) {
      if (failure) throw failure;
      /** The arguments of the error this decode throws. */
      let why;
      // Decodes nested in getters (even of the value itself) stop four deep: each level may read a
      // key more than once, so unbounded nesting would multiply the work at every level.
      if (running > 3) why = unreadable();
      else {
        if (stale) instantiate();
        // This decode's instance: errors are read from it even if a nested decode replaced it.
        const w = wasm;
        const go = run;
        const base = state.n;
        const failures = state.x;
        const was = state.F;
        state.F = f;
        let r = -2;
        running++;
        try {
          V[base] = value;
          state.n = base + 1;
          r = go(base);
        } catch {
          // Something unwound through the module (the stack ran out inside a getter, say): its
          // stack pointer cannot be trusted any more, so the next decode runs on a fresh instance
          // (not this one's callers: a decode that is still running keeps its own).
          stale = true;
        }
        running--;
        state.F = was;
        const out = V[r];
        // Release the values this decode held (a long walk's slots are given back).
        for (let i = base; i < state.n; i++) V[i] = undefined;
        if (state.n > 4096) V.length = base;
        state.n = base;
        // A read failed during this decode; the count is restored so a nested decode cannot leak.
        const failed = state.x !== failures;
        state.x = failures;
        if (!failed && r >= 0) return out;
        why = failed || r < -1 ? unreadable() : fail(w.c(), w.v(), w.e(), w.i());
      }
      // Made here, so that the stack it captures starts at this frame: an Error given WireError's
      // fields and ErrorClass's prototype (see above).
      throw fill(new NativeError(why[1]), f.FAMILY, why[0], why[2], why[3], why[4], ErrorClass.prototype);
    },
    /**
     * The decoder's own resources: wasm linear memory bytes, table slots (none: values travel as
     * handles), and the value handles held between decodes (always 0: a decode releases its
     * handles when it returns).
     */
    memoryStats() {
      if (failure) throw failure;
      return { memoryBytes: memory.buffer.byteLength, tableSlots: 0, handles: state.n };
    },
  };
}
