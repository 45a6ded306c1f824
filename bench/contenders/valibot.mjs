// The decode written with valibot 1: the same schemas as ./zod.mjs, plus the declared-version
// checks and the steps in code (./steps.mjs).
import * as v from "valibot";
import { decoderOver, FAIL } from "./steps.mjs";

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

export const decode = decoderOver((schema, x) => {
  const r = v.safeParse(schema, x);
  return r.success ? r.output : FAIL;
}, { AnyObject, Head, LegacySend, LegacyDeliver, Current });
