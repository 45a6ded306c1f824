// The base class of every family's error: one class per realm, shared by every hookwire entry
// loaded in it (each entry is a self-contained file, so the class is kept under a registered
// symbol rather than in a module they would each copy). `family` and `code` are on every error.
const KEY = Symbol.for("hookwire.WireError");

/** Own data properties, defined (an assignment could run a setter on Object.prototype). */
export const define = (o, k, value) => Object.defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });

class WireErrorBase extends Error {
  constructor(family, code, message, version, path, expected) {
    super(message);
    const fields = { family, code, version, path, expected };
    for (const k of Object.keys(fields)) if (fields[k] !== undefined) define(this, k, fields[k]);
  }
}
Object.defineProperty(WireErrorBase.prototype, "name", { value: "WireError", writable: true, configurable: true });

/** The base of every family's error class. */
export const WireError = globalThis[KEY] ?? (globalThis[KEY] = WireErrorBase);
