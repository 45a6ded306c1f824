// The base class of every family's error: one class per realm, shared by every hookwire entry
// loaded in it (a realm may load several copies: the self-contained CommonJS files, the ES
// modules over their shared core; so the class is kept under a registered
// symbol rather than in a module they would each copy). `family` and `code` are on every error.
const KEY = Symbol.for("hookwire.WireError");

/** Own data properties, defined (an assignment could run a setter on Object.prototype). */
export const define = (o, k, value) => Object.defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });

/** The constructor's parameters, by position. */
const FIELDS = "family code message version path expected".split(" ");

class WireErrorBase extends Error {
  constructor(family, code, message, version, path, expected) {
    super(message);
    // Every field but the message (Error's own), in this order, when it is not undefined.
    for (let i = 0; i < 6; i++) if (i !== 2 && arguments[i] !== undefined) define(this, FIELDS[i], arguments[i]);
  }
}
Object.defineProperty(WireErrorBase.prototype, "name", { value: "WireError", writable: true, configurable: true });

/** The base of every family's error class. */
export const WireError = globalThis[KEY] ?? (globalThis[KEY] = WireErrorBase);
