// The speed reference: the contract's decode (docs/contract.md) written by hand in plain JS (not
// shipped): version rules, declared-version checks, steps, kind, envelope checks, projection.
import { checkDeclared, FIELDS, isObject, project, versionOf, walk, WireError } from "./steps.mjs";
export { WireError };

const allObjects = (a) => Array.isArray(a) && a.every(isObject);
const str = (v) => v === undefined || typeof v === "string";
const ENVELOPE = {
  deliver: (v) =>
    allObjects(v.payloads) &&
    (v.auth === undefined || v.auth === null || isObject(v.auth)) &&
    (v.caller === undefined || isObject(v.caller)) &&
    (v.deliveryMetadata === undefined || allObjects(v.deliveryMetadata)) &&
    str(v.requestId) &&
    str(v.taskDeliveryId) &&
    (v.turnPolicy === undefined || v.turnPolicy === "queue" || v.turnPolicy === "steer"),
  reset: (v) => str(v.reason),
  cancel: (v) => str(v.taskId) && str(v.turnId) && (v.tasks === undefined || typeof v.tasks === "boolean"),
};

export function decode(v) {
  if (!isObject(v)) throw new WireError("NOT_OBJECT");
  const n = versionOf(v);
  if (n >= 1) checkDeclared(v, n);
  if (n === 0) {
    if (v.kind === "send" && (!isObject(v.payload) || (v.delivery !== undefined && !isObject(v.delivery)))) throw new WireError("LEGACY_SHAPE", 0);
    if (v.kind === "deliver" && !allObjects(v.payloads)) throw new WireError("LEGACY_SHAPE", 0);
  }
  const cur = walk(v, n);
  if (!Object.hasOwn(FIELDS, cur.kind)) throw new WireError("UNKNOWN_KIND");
  const check = ENVELOPE[cur.kind];
  if (check !== undefined && !check(cur)) throw new WireError("INVALID");
  return project(cur);
}
