// The package's encoder entry (pkg/encoder.cjs): hookwire's native encoder and negotiation,
// compiled to wasm, for JS server and step code. Never import it from workflow code: the
// workflow-safe decoder is the package's main entry and does not grow by a byte because of this.
//
// A command crosses into wasm as a tape (src/surfaces/tape.rs), never as JSON text: this file
// writes it while it checks JSON-ness the way the contract says — keys whose value is undefined
// are dropped; NaN, ±Infinity, dates, maps, functions, symbols, bigints and cycles are INVALID,
// with a JSON pointer — and sets binary values (Uint8Array, ArrayBuffer, URL) aside where the
// contract allows them (the image/data of a message part), putting the very same objects back
// into the wire value. A wire value comes back as a tape too, turned into JS objects here (strings
// the command carried are its own strings again): no JSON text is written or parsed for a valid
// command. The module's other answers (refusals, negotiation) are JSON text, parsed here.
//
// `encode`, `negotiate` and `turnControl` throw (or reject with) the family's error and nothing
// else, whatever they are given: getters and proxy traps that throw, revoked proxies, objects
// lying about what they are, commands too deep for the stack or too long for a string. (Only a
// caller that leaves no stack to build an error gets the engine's RangeError.) Each property of a
// command is read once, and the module is instantiated afresh after anything unwinds through it.
import { __wbg_set_wasm, arena_blocks, encode_json, negotiate_json, tape_encode, tape_reserve, tape_target } from "hookwire:glue";
import { exportsOf, IMPORTS, WASM_BASE64 } from "hookwire:wasm";
import { HOOK_METADATA_KEY, SessionInboxWireError, WireError, WIRE_VERSION } from "./hookwire.cjs";
import { CAPABILITY_KEY, TurnControlWireError, WIRE_VERSION as TURN_CONTROL_WIRE_VERSION } from "./turn-control.cjs";
// The words of a tape (src/surfaces/tape.rs, generated; the answer's string words too), which the bundler writes in place.
import { FAMILIES, T_ARRAY, T_F64, T_FALSE, T_INT, T_KNOWN_STR, T_NEW_STR, T_NULL, T_NUMBER_TEXT, T_OBJECT, T_STR, T_TRUE } from "./encoder-contract.js";

export { HOOK_METADATA_KEY, SessionInboxWireError, TurnControlWireError, WireError, WIRE_VERSION };

/** What this entry knows of each family, generated from the Rust sources (js/encoder-contract.js). */
const INBOX = FAMILIES["session-inbox"];
const TURN = FAMILIES["turn-control"];
/** Per wire kind, a pattern of the places a command may hold binary data at (`*` = any index or key). */
const binaryPatterns = (family) =>
  Object.fromEntries(Object.entries(family.binary).map(([kind, places]) => [kind, new RegExp(`^(?:${places.map((p) => p.replaceAll("*", "[^/]+")).join("|")})$`)]));
const BINARY_PLACES = new Map([INBOX, TURN].map((f) => [f, binaryPatterns(f)]));

// The module's exports take the family by name, as `hookwire --family` does.
const inboxEncode = (command, target) => encode_json(INBOX.family, command, target);
const inboxNegotiate = (request) => negotiate_json(INBOX.family, request);
const turnEncode = (command, target) => encode_json(TURN.family, command, target);
const turnNegotiate = (request) => negotiate_json(TURN.family, request);

/**
 * A new array without a prototype (or `a`, its prototype removed): storing at any index of it,
 * past its end included, never meets a setter that an index on Array.prototype or
 * Object.prototype carries. The walk's own arrays are made so (and so are a few the answer
 * uses); having no methods, they are filled and joined by the array methods below, taken when
 * this module loads. The answer's item stack (`ITEMS`) is an ordinary array whose every index
 * is its own.
 */
function bare(a = []) {
  return Object.setPrototypeOf(a, null);
}
const { fill, join } = Array.prototype;
const defineProperty = Object.defineProperty;

const module = new WebAssembly.Module(Uint8Array.from(atob(WASM_BASE64), (c) => c.charCodeAt(0)));
let instance = null;
/** Per family, per instance: the module's number of each target text (`tape_target`). */
const tapeTargets = new Map();
/** The last target numbered (most calls name the one before's again). */
let lastTarget = { family: null, text: null, id: -1 };
/** The room the module made for a command's tape (`tape_reserve`): counts, and where each part goes. */
let room = { ops: -1, nums: -1, bytes: -1, at: 0, numsAt: 0, textAt: 0 };
/** A view of the room for the command's text (null until made for the room and memory of now). */
let textView = null;
/** The strings the module told this instance to keep (the answer's KNOWN_STR), by slot. */
const KNOWN = bare();
/** Whether something unwound through the instance: the next call starts a fresh one. */
let stale = false;

/**
 * Instantiate the module (again, after an exception or a trap left the old instance suspect).
 * Its start function (the externref table, then the tables the families' encoders keep) can run
 * out of stack too: everything this file knows of the old instance is dropped before it runs,
 * and the instance counts as started only once it has returned (else the next call starts over).
 */
function start() {
  const previous = instance;
  stale = true;
  instance = exportsOf(new WebAssembly.Instance(module, IMPORTS).exports);
  __wbg_set_wasm(instance);
  // The glue keeps a view of the memory and renews it only once that view's buffer is detached:
  // growing the old memory by nothing detaches it.
  previous?.memory.grow(0);
  // What the tape boundary knows of an instance starts over with it.
  tapeTargets.clear();
  lastTarget = { family: null, text: null, id: -1 };
  room = { ops: -1, nums: -1, bytes: -1, at: 0, numsAt: 0, textAt: 0 };
  textView = null;
  KNOWN.length = 0;
  instance.__wbindgen_start?.();
  stale = false;
}
start();

/**
 * Call into the module. Anything that unwinds through it — the stack running out in its
 * recursive JSON code, a trap — leaves its stack pointer and heap suspect, so the next call runs
 * on a fresh instance; the failure comes back as `{ thrown }`.
 */
function call(f, ...args) {
  try {
    if (stale) start();
    return { text: f(...args) };
  } catch (thrown) {
    stale = true;
    return { thrown };
  }
}

