// The JS half of the wasm decoder's host (src/wasm.rs). Values never cross into wasm: they live
// in `V` and the decoder names them by index (a handle), so no wasm table, reference counting or
// drop glue is needed. One import call per question; keys and kind strings by index into the
// generated symbol table; every read that could throw (a getter, a proxy trap) is caught here and
// counted, and the package entry compares the count before and after a decode, so a decode that
// hit one reports it instead of guessing. A decode pushes onto `V` and the entry truncates it back
// afterwards (a nested decode, from a getter, stacks above and truncates to its own base).
import { SYMBOLS } from "hookwire:contract";

const INDEX = new Map(SYMBOLS.map((s, i) => [s, i]));
/** The values of the decodes in progress, by handle. */
export const V = [];
let failures = 0;
const hold = (v) => V.push(v) - 1;
const failed = () => {
  failures++;
};

/** The JSON type of V[h]: 0 other, 1 null, 2 boolean, 3 number, 4 string, 5 array, 6 object. */
export function type(h) {
  const v = V[h];
  switch (typeof v) {
    case "object":
      if (v === null) return 1;
      try {
        return Array.isArray(v) ? 5 : 6;
      } catch {
        failed();
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
export const num = (h) => V[h];

/** The handle of V[obj][SYMBOLS[key]], or -1 when it is undefined or reading it threw. */
export function get(obj, key) {
  const o = V[obj];
  if (o === null || o === undefined) return -1;
  try {
    const v = o[SYMBOLS[key]];
    return v === undefined ? -1 : hold(v);
  } catch {
    failed();
    return -1;
  }
}

/** The symbol index of the string V[h], or -1. */
export function which(h) {
  const v = V[h];
  return typeof v === "string" ? INDEX.get(v) ?? -1 : -1;
}

/** The length of the array V[h]: a valid array length, or a counted failure (a proxy can claim any). */
export function len(h) {
  try {
    const n = V[h].length;
    if (typeof n === "number" && n >= 0 && n <= 0xffffffff && Math.floor(n) === n) return n;
  } catch {}
  failed();
  return 0;
}

/** The index of the first element of the array V[h] that is not a non-null, non-array object, or -1. */
export function objects(h) {
  const n = len(h);
  try {
    const a = V[h];
    for (let i = 0; i < n; i++) {
      const x = a[i];
      if (typeof x !== "object" || x === null || Array.isArray(x)) return i;
    }
    return -1;
  } catch {
    failed();
    return 0;
  }
}

/** The handle of V[arr][i] (undefined when reading it threw). */
export function at(arr, i) {
  try {
    return hold(V[arr][i]);
  } catch {
    failed();
    return hold(undefined);
  }
}

/**
 * A shallow copy of V[h], or {} if copying threw. Spread defines properties (Object.assign would
 * *set* them, and setting an own "__proto__" key would change the copy's prototype).
 */
export function copy(h) {
  try {
    return hold({ ...V[h] });
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
  V[arr].push(V[h]);
}
export function set(obj, key, h) {
  try {
    V[obj][SYMBOLS[key]] = V[h];
  } catch {
    failed();
  }
}

/** The failure count, to compare after a decode. */
export const mark = () => failures;
/** Whether a read failed since `m`; restores the count so a nested decode cannot leak. */
export function settle(m) {
  const failed = failures !== m;
  failures = m;
  return failed;
}
