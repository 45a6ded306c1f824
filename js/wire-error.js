// The base class of every family's error: one class per realm, shared by every hookwire entry
// loaded in it (each entry is a self-contained file, so the class is kept under a registered
// symbol rather than in a module they would each copy). `family` and `code` are on every error.
const KEY = Symbol.for("hookwire.WireError");

class WireErrorBase extends Error {
  constructor(family, code, message, version, path, expected) {
    super(message);
    this.family = family;
    this.code = code;
    if (version !== undefined) this.version = version;
    if (path !== undefined) {
      this.path = path;
      this.expected = expected;
    }
  }
}
Object.defineProperty(WireErrorBase.prototype, "name", { value: "WireError", writable: true, configurable: true });

/** The base of every family's error class. */
export const WireError = globalThis[KEY] ?? (globalThis[KEY] = WireErrorBase);
