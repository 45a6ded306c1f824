// The JS half of the wasm decoder's host (src/hosts/wasm.rs). Values never cross into wasm: they live
// in `V` and the decoder names them by index (a handle), so no wasm table, reference counting or
// drop glue is needed. One import call per question; keys and kind strings by index into the
// generated symbol table; every read that could throw (a getter, a proxy trap) is caught here and
// counted, and the package entry compares the count before and after a decode, so a decode that
// hit one reports it instead of guessing. A decode pushes onto `V` and the entry truncates it back
// afterwards (a nested decode, from a getter, stacks above and truncates to its own base).
//
// Reads see own properties only (an own getter is one; a value inherited from a prototype, such
// as a polluted Object.prototype.kind, is not), and no inherited setter ever runs on the objects
// the decoder builds (a key their prototype has is defined, not assigned).
import { KINDS, SYMBOLS, TYPE_CODES as T } from "hookwire:contract";
// Define o[k] as a plain data property (assigning could run an inherited setter).
import { define } from "./wire-error.js";

/**
 * The values of the decodes in progress, by handle. Its prototype is null, so storing a value
 * never meets an inherited setter (Array.prototype[0] can have one).
 */
export const V = Object.setPrototypeOf([], null);
let failures = 0;
const hold = (v) => ((V[V.length] = v), V.length - 1);
const failed = () => {
  failures++;
};
/** o[k] if it is o's own property, else undefined: one read, and an ownership check only when there is a value. */
const own = (o, k, v = o[k]) => (v === undefined || Object.hasOwn(o, k) ? v : undefined);

/**
 * The JSON type of V[h], by the codes generated from the decoder's `Type` (`TYPE_CODES`), or 0
 * for what JSON cannot hold.
 * Every non-null, non-array object is 6, a Date, a Map or a class instance included: it is read by
 * its own properties like any other, so without an own known `kind` it is UNKNOWN_KIND. (Telling
 * "plain" objects apart would take a prototype test, which values from another realm such as a
 * workflow's vm context fail, or a brand check per built-in; JSON never carries these anyway.)
 */
export function type(h) {
  try {
    return typeCode(V[h], 0);
  } catch {
    failed();
    return 0;
  }
}

const TYPES = { __proto__: null, boolean: T.boolean, number: T.number, string: T.string, object: T.object };
/** `type`'s code of v, or `other` for what JSON cannot hold (Array.isArray throws for a revoked proxy). */
const typeCode = (v, other) => (v === null ? T.null : typeof v === "object" && Array.isArray(v) ? T.array : (TYPES[typeof v] ?? other));

/** A number's value, or NaN for anything else (the decoder asks the type only when it sees NaN). */
export function num(h) {
  const v = V[h];
  return typeof v === "number" ? v : NaN;
}

/** The handle of V[obj]'s own property SYMBOLS[key], or -1 when it is undefined, inherited or reading it threw. */
export function get(obj, key) {
  const o = V[obj];
  if (o === null || o === undefined) return -1;
  try {
    const v = own(o, SYMBOLS[key]);
    return v === undefined ? -1 : hold(v);
  } catch {
    failed();
    return -1;
  }
}

/**
 * The own properties of V[obj] that the kind KINDS[kind] keeps (its symbols after the first), read at once: held at
 * consecutive handles from `base`, answered as base × 2^24 plus 3 bits per field: 0 absent
 * (undefined, inherited, or reading it threw), 7 a value JSON cannot hold, else `type`'s code.
 */
export function fields(obj, kind) {
  const o = V[obj];
  const keys = KINDS[kind];
  const base = V.length;
  let types = 0;
  for (let i = 1; i < keys.length; i++) {
    let v;
    let t = 0;
    try {
      v = own(o, SYMBOLS[keys[i]]);
      if (v !== undefined) t = typeCode(v, T.other);
    } catch {
      failed();
      v = undefined;
      t = 0;
    }
    V[base + i - 1] = v;
    types |= t << (3 * (i - 1));
  }
  return base * 16777216 + types;
}

