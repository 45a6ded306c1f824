// The JS half of the wasm decoders' host (src/hosts/wasm.rs), one for every family. Values
// never cross into wasm: they live in `V` and a decoder names them by index (a handle), so no
// wasm table, reference counting or drop glue is needed. One import call per question; keys and
// kind strings by index into the symbol table of the family being decoded (`state.F`, which
// js/decoder.js sets around a decode); every read that could throw (a getter, a proxy trap) is
// caught here and counted (`state.x`), and js/decoder.js compares the count before and after a
// decode, so a decode that hit one reports it instead of guessing. A decode holds values in `V`
// from `state.n` up and the decoder clears them afterwards (a nested decode, from a getter,
// stacks above and clears down to its own base).
//
// Reads see own properties only (an own getter is one; a value inherited from a prototype, such
// as a polluted Object.prototype.kind, is not), and no inherited setter ever runs on the objects
// the decoder builds (a key their prototype has is defined, not assigned).
import { ARRAY, ARRAY_OF_OBJECTS, BOOLEAN, KINDED_OBJECT, NULL, NUMBER, OBJECT, OTHER, STRING } from "hookwire:codes";
import { define, setPrototypeOf } from "./wire-error.js";

/**
 * The values of the decodes in progress, by handle. Its prototype is null, so storing a value
 * never meets an inherited setter (Array.prototype[0] can have one).
 */
export const V = setPrototypeOf([], null);
const hold = (v) => ((V[state.n] = v), state.n++);
/** The prototypes of the objects and arrays built here (`{}` and `[]`). */
const objectProto = Object.prototype;
const arrayProto = Object.getPrototypeOf([]);
/** The built-in own-key test, as it was when this module was evaluated (and faster to call than `Object.hasOwn`). */
const hasOwn = objectProto.hasOwnProperty;
/**
 * Set o[k] = v on an object built here, on Object.prototype: only a key that prototype has can
 * hit a setter (Object.prototype has no prototype, so its own keys are all it has), and such a
 * key is defined instead.
 */
const put = (o, k, v) => (hasOwn.call(objectProto, k) ? define(o, k, v) : (o[k] = v));
/** o[k] if it is o's own property, else undefined: an inherited property is never read (an inherited getter never runs). */
const own = (o, k) => (hasOwn.call(o, k) ? o[k] : undefined);
// The JSON type codes are the decoder's `Type` discriminants, generated from Rust: each family's
// tables carry the same `TYPE_CODES` (the build checks they agree and gives them as constants).
/** `t`'s code of v, or `other` for what JSON cannot hold (Array.isArray throws for a revoked proxy). */
const typeCode = (v, other, t = typeof v) =>
  v === null ? NULL : t === "object" ? (Array.isArray(v) ? ARRAY : OBJECT) : t === "boolean" ? BOOLEAN : t === "number" ? NUMBER : t === "string" ? STRING : other;

/**
 * What a decode shares with the imports: `F`, the family being decoded (its symbols `S` and
 * kinds `K`); `x`, how many reads failed; `n`, how many handles are in use (`V` is not truncated
 * between decodes: its slots are cleared, and it keeps its length to be filled again without
 * growing).
 */
export const state = { F: null, x: 0, n: 0 };

/**
 * The names of the decoders' imports (module "a") as src/hosts/wasm.rs declares them, in the order of
 * `host`: scripts/build-pkg.mjs renames each to its index here, so that one array serves every
 * family's module (an array of functions is the cheapest import object a fresh context makes).
 */
export const NAMES = /* @__PURE__ */ "memory type num get fields head which len objects at copy object array array1 symbol number push set".split(" ");

/**
 * The length of the array `a`: a valid array length, or a counted failure. Past 2^20
 * (1,048,576) the array's own keys must be able to back the length: a sparse array or a proxy
 * can claim any length up to 2^32 − 1 at no cost, and the loops over it (here and in the
 * declared-version checks) would then run, and hold handles, for billions of elements that
 * are not there. So no loop over an array runs more than 2^20 times beyond what the array holds;
 * such an array is refused as a value that cannot be read, whose detail names it.
 */
const lengthOf = (a) => {
  try {
    const n = a.length;
    if (n >>> 0 === n && (n <= 1 << 20 || Object.keys(a).length >= n)) return n;
  } catch {}
  state.x++;
  return 0;
};
/** len: the length of the array V[h] (lengthOf). */
const len = (h) => lengthOf(V[h]);
/**
 * The index of the first element of the array `a` that is not an own non-null, non-array object,
 * or -1 (reading it may throw); given a key `k`, also of the first such object that has `k` as
 * an own property.
 */
