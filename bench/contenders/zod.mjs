// The decode written with zod 4 as a user would: schemas for the version field, the two legacy
// shapes and the six current kinds with their envelope types (opaque subtrees as loose objects),
// plus the declared-version checks and the steps in code (./steps.mjs, decoderOver).
import * as z from "zod";
import { decoderOver, FAIL } from "./steps.mjs";

const AnyObject = z.looseObject({});
const Head = z.looseObject({ version: z.optional(z.number()) });
const LegacySend = z.looseObject({ kind: z.literal("send"), payload: AnyObject, delivery: AnyObject.optional() });
const LegacyDeliver = z.looseObject({ kind: z.literal("deliver"), payloads: z.array(AnyObject) });
const str = z.string().optional();
const Current = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("deliver"),
    payloads: z.array(AnyObject),
    auth: AnyObject.nullable().optional(),
    caller: AnyObject.optional(),
    deliveryMetadata: z.array(AnyObject).optional(),
    requestId: str,
    taskDeliveryId: str,
    turnPolicy: z.enum(["queue", "steer"]).optional(),
  }),
  z.object({ kind: z.literal("session-timeout") }),
  z.object({ kind: z.literal("clear") }),
  z.object({ kind: z.literal("compact") }),
  z.object({ kind: z.literal("reset"), reason: str }),
  z.object({ kind: z.literal("cancel"), taskId: str, turnId: str, tasks: z.boolean().optional() }),
]);

export const decode = decoderOver((schema, v) => {
  const r = schema.safeParse(v);
  return r.success ? r.data : FAIL;
}, { AnyObject, Head, LegacySend, LegacyDeliver, Current });
