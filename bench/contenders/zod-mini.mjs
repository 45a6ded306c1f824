// The decode written with zod/mini (the functional, tree-shakable API of zod 4).
import * as z from "zod/mini";
import { WireError } from "./plain.mjs";

const opt = z.optional(z.unknown());
const Version = z.looseObject({ version: z.optional(z.number()) });
const AnyObject = z.looseObject({});
const LegacySend = z.looseObject({ kind: z.literal("send"), payload: AnyObject, delivery: z.optional(AnyObject) });
const LegacyDeliver = z.looseObject({ kind: z.literal("deliver"), payloads: z.array(AnyObject) });
const Current = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("deliver"), auth: opt, caller: opt, deliveryMetadata: opt, payloads: opt, requestId: opt, taskDeliveryId: opt, turnPolicy: opt }),
  z.object({ kind: z.literal("session-timeout") }),
  z.object({ kind: z.literal("clear") }),
  z.object({ kind: z.literal("compact") }),
  z.object({ kind: z.literal("reset"), reason: opt }),
  z.object({ kind: z.literal("cancel"), taskId: opt, turnId: opt }),
]);

function migrate0(v) {
  if (v.kind === "send") {
    if (!LegacySend.safeParse(v).success) throw new WireError("LEGACY_SHAPE", 0);
    const { payload, delivery, auth, caller, requestId, taskDeliveryId, turnPolicy } = v;
    const out = { kind: "deliver", payload, payloads: [payload], auth, caller, requestId, taskDeliveryId, turnPolicy, version: 1 };
    if (delivery !== undefined) out.deliveryMetadata = [{ ...delivery, payloadIndex: 0 }];
    return out;
  }
  if (v.kind === "deliver" && !LegacyDeliver.safeParse(v).success) throw new WireError("LEGACY_SHAPE", 0);
  return { ...v, version: 1 };
}

export function decode(v) {
  if (!AnyObject.safeParse(v).success) throw new WireError("NOT_OBJECT");
  const head = Version.safeParse(v);
  if (!head.success) throw new WireError("MALFORMED_VERSION");
  const version = head.data.version ?? 0;
  if (!Number.isInteger(version) || version < 0) throw new WireError("MALFORMED_VERSION", version);
  if (version > 1) throw new WireError("NEWER_VERSION", version);
  const r = Current.safeParse(version === 0 ? migrate0(v) : v);
  if (!r.success) throw new WireError("UNKNOWN_KIND");
  return r.data;
}
