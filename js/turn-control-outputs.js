// Generated from the Rust sources by `HOOKWIRE_BLESS=1 cargo test`; do not edit.
// The decode output of each kind of the family, by the optional fields present: see
// `outputs_js` in src/surfaces/jsgen.rs.
export const OUTPUTS = [
  // turn-result
  (v, b, t) => (t & 56 ? { kind: "turn-result", action: v[b], bufferedDeliveries: v[b + 1] } : { kind: "turn-result", action: v[b] }),
  // turn-error
  (v, b, t) => ({ kind: "turn-error", error: v[b] }),
  // turn-continuation-token
  (v, b, t) => ({ kind: "turn-continuation-token", continuationToken: v[b] }),
  // turn-delivery-request
  (v, b, t) => ({ kind: "turn-delivery-request", continuationToken: v[b], inboxToken: v[b + 1], requestId: v[b + 2] }),
  // turn-delivery-accepted
  (v, b, t) => ({ kind: "turn-delivery-accepted", requestId: v[b] }),
  // turn-delivery-cancelled
  (v, b, t) => ({ kind: "turn-delivery-cancelled", requestId: v[b] }),
];
