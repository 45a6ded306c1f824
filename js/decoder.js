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
// that the generated tables agree and gives them once (hookwire:codes). Only an error needs them,
// and a family's details: the build packs the three as text, split on "|" at the first error
// (MESSAGES holds each code's template at the code's index), so a fresh context that decodes
// without one never builds them.
import { CODES, MESSAGES } from "hookwire:codes";
import { host, IMPORTS, state, typeCodes, V } from "./host.js";

/** The pages of a decoder's memory (its import's minimum; scripts/build-pkg.mjs checks both modules). */
export const PAGES = 2;
/** The codes and message templates, once parsed. */
let errors = null;
function errorTables() {
  const codes = CODES.split("|");
  const templates = MESSAGES.split("|");
  return { codes, messages: Object.fromEntries(codes.map((code, i) => [code, templates[i]])) };
}

/**
 * The decoder of family `f` — its generated tables (`FAMILY`, `WIRE_VERSION`, `S` symbols, `K`
 * kinds, `T` the JSON type codes, `DETAILS` as the build packs them: one string, split on "|" at the first error) and `X`,
 * the name of its module's decode export — throwing `ErrorClass(code, message, version, path,
 * expected)` and nothing else.
 */
export function family(f, ErrorClass) {
  typeCodes(f.T);
  let failure = null;
  let module = null;
  let wasm = null;
  /** The memory of the current instance, and the one its first instance takes. */
  let memory = null;
  let first = null;
  /** Whether something unwound through the instance: the next decode starts a fresh one. */
  let stale = false;
  /** How many decodes are running (a getter of a value being decoded may decode). */
  let running = 0;

  /** Instantiate the module (again, after an exception unwound through it and left it suspect). */
  function instantiate() {
    // The first instance takes the memory the start made (the inline entries unpacked the
    // module's text in it); a later one gets a fresh memory, so a decode still running on the
    // instance it replaces keeps its stack.
    memory = host[0] = first ?? new WebAssembly.Memory({ initial: PAGES });
    first = null;
    wasm = new WebAssembly.Instance(module, IMPORTS).exports;
    stale = false;
  }

  /** This family's details, once parsed. */
  let details = null;
  const detailOf = (what) => (details ??= f.DETAILS.split("|"))[what];
  const message = (code, version, detail, path) =>
    (errors ??= errorTables()).messages[code]
      .replace("{version}", String(version))
      .replace("{current}", String(f.WIRE_VERSION))
      .replace("{path}", path)
      .replace("{detail}", detail);
  const unreadable = () => new ErrorClass("NOT_OBJECT", message("NOT_OBJECT", NaN, detailOf(7), ""));

  return {
    /**
     * Start the decoder on the module `make()` answers (with the memory its first instance takes,
     * if it made one): js/inline.js, the inlined bytes; js/init.js, a precompiled module.
     * Answers the HookwireStartError that every decode then throws, or null.
     */
    load(make, needs) {
      try {
        if (typeof WebAssembly !== "object" || WebAssembly === null) {
          throw new Error("no WebAssembly global");
        }
        [module, first] = make();
        instantiate();
        failure = null;
      } catch (cause) {
        const why = cause && cause.message ? cause.message : String(cause);
        failure = new Error(`hookwire: the ${f.FAMILY} decoder cannot start: ${why} (it needs ${needs})`, { cause });
        failure.name = "HookwireStartError";
      }
      return failure;
    },

    decode(value) {
      if (failure !== null) throw failure;
      // Decodes nested in getters (even of the value itself) stop four deep: each level may read a
      // key more than once, so unbounded nesting would multiply the work at every level.
      if (running > 3) throw unreadable();
      if (stale) instantiate();
      // This decode's instance: errors are read from it even if a nested decode replaced it.
      const w = wasm;
      const base = V.length;
      const failures = state.x;
      const was = state.F;
      state.F = f;
      let r = -2;
      running++;
      try {
        V[base] = value;
        r = w[f.X](base);
      } catch {
        // Something unwound through the module (the stack ran out inside a getter, say): its stack
        // pointer cannot be trusted any more, so the next decode runs on a fresh instance (not
        // this one's callers: a decode that is still running keeps its own).
        stale = true;
      }
      running--;
      state.F = was;
      const out = V[r];
      V.length = base;
      // A read failed during this decode; the count is restored so a nested decode cannot leak.
      const failed = state.x !== failures;
      state.x = failures;
      if (failed || r < -1) throw unreadable();
      if (r >= 0) return out;
      const code = (errors ??= errorTables()).codes[w.c()];
      const version = w.v();
      const where = w.e();
      const detail = detailOf(where & 255);
      const key = (where >> 8) - 1;
      const index = w.i();
      // No key a decode names needs a JSON pointer escape (tests/generated.rs checks it).
      const path = key < 0 ? undefined : `/${f.S[key]}${index < 0 ? "" : `/${index}`}`;
      throw new ErrorClass(code, message(code, version, detail, path ?? ""), Number.isNaN(version) ? undefined : version, path, path && detail);
    },
    /**
     * The decoder's own resources: wasm linear memory bytes, table slots (none: values travel as
     * handles), and the value handles held between decodes (always 0: a decode releases its
     * handles when it returns).
     */
    memoryStats() {
      if (failure !== null) throw failure;
      return { memoryBytes: memory.buffer.byteLength, tableSlots: 0, handles: V.length };
    },
  };
}
