// The decode written with zod/mini (the functional, tree-shakable API of zod 4): the same schemas
// as ./zod.mjs, plus the declared-version checks and the steps in code (./steps.mjs).
import * as z from "zod/mini";
import { checkDeclared, CURRENT, FIELDS, walk, WireError } from "./steps.mjs";

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

export function decode(v) {
  if (!AnyObject.safeParse(v).success) throw new WireError("NOT_OBJECT");
  const head = Head.safeParse(v);
  if (!head.success) throw new WireError("MALFORMED_VERSION");
  const n = Object.hasOwn(v, "version") ? head.data.version : 0;
  // zod's .int() refuses integers past 2^53 (1e300 is NEWER_VERSION, not malformed).
  if (n === undefined || !Number.isInteger(n) || n < 0) throw new WireError("MALFORMED_VERSION");
  if (n > CURRENT) throw new WireError("NEWER_VERSION", n);
  if (n >= 1) checkDeclared(v, n);
  if (n === 0 && v.kind === "send" && !LegacySend.safeParse(v).success) throw new WireError("LEGACY_SHAPE", 0);
  if (n === 0 && v.kind === "deliver" && !LegacyDeliver.safeParse(v).success) throw new WireError("LEGACY_SHAPE", 0);
  const cur = walk(v, n);
  if (!Object.hasOwn(FIELDS, cur.kind)) throw new WireError("UNKNOWN_KIND");
  const r = Current.safeParse(cur);
  if (!r.success) throw new WireError("INVALID");
  return r.data;
}
