// The decode written with valibot 1.
import * as v from "valibot";
import { WireError } from "./plain.mjs";

const opt = v.optional(v.unknown());
const Version = v.looseObject({ version: v.optional(v.number()) });
const AnyObject = v.looseObject({});
const LegacySend = v.looseObject({ kind: v.literal("send"), payload: AnyObject, delivery: v.optional(AnyObject) });
const LegacyDeliver = v.looseObject({ kind: v.literal("deliver"), payloads: v.array(AnyObject) });
const Current = v.variant("kind", [
  v.object({ kind: v.literal("deliver"), auth: opt, caller: opt, deliveryMetadata: opt, payloads: opt, requestId: opt, taskDeliveryId: opt, turnPolicy: opt }),
  v.object({ kind: v.literal("session-timeout") }),
  v.object({ kind: v.literal("clear") }),
  v.object({ kind: v.literal("compact") }),
  v.object({ kind: v.literal("reset"), reason: opt }),
  v.object({ kind: v.literal("cancel"), taskId: opt, turnId: opt }),
]);

function migrate0(x) {
  if (x.kind === "send") {
    if (!v.safeParse(LegacySend, x).success) throw new WireError("LEGACY_SHAPE", 0);
    const { payload, delivery, auth, caller, requestId, taskDeliveryId, turnPolicy } = x;
    const out = { kind: "deliver", payload, payloads: [payload], auth, caller, requestId, taskDeliveryId, turnPolicy, version: 1 };
    if (delivery !== undefined) out.deliveryMetadata = [{ ...delivery, payloadIndex: 0 }];
    return out;
  }
  if (x.kind === "deliver" && !v.safeParse(LegacyDeliver, x).success) throw new WireError("LEGACY_SHAPE", 0);
  return { ...x, version: 1 };
}

export function decode(x) {
  if (!v.safeParse(AnyObject, x).success) throw new WireError("NOT_OBJECT");
  const head = v.safeParse(Version, x);
  if (!head.success) throw new WireError("MALFORMED_VERSION");
  const version = head.output.version ?? 0;
  if (!Number.isInteger(version) || version < 0) throw new WireError("MALFORMED_VERSION", version);
  if (version > 1) throw new WireError("NEWER_VERSION", version);
  const r = v.safeParse(Current, version === 0 ? migrate0(x) : x);
  if (!r.success) throw new WireError("UNKNOWN_KIND");
  return r.output;
}
