// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.
// The decode output of each kind of the family that keeps two fields or more, by the
// optional fields present (null: made key by key): see `outputs_js` in
// src/surfaces/jsgen.rs.
export const OUTPUTS = [
  // turn-result
  (v, b, t) => (t & 56 ? { kind: "turn-result", action: v[b], bufferedDeliveries: v[b + 1] } : { kind: "turn-result", action: v[b] }),
  // turn-error
  null,
  // turn-continuation-token
  null,
  // turn-delivery-request
  (v, b, t) => ({ kind: "turn-delivery-request", continuationToken: v[b], inboxToken: v[b + 1], requestId: v[b + 2] }),
  // turn-delivery-accepted
  null,
  // turn-delivery-cancelled
  null,
];
