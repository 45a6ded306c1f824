// The speed reference: the contract's decode (docs/contract.md) written by hand in plain JS (not shipped).
export class WireError extends Error {
  constructor(code, version) {
    super(code);
    this.code = code;
    this.version = version;
  }
}
const KINDS = {
  deliver: ["auth", "caller", "deliveryMetadata", "payloads", "requestId", "taskDeliveryId", "turnPolicy"],
  "session-timeout": [],
  clear: [],
  compact: [],
  reset: ["reason"],
  cancel: ["taskId", "turnId"],
};
const CARRIED = ["auth", "caller", "requestId", "taskDeliveryId", "turnPolicy"];
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

function migrate0(v) {
  if (v.kind === "send") {
    const payload = v.payload;
    const delivery = v.delivery;
    if (!isObject(payload) || (delivery !== undefined && !isObject(delivery))) throw new WireError("LEGACY_SHAPE", 0);
    const out = { kind: "deliver", payload, payloads: [payload] };
    if (delivery !== undefined) out.deliveryMetadata = [{ ...delivery, payloadIndex: 0 }];
    for (const k of CARRIED) if (v[k] !== undefined) out[k] = v[k];
    out.version = 1;
    return out;
  }
  if (v.kind === "deliver") {
    const p = v.payloads;
    if (!Array.isArray(p)) throw new WireError("LEGACY_SHAPE", 0);
    for (let i = 0; i < p.length; i++) if (!isObject(p[i])) throw new WireError("LEGACY_SHAPE", 0);
  }
  return { ...v, version: 1 };
}

export function decode(v) {
  if (!isObject(v)) throw new WireError("NOT_OBJECT");
  let version = v.version;
  if (version === undefined) version = 0;
  else if (typeof version !== "number") throw new WireError("MALFORMED_VERSION");
  else if (!Number.isInteger(version) || version < 0) throw new WireError("MALFORMED_VERSION", version);
  else if (version > 1) throw new WireError("NEWER_VERSION", version);
  const current = version === 0 ? migrate0(v) : v;
  const kind = current.kind;
  const fields = typeof kind === "string" && Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined;
  if (fields === undefined) throw new WireError("UNKNOWN_KIND");
  const out = { kind };
  for (const f of fields) {
    const x = current[f];
    if (x !== undefined) out[f] = x;
  }
  return out;
}
