// Turn control (contract §14, §15) decoded by each contender: hookwire's pkg/ entry, and the same
// decode written in plain JS, with zod 4, zod/mini and valibot as a user would (the version rules
// and the 0→1 step in code, the kinds and their envelope checks as schemas, then the projection).
import * as z from "zod";
import * as zm from "zod/mini";
import * as v from "valibot";
import { decode as wasm } from "../../pkg/turn-control.cjs";
import { isObject, WireError } from "./steps.mjs";

const CURRENT = 1;
/** The fields each kind keeps. */
const FIELDS = {
  "turn-result": ["action", "bufferedDeliveries"],
  "turn-error": ["error"],
  "turn-continuation-token": ["continuationToken"],
  "turn-delivery-request": ["continuationToken", "inboxToken", "requestId"],
  "turn-delivery-accepted": ["requestId"],
  "turn-delivery-cancelled": ["requestId"],
};
const kinded = (a) => isObject(a) && typeof a.kind === "string";

/** The version rules and the 0→1 step, shared by every contender but hookwire's. */
function walk(value) {
  if (!isObject(value)) throw new WireError("NOT_OBJECT");
  const n = Object.hasOwn(value, "version") ? value.version : 0;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) throw new WireError("MALFORMED_VERSION", n);
  if (n > CURRENT) throw new WireError("NEWER_VERSION", n);
  if (n === 0 && value.kind === "turn-result" && !kinded(value.action)) throw new WireError("LEGACY_SHAPE", 0);
  if (typeof value.kind !== "string" || !Object.hasOwn(FIELDS, value.kind)) throw new WireError("UNKNOWN_KIND");
}

function project(value) {
  const out = { kind: value.kind };
  for (const k of FIELDS[value.kind]) if (value[k] !== undefined) out[k] = value[k];
  return out;
}

/** A decoder over a library's safe parse of the envelope schemas (`parse` answers true or false). */
const over = (parse, schemas) => (value) => {
  walk(value);
  if (!parse(schemas[value.kind], value)) throw new WireError("INVALID");
  return project(value);
};

const str = (x) => typeof x === "string";
const PLAIN = {
  "turn-result": (x) => kinded(x.action) && (x.bufferedDeliveries === undefined || (Array.isArray(x.bufferedDeliveries) && x.bufferedDeliveries.every(isObject))),
  "turn-error": (x) => x.error !== undefined,
  "turn-continuation-token": (x) => str(x.continuationToken),
  "turn-delivery-request": (x) => str(x.continuationToken) && str(x.inboxToken) && str(x.requestId),
  "turn-delivery-accepted": (x) => str(x.requestId),
  "turn-delivery-cancelled": (x) => str(x.requestId),
};

const zodSchemas = (z, optional, custom) => {
  const action = z.looseObject({ kind: z.string() });
  const object = custom(isObject);
  return {
    "turn-result": z.looseObject({ action, bufferedDeliveries: optional(z.array(object)) }),
    "turn-error": z.looseObject({ error: custom((x) => x !== undefined) }),
    "turn-continuation-token": z.looseObject({ continuationToken: z.string() }),
    "turn-delivery-request": z.looseObject({ continuationToken: z.string(), inboxToken: z.string(), requestId: z.string() }),
    "turn-delivery-accepted": z.looseObject({ requestId: z.string() }),
    "turn-delivery-cancelled": z.looseObject({ requestId: z.string() }),
  };
};
const ZOD = zodSchemas(z, (s) => s.optional(), (f) => z.custom(f));
const ZOD_MINI = zodSchemas(zm, (s) => zm.optional(s), (f) => zm.custom(f));
const VALIBOT = (() => {
  const object = v.custom(isObject);
  return {
    "turn-result": v.looseObject({ action: v.looseObject({ kind: v.string() }), bufferedDeliveries: v.optional(v.array(object)) }),
    "turn-error": v.looseObject({ error: v.custom((x) => x !== undefined) }),
    "turn-continuation-token": v.looseObject({ continuationToken: v.string() }),
    "turn-delivery-request": v.looseObject({ continuationToken: v.string(), inboxToken: v.string(), requestId: v.string() }),
    "turn-delivery-accepted": v.looseObject({ requestId: v.string() }),
    "turn-delivery-cancelled": v.looseObject({ requestId: v.string() }),
  };
})();

/** Every contender's turn-control decode, by the names of ../mix.mjs's CONTENDERS. */
export const TURN_DECODERS = {
  wasm,
  plain: over((check, x) => check(x), PLAIN),
  zod: over((schema, x) => schema.safeParse(x).success, ZOD),
  "zod-mini": over((schema, x) => schema.safeParse(x).success, ZOD_MINI),
  valibot: over((schema, x) => v.safeParse(schema, x).success, VALIBOT),
};
