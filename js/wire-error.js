// The base class of every family's error, and each family's class: one class per realm, shared by
// every hookwire entry loaded in it (a realm may load several copies: the self-contained CommonJS
// files, the ES modules over their shared core; so each class is kept under a registered symbol
// rather than in a module they would each copy). `family` and `code` are on every error.
/**
 * Own data properties, defined (an assignment could run a setter on Object.prototype), by a
 * descriptor without a prototype (one with Object.prototype would inherit a polluted `get`).
 * Answers whether the property was defined (false, without throwing, on an object that takes no
 * new property).
 */
export const define = (o, k, value) => Reflect.defineProperty(o, k, { __proto__: null, value, writable: true, enumerable: true, configurable: true });

/** The class `c`, its errors named `name` (non-enumerable on its prototype, as Error.prototype's `name` is). */
const named = (c, name) => (Object.defineProperty(c.prototype, "name", { __proto__: null, value: name, writable: true, configurable: true }), c);

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
named(WireErrorBase, "WireError");

/**
 * The realm's class `hookwire.<name>`, kept on globalThis under its registered symbol: the one a
 * hookwire entry loaded earlier in this realm made, if what is kept there is a class derived
 * from `base` (anything else, a value a script stored there say, is not taken), or else the one
 * `make` makes, kept by a definition, which no setter sees. Where globalThis takes no new
 * property (frozen), `define` answers false and the class made stays this entry's own.
 * (`key` and `found` are locals, written as default parameters: fewer bytes in every entry.)
 */
const shared = (name, base, make, key = Symbol.for(`hookwire.${name}`), found = realm[key]) =>
  found?.prototype instanceof base ? found : (define(realm, key, (found = make())), found);
/** The global object of the realm this module is evaluated in. */
const realm = globalThis;

/** The base of every family's error class. */
export const WireError = shared("WireError", Error, () => WireErrorBase);

/**
 * The error class of the family `family`, named `name` (from its generated tables): one per realm
 * like WireError, so that an error any entry throws — the decoder's CommonJS entry, its ES module,
 * the encoder — is an instance of the class every other entry exports.
 */
export const familyError = (family, name) =>
  shared(name, WireError, () =>
    named(
      class extends WireError {
        constructor(code, message, version, path, expected) {
          super(family, code, message, version, path, expected);
        }
      },
      name,
    ),
  );
