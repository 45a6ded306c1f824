// The base class of every family's error: one class per realm, shared by every hookwire entry
// loaded in it (a realm may load several copies: the self-contained CommonJS files, the ES
// modules over their shared core; so the class is kept under a registered
// symbol rather than in a module they would each copy). `family` and `code` are on every error.
const KEY = Symbol.for("hookwire.WireError");

/**
 * Own data properties, defined (an assignment could run a setter on Object.prototype), by a
 * descriptor without a prototype (one with Object.prototype would inherit a polluted `get`).
 */
export const define = (o, k, value) => Object.defineProperty(o, k, { __proto__: null, value, writable: true, enumerable: true, configurable: true });

class WireErrorBase extends Error {
  // Class fields are defined (own data properties, before the constructor's body runs), so
  // assigning them runs no setter; every error has the same own keys, `undefined` where a field
  // says nothing. (Defining a property on an error that captured its stack costs more than
  // making the error.)
  family;
  code;
  version;
  path;
  expected;
  constructor(family, code, message, version, path, expected) {
    super(message);
    this.family = family;
    this.code = code;
    this.version = version;
    this.path = path;
    this.expected = expected;
  }
}
Object.defineProperty(WireErrorBase.prototype, "name", { __proto__: null, value: "WireError", writable: true, configurable: true });

/** The base of every family's error class. */
export const WireError = globalThis[KEY] ?? (globalThis[KEY] = WireErrorBase);