/**
 * A new object `{kind, …}` with the values held from `base` whose bit is set in `present`,
 * under the keys of KINDS[kind]: a decode's normalized output, in one call.
 */
export function project(kind, base, present) {
  const keys = KINDS[kind];
  const out = { kind: SYMBOLS[keys[0]] };
  for (let i = 0; present >>> i !== 0; i++) {
    if (((present >>> i) & 1) === 0) continue;
    const k = SYMBOLS[keys[i + 1]];
    // Built here, on Object.prototype: only a key that prototype has can hit a setter.
    if (k in Object.prototype) define(out, k, V[base + i]);
    else out[k] = V[base + i];
  }
  return hold(out);
}

/** The symbol index of the string V[h], or -1. */
export function which(h) {
  const v = V[h];
  // A native search of a few dozen interned strings: no Map to build in every fresh context.
  return typeof v === "string" ? SYMBOLS.indexOf(v) : -1;
}

/**
 * The length of the array V[h]: a valid array length, or a counted failure. Past 2^20
 * (1,048,576) the array's own keys must be able to back the length: a sparse array or a proxy can
 * claim any length up to 2^32 − 1 at no cost, and the loops over it (here and in the
 * declared-version checks) would then run, and hold handles, for billions of elements that are
 * not there. So no loop over an array runs more than 2^20 times beyond what the array holds.
 */
export function len(h) {
  try {
    const a = V[h];
    const n = a.length;
    if (n >>> 0 === n && (n <= 1 << 20 || Object.keys(a).length >= n)) return n;
  } catch {}
  failed();
  return 0;
}

/** The index of the first element of the array V[h] that is not an own non-null, non-array object, or -1. */
export function objects(h) {
  const n = len(h);
  try {
    const a = V[h];
    for (let i = 0; i < n; i++) {
      const x = own(a, i);
      if (typeof x !== "object" || x === null || Array.isArray(x)) return i;
    }
    return -1;
  } catch {
    failed();
    return 0;
  }
}

/** The handle of the own element V[arr][i] (undefined for a hole, or when reading it threw). */
export function at(arr, i) {
  try {
    return hold(own(V[arr], i));
  } catch {
    failed();
    return hold(undefined);
  }
}

/**
 * A shallow copy of V[h] (its own enumerable string-keyed properties, each read once), or {} if
 * copying threw. Each key is assigned to a fresh literal (defined where Object.prototype has the
 * key, so that an own "__proto__" key stays a key and no inherited setter runs): a spread copy
 * would be as correct, but V8 makes adding a key to a spread copy (the `version` a step sets) cost
 * several times the copy itself.
 */
export function copy(h) {
  try {
    const src = V[h];
    const out = {};
    for (const k of Object.keys(src)) {
      if (k in Object.prototype) define(out, k, src[k]);
      else out[k] = src[k];
    }
    return hold(out);
  } catch {
    failed();
    return hold({});
  }
}

export const object = () => hold({});
export const array = () => hold([]);
export const array1 = (h) => hold([V[h]]);
export const symbol = (key) => hold(SYMBOLS[key]);
export const number = (n) => hold(n);
export function push(arr, h) {
  const a = V[arr];
  define(a, a.length, V[h]);
}
export function set(obj, key, h) {
  const k = SYMBOLS[key];
  // The object was built here, on Object.prototype: only a key that prototype has can hit a setter.
  if (k in Object.prototype) define(V[obj], k, V[h]);
  else V[obj][k] = V[h];
}

/** The failure count, to compare after a decode. */
export const mark = () => failures;
/** Whether a read failed since `m`; restores the count so a nested decode cannot leak. */
export function settle(m) {
  const failed = failures !== m;
  failures = m;
  return failed;
}
