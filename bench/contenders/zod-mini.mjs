// The decode written with zod/mini (the functional, tree-shakable API of zod 4): the same schemas
// as ./zod.mjs, plus the declared-version checks and the steps in code (./steps.mjs, decoderOver).
import * as z from "zod/mini";
import { decoderOver, FAIL } from "./steps.mjs";

const AnyObject = z.looseObject({});
const Head = z.looseObject({ version: z.optional(z.number()) });
const LegacySend = z.looseObject({ kind: z.literal("send"), payload: AnyObject, delivery: z.optional(AnyObject) });
const LegacyDeliver = z.looseObject({ kind: z.literal("deliver"), payloads: z.array(AnyObject) });
const str = z.optional(z.string());
const Current = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("deliver"),
    payloads: z.array(AnyObject),
    auth: z.optional(z.nullable(AnyObject)),
    caller: z.optional(AnyObject),
    deliveryMetadata: z.optional(z.array(AnyObject)),
    requestId: str,
    taskDeliveryId: str,
    turnPolicy: z.optional(z.enum(["queue", "steer"])),
  }),
  z.object({ kind: z.literal("session-timeout") }),
  z.object({ kind: z.literal("clear") }),
  z.object({ kind: z.literal("compact") }),
  z.object({ kind: z.literal("reset"), reason: str }),
  z.object({ kind: z.literal("cancel"), taskId: str, turnId: str, tasks: z.optional(z.boolean()) }),
]);

export const decode = decoderOver((schema, v) => {
  const r = schema.safeParse(v);
  return r.success ? r.data : FAIL;
}, { AnyObject, Head, LegacySend, LegacyDeliver, Current });
