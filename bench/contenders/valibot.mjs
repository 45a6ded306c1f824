// The decode written with valibot 1: the same schemas as ./zod.mjs, plus the declared-version
// checks and the steps in code (./steps.mjs).
import * as v from "valibot";
import { checkDeclared, CURRENT, FIELDS, walk, WireError } from "./steps.mjs";

// valibot's looseObject also accepts arrays: an object here is a non-null, non-array object.
const AnyObject = v.custom((o) => typeof o === "object" && o !== null && !Array.isArray(o));
const Head = v.looseObject({ version: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))) });
const LegacySend = v.looseObject({ kind: v.literal("send"), payload: AnyObject, delivery: v.optional(AnyObject) });
const LegacyDeliver = v.looseObject({ kind: v.literal("deliver"), payloads: v.array(AnyObject) });
const str = v.optional(v.string());
const Current = v.variant("kind", [
  v.object({
    kind: v.literal("deliver"),
    payloads: v.array(AnyObject),
    auth: v.optional(v.nullable(AnyObject)),
    caller: v.optional(AnyObject),
    deliveryMetadata: v.optional(v.array(AnyObject)),
    requestId: str,
    taskDeliveryId: str,
    turnPolicy: v.optional(v.picklist(["queue", "steer"])),
  }),
  v.object({ kind: v.literal("session-timeout") }),
  v.object({ kind: v.literal("clear") }),
  v.object({ kind: v.literal("compact") }),
  v.object({ kind: v.literal("reset"), reason: str }),
  v.object({ kind: v.literal("cancel"), taskId: str, turnId: str, tasks: v.optional(v.boolean()) }),
]);

export function decode(x) {
  if (!v.safeParse(AnyObject, x).success) throw new WireError("NOT_OBJECT");
  const head = v.safeParse(Head, x);
  if (!head.success) throw new WireError("MALFORMED_VERSION");
  const n = Object.hasOwn(x, "version") ? head.output.version : 0;
  if (n === undefined) throw new WireError("MALFORMED_VERSION");
  if (n > CURRENT) throw new WireError("NEWER_VERSION", n);
  if (n >= 1) checkDeclared(x, n);
  if (n === 0 && x.kind === "send" && !v.safeParse(LegacySend, x).success) throw new WireError("LEGACY_SHAPE", 0);
  if (n === 0 && x.kind === "deliver" && !v.safeParse(LegacyDeliver, x).success) throw new WireError("LEGACY_SHAPE", 0);
  const cur = walk(x, n);
  if (!Object.hasOwn(FIELDS, cur.kind)) throw new WireError("UNKNOWN_KIND");
  const r = v.safeParse(Current, cur);
  if (!r.success) throw new WireError("INVALID");
  return r.output;
}
