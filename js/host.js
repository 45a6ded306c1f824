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

/** Whether every element of the array a is a non-null, non-array object. */
export function objects(a) {
  try {
    for (let i = 0, n = a.length; i < n; i++) {
      const x = a[i];
      if (typeof x !== "object" || x === null || Array.isArray(x)) return false;
    }
    return true;
  } catch {
    failures++;
    return false;
  }
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