const firstNonObject = (a, k) => {
  const n = lengthOf(a);
  for (let i = 0; i < n; i++) {
    const x = own(a, i);
    if (typeof x !== "object" || x === null || Array.isArray(x) || (k && own(x, k) !== undefined)) return i;
  }
  return -1;
};

/**
 * The imports, by index (NAMES); the first is the memory of the instance being made. Each
 * function declares every parameter of its import's signature in src/hosts/wasm.rs, one its
 * question does not use included: V8 compiles a wasm-to-JS wrapper per signature and JS arity,
 * so a function that declared fewer would cost a fresh process a wrapper compile of its own
 * (scripts/build-pkg.mjs checks both the signatures and the arities).
 */
export const host = [
  null,
  /**
   * type: the JSON type of V[h] (its `TYPE_CODES` code), or 0 for what JSON cannot hold. Every non-null, non-array object is 6, a Date, a Map or a class instance
   * included: it is read by its own properties like any other, so without an own known `kind`
   * it is UNKNOWN_KIND. (Telling "plain" objects apart would take a prototype test, which values
   * from another realm such as a workflow's vm context fail, or a brand check per built-in; JSON
   * never carries these anyway.)
   */
  (h) => {
    try {
      return typeCode(V[h], 0);
    } catch {
      state.x++;
      return 0;
    }
  },
  /** num: a number's value, or NaN for anything else (the decoder asks the type only when it sees NaN). */
  (h, _b) => {
    const v = V[h];
    return typeof v === "number" ? v : NaN;
  },
  /** get: the handle of V[obj]'s own property F.S[key], or -1 when it is undefined, inherited or reading it threw. */
  (obj, key, _c) => {
    const o = V[obj];
    if (o === null || o === undefined) return -1;
    try {
      const v = own(o, state.F.S[key]);
      return v === undefined ? -1 : hold(v);
    } catch {
      state.x++;
      return -1;
    }
  },
  /**
   * fields: the own properties of V[obj] that the kind F.K[kind] keeps (its symbols after the
   * first), read at once: held at consecutive handles from `base`, answered as base × 2^24 plus
   * 3 bits per field: 0 absent (undefined, inherited, or reading it threw), 7 a value JSON cannot
   * hold, else `t`'s code. A field whose entry in F.K carries a check (256 × the check's number,
   * added to its symbol; the numbers are READ_CHECKS of the generated tables) is checked as it is
   * read: ARRAY_OF_OBJECTS, an array whose every element is an object; KINDED_OBJECT, an object
   * whose own `kind` is a string; one that fails is answered 7 (the decoder then asks its type).
   * The object `{kind, …}` of every field found, the decode's normalized output if the fields
   * pass, is held after them.
   */
  (obj, kind) => {
    const o = V[obj];
    const { S, K } = state.F;
    const keys = K[kind];
    const n = keys.length - 1;
    const base = state.n;
    // The slots are taken before any read: a getter that decodes stacks its handles above them.
    state.n = base + n + 1;
    // A kind with an output made as a literal (the family's `O`, js/turn-control-outputs.js)
    // makes it after the reads, in one literal; any other gets its output's keys added as they
    // are found.
    const literal = state.F.O?.[kind];
    const out = literal ? null : { kind: S[keys[0]] };
    let types = 0;
    for (let i = 0; i < n; i++) {
      const check = keys[i + 1] >> 8;
      const k = S[keys[i + 1] & 255];
      let v;
      let t = 0;
      try {
        v = own(o, k);
        if (v !== undefined) {
          t = typeCode(v, OTHER);
          if (check === ARRAY_OF_OBJECTS ? t === ARRAY && firstNonObject(v) >= 0 : check === KINDED_OBJECT && t === OBJECT && typeof own(v, S[1]) !== "string") t = OTHER;
        }
      } catch {
        state.x++;
        v = undefined;
        t = 0;
      }
      V[base + i] = v;
      if (t !== 0 && !literal) put(out, k, v);
      types |= t << (3 * i);
    }
    V[base + n] = literal ? literal(V, base, types) : out;
    return base * 16777216 + types;
  },
  /**
   * head: V[h]'s type code; for an object, also its own `version` (bits 3–4: absent 0, an
   * integer from 0 to 32767 1 — held in bits 16 and up —, another number 2, not a number 3) and
   * the symbol index + 1 of its own `kind` string (bits 5–15; 0 when none): what every decode
   * asks first, in one call.
   */
  (h) => {
    let answer = 0;
    try {
      const o = V[h];
      answer = typeCode(o, 0);
      if (answer === OBJECT) {
        const { S } = state.F;
        const version = own(o, S[0]);
        const kind = own(o, S[1]);
        // An integer from 0 to 32767 is itself masked to 15 bits (-0 too; NaN never).
        if (version !== undefined) answer |= typeof version !== "number" ? 24 : version === (version & 32767) ? 8 | (version << 16) : 16;
        if (typeof kind === "string") answer |= (S.indexOf(kind) + 1) << 5;
      }
    } catch {
      state.x++;
    }
    return answer;
  },
  /** which: the symbol index of the string V[h], or -1. */
  (h) => {
    const v = V[h];
    // A native search of a few dozen interned strings: no Map to build in every fresh context.
    return typeof v === "string" ? state.F.S.indexOf(v) : -1;
  },
  len,
  /**
   * objects: the index of the first element of the array V[h] that is not an own non-null,
   * non-array object, or -1. Given a key (its symbol; 0, `version`'s, for none), also of the
   * first that has the key as an own property, and 0 when a read threw, which is then not
   * counted: the decoder asks it before steps that make the same reads, and runs them when the
   * answer is not -1 (their reads count what fails).
   */
  (h, key, _c) => {
    try {
      return firstNonObject(V[h], key && state.F.S[key]);
    } catch {
      return key || state.x++, 0;
    }
  },
  /** at: the handle of the own element V[arr][i] (undefined for a hole, or when reading it threw). */
  (arr, i, _c) => {
    try {
      return hold(own(V[arr], i));
    } catch {
      state.x++;
      return hold(undefined);
    }
  },
  /**
   * copy: a shallow copy of V[h] (its own enumerable string-keyed properties, each read once), or
   * {} if copying threw. Each key is assigned to a fresh literal (defined where Object.prototype
   * has the key, so that an own "__proto__" key stays a key and no inherited setter runs): a
   * spread copy would be as correct, but V8 makes adding a key to a spread copy (the `version` a
   * step sets) cost several times the copy itself. Dry (a negative `h`, the handle's bitwise
   * not): whether V[~h] reads as its copy, nothing built: true (1) when every own property of it
   * is an enumerable string-keyed one (the values read as a copy reads them), else false — also
   * when a read threw, which is then not counted: the decoder asks it before steps that copy
   * V[~h], and runs them on a 0 (their reads count what fails).
   */
  (h) => {
    try {
      const src = V[h < 0 ? ~h : h];
      if (h < 0) return Object.values(src).length === Object.getOwnPropertyNames(src).length;
      const out = {};
      for (const k of Object.keys(src)) put(out, k, src[k]);
      return hold(out);
    } catch {
      return h < 0 ? 0 : (state.x++, hold({}));
    }
  },
  /** object */
  (_a) => {
    return hold({});
  },
  /** array */
  (_a) => {
    return hold([]);
  },
  /** array1 */
  (h) => {
    return hold([V[h]]);
  },
  /** symbol */
  (key) => {
    return hold(state.F.S[key]);
  },
  /** number */
  (n) => {
    return hold(n);
  },
  /**
   * push: V[h] appended to the array V[arr], built here. Assigning the index meets a setter, or
   * a read-only inherited index, only where a prototype of the array has that index: then it is
   * defined. While Array.prototype inherits from Object.prototype, `in` asks exactly those two
   * (neither is a proxy), and the array itself has no element at its length. Defining every
   * element made an array built element by element several times slower to build (a task
   * rewrite's decode spent about half of its time there).
   */
  (arr, h, _c) => {
    const a = V[arr];
    const i = a.length;
    if (Object.getPrototypeOf(arrayProto) !== objectProto || i in a) define(a, i, V[h]);
    else a[i] = V[h];
    return 0;
  },
  /** set */
  (obj, key, h) => (put(V[obj], state.F.S[key], V[h]), 0),
];

/** The import object of every decoder module and of the unpacker (js/unpack.wat imports "a" "0", the memory). */
export const IMPORTS = { a: host };