/**
 * How deep a command may nest: deeper is INVALID at the first place past the limit. The wasm
 * encoder reads a command's tape, validates, writes and drops it recursively on the caller's
 * stack (about 600 bytes a level), and 1,000 levels leave room for the caller's own frames in
 * Node's default stack of about 1 MB. A caller whose stack is nearly used up can still run out
 * below the limit (in the walk, the module or the making of the answer's objects): that too is
 * INVALID ("nested too deeply"), with the path of the deepest place reached. (The
 * native CLI reads up to 131,072 levels.)
 */
const MAX_DEPTH = 1000;
/**
 * How long a command's JSON text may be, in UTF-16 code units (2^27 = 134,217,728): longer is
 * INVALID at the place where the text crosses the limit. The wire value carries a send's payload
 * twice (the payload and its mirror), and its text must stay within the engine's longest string
 * (2^29 − 24 code units in V8).
 */
const MAX_TEXT = 2 ** 27;

const tag = (v) => Object.prototype.toString.call(v);
/** The real type name of a typed array of any realm (undefined for anything else), whatever its Symbol.toStringTag says. */
const typedArrayName = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
/** Whether a value is a typed array or a DataView (of any realm), asking it nothing. */
const isView = ArrayBuffer.isView;
/** Brand checks: these getters throw unless called on the real thing. */
const arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;
const urlHref = typeof URL === "function" ? Object.getOwnPropertyDescriptor(URL.prototype, "href")?.get : undefined;
const BINARY = new Set(["Uint8Array", "ArrayBuffer", "URL"]);
/** Tags an object may claim without being believed: what the encoder would treat specially. */
const PRETENCES = new Set(["Object", "Array", ...BINARY]);

