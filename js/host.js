// The JS half of the wasm decoder's host (src/wasm.rs): one import call per question, keys and
// kind strings by index into the generated symbol table, and every read that could throw (a
// getter, a proxy trap) caught here. A caught throw is counted; the wasm side compares the count
// before and after a decode, so a decode that hit one reports it instead of guessing.
import { SYMBOLS } from "./contract.js";

const INDEX = new Map(SYMBOLS.map((s, i) => [s, i]));
let failures = 0;

/** The JSON type of v: 0 other, 1 null, 2 boolean, 3 number, 4 string, 5 array, 6 object. */
export function type(v) {
  switch (typeof v) {
    case "object":
      if (v === null) return 1;
      try {
        return Array.isArray(v) ? 5 : 6;
      } catch {
        failures++;
        return 0;
      }
    case "boolean":
      return 2;
    case "number":
      return 3;
    case "string":
      return 4;
    default:
      return 0;
  }
}

/** A number's value (asked only of numbers). */
export const num = (v) => v;

/** obj[SYMBOLS[key]], or undefined if reading it threw. */
export function get(obj, key) {
  try {
    return obj[SYMBOLS[key]];
  } catch {
    failures++;
    return undefined;
  }
}

/** The symbol index of the string v, or -1. */
export const which = (v) => (typeof v === "string" ? INDEX.get(v) ?? -1 : -1);

/** The length of the array a: a valid array length, or a counted failure (a proxy can claim any). */
export function len(a) {
  try {
    const n = a.length;
    if (typeof n === "number" && n >= 0 && n <= 0xffffffff && Math.floor(n) === n) return n;
  } catch {}
  failures++;
  return 0;
}

/** The index of the first element of the array a that is not a non-null, non-array object, or -1. */
export function objects(a) {
  const n = len(a);
  try {
    for (let i = 0; i < n; i++) {
      const x = a[i];
      if (typeof x !== "object" || x === null || Array.isArray(x)) return i;
    }
    return -1;
  } catch {
    failures++;
    return 0;
  }
}

/** a[i], or undefined if reading it threw. */
export function at(a, i) {
  try {
    return a[i];
  } catch {
    failures++;
    return undefined;
  }
}

export const array = () => [];
export function push(a, v) {
  a.push(v);
}

/**
 * A shallow copy, or {} if copying threw. Spread defines properties (Object.assign would *set*
 * them, and setting an own "__proto__" key would change the copy's prototype).
 */
export function copy(obj) {
  try {
    return { ...obj };
  } catch {
    failures++;
    return {};
  }
}

export const object = () => ({});
export const array1 = (v) => [v];
export const symbol = (key) => SYMBOLS[key];
export function set(obj, key, v) {
  obj[SYMBOLS[key]] = v;
}

/** The failure count, to compare after a decode. */
export const mark = () => failures;
/** Whether a read failed since `m`; restores the count so a nested decode cannot leak. */
export function settle(m) {
  const failed = failures !== m;
  failures = m;
  return failed;
}
