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

/** The realm's `Object.setPrototypeOf` and `Error`, as they were when this module was evaluated. */
export const setPrototypeOf = Object.setPrototypeOf;
export const NativeError = Error;

/**
 * `error` given WireError's fields, in their order, then `prototype`: the fields are assigned
 * while it has no prototype, so no setter can run, and it keeps the stack it captured. A decode
 * makes its error so, from an `Error` made in its own frame: constructing a subclass of `Error`
 * costs the stack's capture about a fifth more.
 */
export const fill = (error, family, code, version, path, expected, prototype) => (
  setPrototypeOf(error, null),
  (error.family = family),
  (error.code = code),
  (error.version = version),
  (error.path = path),
  (error.expected = expected),
  setPrototypeOf(error, prototype)
);

/** The class `c`, its errors named `name` (non-enumerable on its prototype, as Error.prototype's `name` is). */
const named = (c, name) => (Object.defineProperty(c.prototype, "name", { __proto__: null, value: name, writable: true, configurable: true }), c);

// Every error has the same own keys, `undefined` where a field says nothing, assigned by `fill`
// (defining a property on an error that captured its stack costs more than making the error).
class WireErrorBase extends NativeError {
  constructor(family, code, message, version, path, expected) {
    super(message);
    fill(this, family, code, version, path, expected, new.target.prototype);
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
export const WireError = shared("WireError", NativeError, () => WireErrorBase);

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