function branded(getter, v) {
  try {
    getter.call(v);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the object `v` is, by what it is rather than by what it says: "Array", "Object" (an
 * object JSON can hold: its own enumerable keys are its content; class instances included),
 * "Uint8Array", "ArrayBuffer" or "URL" (binaries), or the name of anything else (INVALID). Dates,
 * regular expressions, errors and boxed primitives have a built-in tag; an object that claims a
 * tag (Map, Set, DataView, … or a plain object lying) is a binary if a brand check says so, and
 * INVALID otherwise, whatever the tag says.
 * An exotic object whose prototype was replaced by a plain one and that claims no tag is read as
 * an object (no side-effect-free brand check exists for every built-in).
 */
function classify(v) {
  if (Array.isArray(v)) return "Array";
  // (isView first: it answers most objects without a call to the typed arrays' getter.)
  const typed = isView(v) ? typedArrayName.call(v) : undefined;
  if (typed !== undefined) return typed;
  const full = tag(v);
  const claimed = v[Symbol.toStringTag];
  const proto = Object.getPrototypeOf(v);
  // The common case, without a brand check: no tag, and an Object.prototype (of any realm) or none.
  if (claimed === undefined && (proto === OBJECT_PROTOTYPE || proto === null || Object.getPrototypeOf(proto) === null)) {
    return full === "[object Object]" ? "Object" : full.slice(8, -1);
  }
  const builtin = full.slice(8, -1);
  if (branded(arrayBufferLength, v)) return "ArrayBuffer";
  if (urlHref !== undefined && branded(urlHref, v)) return "URL";
  if (claimed === undefined) return builtin;
  if (typeof claimed !== "string") return `an object whose Symbol.toStringTag is a ${typeof claimed}`;
  return PRETENCES.has(claimed) ? `an object whose Symbol.toStringTag claims ${claimed}` : claimed;
}

/** Whether `s` holds no unpaired UTF-16 surrogate. */
const wellFormed = String.prototype.isWellFormed;
const isWellFormed =
  typeof wellFormed === "function"
    ? (s) => wellFormed.call(s)
    : (s) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

/** A thrown value's message, without running anything that could throw again. */
function why(e) {
  try {
    return String(e instanceof Error ? e.message : e);
  } catch {
    return "an exception that cannot be printed";
  }
}

/**
 * Whether `e` is the engine running out of stack. No regular expression here: one compiled (or
 * recompiled) with the stack nearly used up throws a SyntaxError, which would be taken for the
 * value's own failure; a string search that runs out throws a RangeError, which the next level
 * out asks about again with more stack.
 */
const overflowed = (e) => e instanceof RangeError && why(e).toLowerCase().includes("call stack");

function wireError(error, ErrorClass = SessionInboxWireError) {
  return new ErrorClass(error.code, error.message, error.version, error.path, error.expected);
}

function invalid(path, expected, found, ErrorClass) {
  return wireError({ code: "INVALID", message: `invalid wire value at ${path || "the root"}: expected ${expected}, found ${found}`, path, expected }, ErrorClass);
}

/** The family's description of a command of `kind` that becomes another kind of wire value, if any (`kind` is what the command holds: anything). */
const commandOf = (family, kind) => (typeof kind === "string" && family.commands !== undefined && Object.hasOwn(family.commands, kind) ? family.commands[kind] : undefined);

/** The command's place of `path` in the wire value it becomes (a send's payload → payloads/0). */
function wirePath(family, kind, path) {
  const places = commandOf(family, kind)?.places;
  if (places === undefined) return path;
  for (const [from, to] of places) if (path === from || path.startsWith(`${from}/`)) return to + path.slice(from.length);
  return path;
}

/** Whether a command of `kind` may hold binary data at `path` (a part's image or data). */
function binaryPlace(family, kind, path) {
  const wireKind = commandOf(family, kind)?.becomes ?? kind;
  const patterns = BINARY_PLACES.get(family);
  return typeof wireKind === "string" && Object.hasOwn(patterns, wireKind) && patterns[wireKind].test(wirePath(family, kind, path));
}

const escape = (k) => k.replaceAll("~", "~0").replaceAll("/", "~1");
/** A character JSON.stringify escapes, or a UTF-16 surrogate (paired or not): a string without one is its own JSON text in quotes. */
const PLAIN_NOT = /[\u0000-\u001f"\\\ud800-\udfff]/;
const NESTED = `JSON nested at most ${MAX_DEPTH} levels deep, and no deeper than the stack left to the encoder allows`;
const LONG = `a command whose JSON text is at most ${MAX_TEXT} characters long`;

/**
 * A command, checked and written as a tape (src/surfaces/tape.rs), with binaries replaced by
 * tokens kept in `binaries`. Answers a `Walk`: `{ ops, n, nums, m, strs, text, binaries, token,
 * kind, trapped }`, with `field(key)` the command's own top-level value as read (each once), and
 * `trapped(e)` turning a failure of the module on this command into the family's error.
 *
 * The walk keeps the place it is at as a stack of keys and indexes and spells it as a JSON
 * pointer only when it needs one (a failure, a binary value): a valid command costs no path text.
 * Its state is one object and its steps are functions of this module, so a command costs no
 * closures; the objects being written (where a cycle would be) are a stack searched from the top.
 * It counts the length of the JSON text the command is (the limit is on that text), writing none.
 */
function commandTape(command, ErrorClass = SessionInboxWireError) {
  const w = new Walk(ErrorClass === SessionInboxWireError ? INBOX : TURN, ErrorClass);
  try {
    if (command === undefined) op(w, T_NULL);
    else write(w, command, 0);
  } catch (e) {
    release(w);
    throw isFailure(w, e) ? e : unreadable(w, e, "");
  }
  return w;
}


/** A spare set of tape buffers: a walk takes it (or new ones, when a getter encodes inside a walk) and gives it back. */
let spare = null;
function buffers() {
  const b = spare ?? { ops: new Int32Array(256), nums: new Float64Array(16), strs: bare(), at: bare(), deep: bare(), open: bare(), values: bare() };
  spare = null;
  return b;
}
function release(w) {
  if (w.buffers !== null) {
    // The objects a walk opened and the command's fields are not kept alive until the next one
    // (the places it used: one deep command must not make every later call clear 1,000).
    fill.call(w.buffers.open, null, 0, w.deepest + 1);
    fill.call(w.buffers.values, null, 0, w.keys === null ? 0 : w.keys.length);
    spare = w.buffers;
  }
  w.buffers = null;
}

// A walk's state is class fields: they are defined on it, so that no setter an Object.prototype
// carries runs for them (an assignment would).
class Walk {
  family;
  ErrorClass;
  buffers = buffers();
  /** The tape: its words (`n` of them) and numbers (`m`), its strings in order and as one text. */
  ops = this.buffers.ops;
  n = 0;
  nums = this.buffers.nums;
  m = 0;
  strs = this.buffers.strs;
  s = 0;
  text = "";
  /** The binaries set aside (made at the first one). */
  binaries = null;
  token = undefined;
  /** The command's own top-level keys and their values, as read (until the walk's buffers are released). */
  keys = null;
  values = this.buffers.values;
  kind = undefined;
  /** The place being written: object keys and array indexes from the root. */
  at = this.buffers.at;
  /** How many of `at`'s segments are the place: the depth being written, or one more (a member's). */
  top = 0;
  /** The objects and arrays being written, outermost first (a cycle is one of them again). */
  open = this.buffers.open;
  size = 0;
  /** Whether `size` counts every string with its escapes (else without: see UNESCAPED_UP_TO). */
  exact = false;
  /** The deepest place reached so far: its depth, and its segments (`at` as it was then). */
  deepest = 0;
  deep = this.buffers.deep;
  /** The error this walk refused its command with, once it has (told from what a getter throws). */
  failure = null;

  constructor(family, ErrorClass) {
    this.family = family;
    this.ErrorClass = ErrorClass;
  }

  /** The command's own top-level value under `key`, as read (undefined when it has none). */
  field(key) {
    const i = this.keys === null ? -1 : this.keys.indexOf(key);
    return i < 0 ? undefined : this.values[i];
  }

  /** The family's error for a failure of the module on this walk's command. */
  trapped(e) {
    return overflowed(e) ? tooDeep(this) : fail(this, "", "a command the encoder can process", `a failure of the encoder (${why(e)})`);
  }
}

/** A typed array twice as long as `a`, starting with its items. */
function grown(a) {
  const b = new a.constructor(a.length * 2);
  b.set(a);
  return b;
}

/** A word of the tape. */
function op(w, x) {
  if (w.n === w.ops.length) w.ops = w.buffers.ops = grown(w.ops);
  w.ops[w.n++] = x;
}

/** A number of the tape's list of doubles. */
function num(w, x) {
  if (w.m === w.nums.length) w.nums = w.buffers.nums = grown(w.nums);
  w.nums[w.m++] = x;
}

/** Two words of the tape. */
function op2(w, x, y) {
  if (w.n + 2 > w.ops.length) w.ops = w.buffers.ops = grown(w.ops);
  const ops = w.ops;
  ops[w.n] = x;
  ops[w.n + 1] = y;
  w.n += 2;
}

/** A string of the tape's list: its text after the others'. */
function listed(w, s) {
  w.strs[w.s++] = s;
  w.text += s;
}

/** A string of the tape: its length, and its text after the others'. */
function text(w, s) {
  op(w, s.length);
  w.strs[w.s++] = s;
  w.text += s;
}

function pointer(segments, length = segments.length) {
  let path = "";
  for (let i = 0; i < length; i++) {
    const s = segments[i];
    path += typeof s === "number" ? `/${s}` : `/${escape(s)}`;
  }
  return path;
}
const here = (w) => pointer(w.at, w.top);
/** Whether `e` is the walk's own failure (a getter may throw anything: null, or another walk's error). */
const isFailure = (w, e) => e instanceof WireError && e === w.failure;
const fail = (w, path, expected, found) => (w.failure = invalid(wirePath(w.family, w.kind, path), expected, found, w.ErrorClass));
const tooDeep = (w) => fail(w, pointer(w.deep, w.deepest), NESTED, `nesting on which the stack ran out, ${w.deepest} levels deep`);
const unreadable = (w, e, path) => (overflowed(e) ? tooDeep(w) : fail(w, path, "a readable value", `a value that threw while read (${why(e)})`));

function grow(w, n) {
  w.size += n;
  if (w.size > UNESCAPED_UP_TO && !w.exact) exactly(w);
  if (w.size > MAX_TEXT) throw fail(w, here(w), LONG, `a longer one (${w.size} characters by here)`);
}

/**
 * While the JSON text counted so far is at most this long with every string counted without
 * its escapes, it is at most MAX_TEXT long with them (JSON.stringify writes a character as six
 * at most): a walk counts strings so (`w.exact` false), and the length of a string's escapes
 * is found only past this point, where the limit may be crossed.
 */
const UNESCAPED_UP_TO = Math.floor(MAX_TEXT / 6);

/** Count the escapes of every string walked so far: from here on, the walk counts exactly. */
function exactly(w) {
  w.exact = true;
  for (let i = 0; i < w.s; i++) {
    const t = w.strs[i];
    if (PLAIN_NOT.test(t)) w.size += JSON.stringify(t).length - t.length - 2;
  }
}

/**
 * Check a string (a key or a value) and count its JSON text; `STR` and its text are the caller's
 * to write. Until the text counted nears the limit (`UNESCAPED_UP_TO`), a string is counted
 * without its escapes and only checked to be well-formed (`isWellFormed` answers a string
 * without two-byte characters at once).
 */
function string(w, s) {
  if (!w.exact) {
    w.size += s.length + 2;
    if (w.size <= UNESCAPED_UP_TO) {
      if (!isWellFormed(s)) throw fail(w, here(w), "a string without unpaired UTF-16 surrogates", "a string with one");
      return;
    }
    w.size -= s.length + 2;
    exactly(w);
  }
  grow(w, s.length + 2); // before JSON.stringify copies or escapes it
  // The common case: nothing to escape and no surrogate at all, so the JSON text is the string
  // in quotes (what JSON.stringify writes), and it is well-formed.
  if (!PLAIN_NOT.test(s)) return;
  // JSON text cannot carry an unpaired UTF-16 surrogate without altering it (a parser refuses
  // the \ud800 escape JSON.stringify writes): refuse it here, at its place.
  if (!isWellFormed(s)) throw fail(w, here(w), "a string without unpaired UTF-16 surrogates", "a string with one");
  let json;
  try {
    json = JSON.stringify(s);
  } catch (e) {
    if (overflowed(e)) throw e;
    throw fail(w, here(w), LONG, "a string whose escaped text is longer than the engine's longest string");
  }
  grow(w, json.length - s.length - 2);
}

/** The length of `String(n)` for an integer `n` of `i32` range. */
function intLength(n) {
  let sign = 0;
  if (n < 0) (n = -n), (sign = 1);
  return sign + (n < 10 ? 1 : n < 100 ? 2 : n < 1e3 ? 3 : n < 1e4 ? 4 : n < 1e5 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : n < 1e9 ? 9 : 10);
}

/** Whether `v`, to be written at `depth`, is one of the objects being written (its own ancestor: a cycle). */
function isOpen(w, v, depth) {
  const open = w.open;
  for (let i = depth - 1; i >= 0; i--) if (open[i] === v) return true;
  return false;
}

// Each failure is reported at the place `at` holds when it is thrown; a value that throws
// while read is reported at the innermost object or array being read (`at` cut back to it).
function write(w, v, depth) {
  switch (typeof v) {
    case "string":
      string(w, v);
      op2(w, T_STR, v.length);
      return listed(w, v);
    case "boolean":
      grow(w, v ? 4 : 5);
      return op(w, v ? T_TRUE : T_FALSE);
    case "number": {
      if ((v | 0) === v) {
        // A small integer (-0 included: String writes it as 0, as JSON.stringify does).
        grow(w, intLength(v));
        return op2(w, T_INT, v);
      }
      if (!Number.isFinite(v)) throw fail(w, here(w), "a finite number", String(v));
      // What JSON.stringify writes for a finite number.
      const json = String(v);
      grow(w, json.length);
      // An integer beyond 2^53 goes as that text, which the module parses as JSON text's number.
      if (Number.isInteger(v) && Math.abs(v) > 2 ** 53 && Math.abs(v) < 1e21) {
        op(w, T_NUMBER_TEXT);
        return text(w, json);
      }
      op(w, T_F64);
      return num(w, v);
    }
    case "object":
      break;
    default:
      throw fail(w, here(w), "a JSON value", typeof v);
  }
  if (v === null) {
    grow(w, 4);
    return op(w, T_NULL);
  }
  const at = w.at;
  if (depth > w.deepest) {
    const deep = w.deep;
    for (let i = 0; i < depth; i++) deep[i] = at[i];
    w.deepest = depth;
  }
  if (depth > MAX_DEPTH) throw fail(w, here(w), `JSON nested at most ${MAX_DEPTH} levels deep`, "deeper nesting");
  let what;
  try {
    what = classify(v);
  } catch (e) {
    throw unreadable(w, e, here(w));
  }
  if (what !== "Object" && what !== "Array") return special(w, v, what);
  if (isOpen(w, v, depth)) throw fail(w, here(w), "a JSON value", "a cycle");
  w.open[depth] = v;
  try {
    if (what === "Array") {
      const n = v.length;
      if (n >>> 0 !== n) throw fail(w, here(w), "a JSON value", "an array whose length is not an array length");
      grow(w, n === 0 ? 2 : n + 1); // the brackets and the commas between items
      op2(w, T_ARRAY, n);
      for (let i = 0; i < n; i++) {
        const x = v[i];
        at[depth] = i;
        w.top = depth + 1;
        if (x === undefined) throw fail(w, here(w), "a JSON value", "undefined");
        write(w, x, depth + 1);
        w.top = depth;
      }
      return;
    }
    const keys = Object.keys(v);
    const n = keys.length;
    // The command's own fields are all read first (its kind tells where binary data may be);
    // any other object's values are read as each is written, as JSON.stringify reads them.
    let values = null;
    if (depth === 0) {
      values = w.values;
      for (let i = 0; i < n; i++) values[i] = v[keys[i]];
      w.keys = keys;
      w.kind = w.field("kind");
    }
    grow(w, 2); // the braces (a member's colon and comma are counted with it)
    const count = w.n + 1;
    op2(w, T_OBJECT, 0); // then the count of keys written, once known
    let written = 0;
    for (let i = 0; i < n; i++) {
      const x = values === null ? v[keys[i]] : values[i];
      if (x === undefined) continue;
      const key = keys[i];
      string(w, key);
      // Listed before anything more is counted: a count that reaches the point where escapes
      // are counted (exactly) counts those of every string listed, this key's included.
      text(w, key);
      grow(w, written === 0 ? 1 : 2);
      at[depth] = key;
      w.top = depth + 1;
      write(w, x, depth + 1);
      w.top = depth;
      written++;
    }
    w.ops[count] = written;
  } catch (e) {
    // The walk's own failure goes on; anything else (a WireError a getter threw included) is the
    // value failing to be read.
    if (isFailure(w, e)) throw e;
    w.top = depth;
    throw unreadable(w, e, here(w));
  }
}

/** An object that is neither an array nor an object JSON can hold: a binary where one may be, else INVALID. */
function special(w, v, what) {
  if (!BINARY.has(what)) throw fail(w, here(w), "a JSON value", what);
  const path = here(w);
  if (!binaryPlace(w.family, w.kind, path)) throw fail(w, path, "a JSON value (binary data is allowed only as a part's image or data)", what);
  w.token ??= `\u0000hookwire-binary-${Math.random().toString(36).slice(2)}:`;
  const binaries = (w.binaries ??= bare());
  binaries[binaries.length] = v;
  const token = `${w.token}${binaries.length - 1}`;
  string(w, token);
  op(w, T_STR);
  text(w, token);
}

/** The JSON text of a walk's tape: what JSON.stringify writes for the command as it was read. */
function tapeText(w) {
  let i = 0;
  let s = 0;
  let m = 0;
  const next = () => {
    const x = w.ops[i++];
    switch (x) {
      case T_NULL:
        return "null";
      case T_FALSE:
        return "false";
      case T_TRUE:
        return "true";
      case T_INT:
        return String(w.ops[i++]);
      case T_F64:
        return String(w.nums[m++]);
      case T_NUMBER_TEXT:
        i++;
        return w.strs[s++];
      case T_STR:
        i++;
        return JSON.stringify(w.strs[s++]);
      case T_ARRAY: {
        const items = bare();
        for (let n = w.ops[i++]; n > 0; n--) items[items.length] = next();
        return `[${join.call(items, ",")}]`;
      }
      default: {
        const members = bare();
        for (let n = w.ops[i++]; n > 0; n--) {
          i++;
          const key = JSON.stringify(w.strs[s++]);
          members[members.length] = `${key}:${next()}`;
        }
        return `{${join.call(members, ",")}}`;
      }
    }
  };
  return next();
}

// The answer's side of the boundary.

const utf8In = new TextEncoder();
// A string the module made may start with U+FEFF (a mirror's messages joined): a byte order
// mark is text here, never dropped.
const utf8Out = new TextDecoder("utf-8", { ignoreBOM: true });
/** Views of the instance's memory, renewed when it grows. */
let mem = null;
let U8, I32, F64;
function views() {
  // A memory that grew, or an instance replaced (start() detaches the old memory), leaves the
  // views detached, and a detached view is 0 long: only then is the memory asked for its buffer.
  if (mem !== null && I32.length !== 0) return;
  const buffer = instance.memory.buffer;
  if (buffer !== mem) {
    mem = buffer;
    U8 = new Uint8Array(buffer);
    I32 = new Int32Array(buffer);
    F64 = new Float64Array(buffer);
    textView = null;
  }
}

/** The module's number for the target text `targetText` of `family` on this instance. */
function tapeTarget(family, targetText) {
  if (lastTarget.family === family && lastTarget.text === targetText) return lastTarget.id;
  let texts = tapeTargets.get(family);
  if (texts === undefined) tapeTargets.set(family, (texts = new Map()));
  let id = texts.get(targetText);
  if (id === undefined) {
    id = tape_target(family.family, targetText);
    if (texts.size < MAX_CHECKED_TARGETS) texts.set(targetText, id);
  }
  lastTarget = { family, text: targetText, id };
  return id;
}

/**
 * Encode a walked command for a target (its text, already checked) in the module: `{ ok }`, the
 * wire value, or the module's other answer, parsed; the family's error if the module failed.
 */
function runTape(w, targetText) {
  let answer;
  try {
    if (stale) start();
    const id = tapeTarget(w.family, targetText);
    const units = w.text.length;
    if (w.n > room.ops || w.m > room.nums || units * 3 > room.bytes) {
      const at = tape_reserve(w.n, w.m, units * 3) >>> 2;
      views();
      room = { ops: w.n, nums: w.m, bytes: units * 3, at: I32[at], numsAt: I32[at + 1], textAt: I32[at + 2] };
      textView = null;
    } else {
      views();
    }
    // Copied by a loop: a command's tape is short, and a view for `set` costs an object.
    const ops = w.ops;
    for (let i = 0, at = room.at >>> 2, n = w.n; i < n; i++) I32[at + i] = ops[i];
    for (let i = 0, at = room.numsAt >>> 3, m = w.m; i < m; i++) F64[at + i] = w.nums[i];
    if (textView === null) textView = U8.subarray(room.textAt, room.textAt + room.bytes);
    const written = units === 0 ? 0 : utf8In.encodeInto(w.text, textView).written;
    release(w);
    const h = tape_encode(id, w.n, w.m, written, written === units) >>> 2;
    views();
    if (I32[h + 6] !== 0) {
      room = { ops: -1, nums: -1, bytes: -1, at: 0, numsAt: 0, textAt: 0 };
      textView = null;
    }
    answer = I32[h] === 0 ? { ok: materialize(w.strs, I32[h + 1] >>> 2, I32[h + 3] >>> 3, I32[h + 4]) } : JSON.parse(utf8Out.decode(U8.subarray(I32[h + 4], I32[h + 4] + I32[h + 5])));
  } catch (thrown) {
    release(w);
    stale = true;
    throw w.trapped(thrown);
  }
  return answer;
}

// The materializer's state: the answer's words, numbers and new strings' bytes (positions in
// the views), and the command's strings. Arrays are built from a stack of their items (`ITEMS`,
// always packed, so storing into it never reaches a prototype), copied out by `slice` (which
// finds no `constructor` on it, so it asks no species for the copy); objects
// get their keys by assignment, or by definition where a prototype has the key: neither runs an
// inherited setter, as JSON.parse never does (short arrays are literals, which define theirs).
let OP = 0, FP = 0, BP = 0, STRS = null, TOP = 0;
/**
 * The item stack, `n` long: the items below TOP kept, the rest 0. Every index is its own, so
 * storing into it never reaches a prototype.
 */
const itemStack = (n) => defineProperty(Array.from({ length: n }, (_, i) => (i < TOP ? ITEMS[i] : 0)), "constructor", { __proto__: null, value: undefined });
let ITEMS = itemStack(256);
const OBJECT_PROTOTYPE = Object.prototype;

/** The wire value on the answer's tape, made of new objects (keys in their canonical order). */
function materialize(strs, ops, nums, bytes) {
  OP = ops;
  FP = nums;
  BP = bytes;
  STRS = strs;
  TOP = 0;
  try {
    return value();
  } finally {
    STRS = null;
    ITEMS.fill(0, 0, TOP);
  }
}

function value() {
  const x = I32[OP++];
  switch (x) {
    case T_NULL:
      return null;
    case T_FALSE:
      return false;
    case T_TRUE:
      return true;
    case T_INT:
      return I32[OP++];
    case T_F64:
      return F64[FP++];
    case T_ARRAY: {
      const n = I32[OP++];
      // Array literals define their elements too: the short arrays (most) need no stack.
      if (n === 0) return [];
      if (n === 1) return [value()];
      if (n === 2) {
        const first = value();
        return [first, value()];
      }
      const base = TOP;
      if (base + n > ITEMS.length) ITEMS = itemStack(2 * (base + n));
      TOP = base + n;
      for (let i = 0; i < n; i++) {
        const x = value(); // first: a nested array may replace ITEMS
        ITEMS[base + i] = x;
      }
      const items = ITEMS.slice(base, base + n);
      ITEMS.fill(0, base, base + n);
      TOP = base;
      return items;
    }
    case T_OBJECT: {
      const o = {};
      for (let n = I32[OP++]; n > 0; n--) {
        const x = I32[OP++];
        const k = x === T_STR ? STRS[I32[OP++]] : str(x);
        const v = value();
        if (k in OBJECT_PROTOTYPE) defineProperty(o, k, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
        else o[k] = v;
      }
      return o;
    }
    default:
      return str(x);
  }
}

function str(x) {
  if (x === T_STR) return STRS[I32[OP++]];
  if (x === T_KNOWN_STR) return KNOWN[I32[OP++]];
  const n = I32[OP++];
  const slot = I32[OP++];
  let s = "";
  for (let i = 0; i < n; i++) {
    const b = U8[BP + i];
    if (b > 127 || n > 32) {
      s = utf8Out.decode(U8.subarray(BP, BP + n));
      break;
    }
    s += String.fromCharCode(b);
  }
  BP += n;
  if (slot >= 0) {
    while (KNOWN.length < slot) KNOWN[KNOWN.length] = "";
    KNOWN[slot] = s;
  }
  return s;
}

/** Run a module export on JSON text: its parsed answer, or the family's error if it failed. */
function run(f, args, command) {
  const r = call(f, ...args);
  if ("thrown" in r) throw command.trapped(r.thrown);
  return JSON.parse(r.text);
}

/** The text of each family's default target, `{ version: <current> }`. */
const INBOX_CURRENT = JSON.stringify({ version: WIRE_VERSION });
const TURN_CURRENT = JSON.stringify({ version: TURN_CONTROL_WIRE_VERSION });

/** JSON text of a target or other option ("null" when it has none). */
function optionText(v) {
  try {
    return JSON.stringify(v) ?? "null";
  } catch {
    return "null";
  }
}

/**
 * The texts of the targets callers name, made once (so that the maps they key hash each once):
 * by version for `{ version }` (the versions a target may name, and a few more), and for
 * `{ version, variant }` by the variant and the keys' order.
 */
const VERSION_TEXTS = bare();
const VARIANT_TEXTS = new Map();
/** The target text `{"version":n}` (with `"variant":…` where `variant` is given), made once. */
function knownTarget(keys, version, variant) {
  if (keys.length === 1 && version < 64) return (VERSION_TEXTS[version] ??= `{"version":${version}}`);
  const name = `${keys.length === 1 ? "" : keys[0] === "version" ? "a" : "b"}${version}:${variant}`;
  let text = VARIANT_TEXTS.get(name);
  if (text === undefined) {
    const v = `"version":${version}`;
    text = keys.length === 1 ? `{${v}}` : keys[0] === "version" ? `{${v},"variant":"${variant}"}` : `{"variant":"${variant}",${v}}`;
    if (VARIANT_TEXTS.size < MAX_CHECKED_TARGETS) VARIANT_TEXTS.set(name, text);
  }
  return text;
}

/**
 * JSON text of a target: what `JSON.stringify` writes for it ("null" when it has none), each of
 * its properties read once and in the order `JSON.stringify` reads them (its `toJSON`, its own
 * enumerable keys, each key's value). The usual targets (`version`, and `variant` "deliver" or
 * "send", in an object whose prototype is `Object.prototype` or none) are written here without a
 * serializer; anything else by `JSON.stringify` of what was read, or of the target itself where it
 * is not such an object.
 */
function targetText(t) {
  if (t === null || typeof t !== "object") return optionText(t);
  try {
    // An array, a boxed primitive, an instance of a class: as JSON.stringify writes it (its
    // elements, or its primitive value, are not its own keys as read below).
    const proto = Object.getPrototypeOf(t);
    if ((proto !== OBJECT_PROTOTYPE && proto !== null) || Array.isArray(t)) return optionText(t);
    if (t.toJSON !== undefined) return optionText(t);
    const keys = Object.keys(t);
    const n = keys.length;
    if (n === 1 || n === 2) {
      const a = t[keys[0]];
      const b = n === 2 ? t[keys[1]] : undefined;
      const version = keys[0] === "version" ? a : b;
      const variant = keys[0] === "version" ? b : a;
      if (
        typeof version === "number" &&
        (version | 0) === version &&
        version >= 0 &&
        (n === 1 ? keys[0] === "version" : (keys[0] === "variant" || keys[1] === "variant") && (variant === "deliver" || variant === "send"))
      ) {
        return knownTarget(keys, version, variant);
      }
      const read = Object.create(null);
      read[keys[0]] = a;
      if (n === 2) read[keys[1]] = b;
      return optionText(read);
    }
    const read = Object.create(null);
    for (const k of keys) read[k] = t[k];
    return optionText(read);
  } catch {
    return "null";
  }
}

/** Put the set-aside binaries back, by reference (iteratively: the answer can be deep). */
function restore(root, binaries, token) {
  const todo = bare([root]);
  while (todo.length > 0) {
    const v = todo[todo.length - 1];
    todo.length--;
    for (const k of Object.keys(v)) {
      const x = v[k];
      if (typeof x === "string" && x.startsWith(token)) {
        const b = binaries[Number(x.slice(token.length))];
        // The answer comes from JSON.parse: an own "__proto__" key must stay a key.
        Object.defineProperty(v, k, { __proto__: null, value: b, writable: true, enumerable: true, configurable: true });
      } else if (x !== null && typeof x === "object") {
        todo[todo.length] = x;
      }
    }
  }
  return root;
}

/**
 * Encode a command for a target (default: the current version): build the complete v1 value,
 * validate it once, convert it down for a v0 target. Throws SessionInboxWireError (INVALID with
 * `path` and `expected`, or UNSUPPORTED_TARGET), and nothing else, for any input.
 *
 * Limits of the JS encoder (each INVALID with the path where it is crossed): a command nests at
 * most 1,000 levels deep (the native CLI reads up to 131,072), and less when the caller's stack
 * is nearly used up ("nested too deeply"); its JSON text is at most 2^27 (134,217,728) UTF-16
 * code units long. A hook a negotiation's lookup answers with metadata nested deeper than 1,000
 * levels is a failed lookup (LOOKUP_FAILED).
 */
/**
 * The target is checked before the command (contract §16): an unsupported target is
 * UNSUPPORTED_TARGET even when the command is also invalid. The module answers for the target
 * alone when asked to encode `null` (which it refuses as INVALID only once the target passed).
 */
function checkTarget(encodeText, targetText, ErrorClass) {
  // The module's answer for a target depends on its text alone: each is asked for once.
  if (lastChecked.encodeText === encodeText && lastChecked.text === targetText) return;
  const known = checkedTargets.get(encodeText)?.get(targetText);
  if (known !== undefined) {
    if (known !== null) throw wireError(known, ErrorClass);
    lastChecked = { encodeText, text: targetText };
    return;
  }
  const answer = run(encodeText, ["null", targetText], { trapped: (e) => invalid("", "a target", why(e), ErrorClass) });
  const refused = answer.error?.code === "UNSUPPORTED_TARGET" ? answer.error : null;
  let texts = checkedTargets.get(encodeText);
  if (texts === undefined) checkedTargets.set(encodeText, (texts = new Map()));
  if (texts.size < MAX_CHECKED_TARGETS) texts.set(targetText, refused);
  if (refused !== null) throw wireError(refused, ErrorClass);
}

/** Per encode export, the target texts already checked: null (supported) or the refusal. */
const checkedTargets = new Map();
/** The last target text found supported (most calls name the one before's again). */
let lastChecked = { encodeText: null, text: null };
/** How many target texts each export remembers (the targets are a handful; a caller that makes up new ones is asked about each). */
const MAX_CHECKED_TARGETS = 64;

export function encode(command, target) {
  // No target is the current version's, whose text is known.
  const text = target === undefined ? INBOX_CURRENT : targetText(target);
  checkTarget(inboxEncode, text, SessionInboxWireError);
  const c = commandTape(command);
  const answer = runTape(c, text);
  if (answer.error) throw wireError(answer.error);
  return c.binaries !== null ? restore(answer.ok, c.binaries, c.token) : answer.ok;
}

function badRequest(what, e, ErrorClass = SessionInboxWireError) {
  return wireError({ code: "INVALID_REQUEST", message: `${what} cannot be read as JSON (${why(e)})` }, ErrorClass);
}

/**
 * A bigint in a destination, as JSON text carries it to the module: an object naming it, which no
 * rule takes for a version, a session or a token, so that a receiver address holding one is
 * refused as the value it is (UNSUPPORTED_TARGET), as turn control refuses a bigint capability.
 */
const namedBigints = (_, v) => (typeof v === "bigint" ? { bigint: String(v) } : v);

/** One move of the negotiation state machine in wasm: the rules, counts and messages live there. */
function move(request, command) {
  let text;
  try {
    text = JSON.stringify(request);
  } catch (e) {
    throw badRequest("the negotiation request", e);
  }
  const answer = run(inboxNegotiate, [text], command);
  if (answer.error) throw wireError(answer.error);
  return answer;
}

/**
 * What the state machine is told a lookup found: a hook's fields, "none", or a failure. A hook
 * whose metadata nests deeper than a command may (MAX_DEPTH) is a failure: the module would run
 * out of stack on it, and the error would then blame the command.
 */
function found(hook) {
  if (hook === null || hook === undefined) return { hook: null };
  if (typeof hook !== "object") {
    // A JSON value the module refuses as a malformed hook; anything else (a function, a symbol,
    // a bigint, NaN, ±Infinity) JSON text would drop or write as null, "not found": refused here.
    if (typeof hook === "string" || typeof hook === "boolean" || (typeof hook === "number" && Number.isFinite(hook))) return { hook };
    return { failed: `the lookup answered ${typeof hook === "number" ? String(hook) : `a ${typeof hook}`}, not a hook` };
  }
  try {
    // (Its fields read below would all be absent: say what it is.)
    if (Array.isArray(hook)) return { failed: "the lookup answered an array, not a hook with a string token and runId" };
    const token = hook.token ?? null;
    const runId = hook.runId ?? null;
    const m = hook.metadata;
    // Metadata JSON cannot carry makes a malformed hook (a bigint anywhere in it throws here):
    // JSON text would drop a function or a symbol, or write null for it, "no metadata".
    const text = m === undefined || m === null ? "null" : JSON.stringify(m);
    if (text === undefined) return { failed: `the hook's metadata is ${typeof m === "object" ? "an object whose toJSON answers nothing" : `a ${typeof m}`}, which JSON cannot carry` };
    // As in a command, an object at depth MAX_DEPTH below the metadata's root is the deepest allowed.
    if (nestsDeeper(text, MAX_DEPTH + 1)) return { failed: `the hook's metadata nests more than ${MAX_DEPTH} levels deep` };
    const fields = { token, runId, metadata: JSON.parse(text) };
    JSON.stringify(fields);
    return { hook: fields };
  } catch (e) {
    return { failed: `reading the hook threw (${why(e)})` };
  }
}

/** Whether the JSON text `text` nests more than `depth` levels deep (brackets in strings skipped). */
function nestsDeeper(text, depth) {
  let level = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // a backslash: the next character is escaped
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++level > depth) return true;
    } else if (c === 125 || c === 93) level--;
  }
  return false;
}

/** The stable inbox token of a run (`template` defaults to `eve:session:{runId}:inbox`). */
export function stableInboxToken(runId, template = INBOX.stableInboxToken) {
  return template.replace("{runId}", runId);
}

/**
 * A write ceiling as the module reads it: absent is null; a number JSON cannot carry (NaN,
 * ±Infinity, which JSON text would turn into null, "no ceiling") is passed as its name, so that
 * the module refuses it like any other non-version (contract §16).
 */
const ceilingOf = (w) => (w === undefined || w === null ? null : typeof w === "number" && !Number.isFinite(w) ? String(w) : w);

/**
 * Choose the target a receiver understands (contract §12). `destination` is `{ token }` or
 * `{ address: { sessionId, version } }`; `lookup(token)` is the caller's getHookByToken (sync or
 * async): a hook, or null/undefined when there is none. A lookup that throws or rejects refuses
 * with LOOKUP_FAILED. Resolves to `{ target, lookups, resume }`, where `resume` is `{ hook }` —
 * the inspected hook object to resume — or `{ token }` on the zero-lookup paths. This function
 * only performs the lookups the wasm state machine asks for; every rule is in Rust. Rejects with
 * SessionInboxWireError only (the command's limits are encode's).
 */
export async function negotiate(command, destination, lookup, options = {}) {
  const c = commandTape(command);
  const commandJson = tapeText(c);
  // The negotiation outlives the walk's buffers (a lookup may encode, or another negotiation
  // run): it keeps its own copy of the deepest place the walk reached, which an error names.
  const deep = bare();
  for (let i = 0; i < c.deepest; i++) deep[i] = c.deep[i];
  c.deep = deep;
  release(c);
  let request;
  let named;
  try {
    // The destination as JSON text carries it (read once, here), a bigint in it named.
    const text = JSON.stringify(destination, namedBigints);
    named = text === undefined ? undefined : JSON.parse(text);
  } catch (e) {
    throw badRequest("the negotiation request", e);
  }
  try {
    request = {
      start: {
        command: JSON.parse(commandJson),
        destination: named,
        writeAtMost: ceilingOf(options?.writeAtMost),
        stableInboxToken: options?.stableInboxToken ?? null,
      },
    };
  } catch (e) {
    throw badRequest("the negotiation options", e);
  }
  let answer = move(request, c);
  let inspected;
  let lookups = 0;
  while (answer.lookup !== undefined) {
    let hook;
    let result;
    try {
      hook = await lookup(answer.lookup);
      result = found(hook);
    } catch (e) {
      result = { failed: `the lookup threw (${why(e)})` };
    }
    if (++lookups === 1) inspected = hook;
    answer = move({ resume: answer.state, answer: result }, c);
  }
  const { target, resume } = answer.ok;
  return { target, lookups: answer.ok.lookups, resume: answer.ok.lookups > 0 ? { hook: inspected } : { token: resume.token } };
}

/**
 * Turn control (contract §14), for the turn workflow: `encode(command, target)` writes the value
 * for `{ version: 1 }` (default) or `{ version: 0 }` (a driver without the capability), with the
 * command's own `action` object in it (passed through by reference, never rebuilt: the very
 * object that was checked); `negotiate(capabilities, { writeAtMost })` is the pure choice of
 * target from the driver's capabilities (no lookups). Both throw TurnControlWireError, and
 * nothing else; commands have encode's limits.
 */
export const turnControl = {
  WIRE_VERSION: TURN_CONTROL_WIRE_VERSION,
  encode(command, target) {
    const text = target === undefined ? TURN_CURRENT : targetText(target);
    checkTarget(turnEncode, text, TurnControlWireError);
    const c = commandTape(command, TurnControlWireError);
    // Read before the walk's buffers go back (runTape releases them).
    const action = c.field("action");
    const answer = runTape(c, text);
    if (answer.error) throw wireError(answer.error, TurnControlWireError);
    if (answer.ok.kind === "turn-result") answer.ok.action = action;
    return answer.ok;
  },
  negotiate(capabilities, options = {}) {
    // Only the capability itself is read (once, own property only), and handed to the module as
    // the JSON value it is, so that its refusal says what the CLI's says. Present and not a value
    // JSON can carry (a bigint, a function, NaN, a getter that throws, …) is refused like any
    // other non-version, never taken for absent; a capability that is undefined is absent, as an
    // undefined field is everywhere. Capabilities that are not an object count as absent (§16).
    let caps = null;
    try {
      if (capabilities !== null && typeof capabilities === "object" && !Array.isArray(capabilities)) {
        const n = Object.hasOwn(capabilities, CAPABILITY_KEY) ? capabilities[CAPABILITY_KEY] : undefined;
        const json = n === null || typeof n === "string" || typeof n === "boolean" || typeof n === "object" || (typeof n === "number" && Number.isFinite(n));
        const named = typeof n === "number" || typeof n === "bigint" ? `${typeof n} ${String(n)}` : typeof n;
        caps = n === undefined ? {} : JSON.parse(JSON.stringify({ [CAPABILITY_KEY]: json ? n : named }));
      }
    } catch (e) {
      throw wireError({ code: "UNSUPPORTED_TARGET", message: `driver capability ${CAPABILITY_KEY} cannot be read (${why(e)}); nothing was written` }, TurnControlWireError);
    }
    let text;
    try {
      text = JSON.stringify({ capabilities: caps, writeAtMost: ceilingOf(options?.writeAtMost) });
    } catch (e) {
      throw badRequest("the options", e, TurnControlWireError);
    }
    const c = { trapped: (e) => invalid("", "capabilities the encoder can process", `a failure of the encoder (${why(e)})`, TurnControlWireError) };
    const answer = run(turnNegotiate, [text], c);
    if (answer.error) throw wireError(answer.error, TurnControlWireError);
    return answer.ok.target;
  },
};
/**
 * The encoder module's own memory: its linear memory in bytes, and the blocks of its per-call
 * arena held between calls (0: a call gives back every block it took, so the next one starts
 * the arena over; what the module keeps for good, it makes outside the arena).
 */
export function memoryStats() {
  if (stale) start();
  return { memoryBytes: instance.memory.buffer.byteLength, arenaBlocks: arena_blocks() };
}
export { encoderSchema } from "./encoder-schema.js";
