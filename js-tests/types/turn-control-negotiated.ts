// Compiled (not run) by js-tests/turn-control.test.mjs (a `todo` test: see there). Encoding for a
// *negotiated* target — `TurnControlTarget`, so version 0 or 1 — must not claim a `version` the
// value may lack: a v0 value (an older driver) has no `version` key at run time.
import { turnControl } from "hookwire/encoder";
import type { TurnControlTarget } from "hookwire/encoder";
import type { TurnControlValue } from "hookwire/turn-control";

export function produce(capabilities: unknown): TurnControlValue {
  const target: TurnControlTarget = turnControl.negotiate(capabilities);
  const wire = turnControl.encode({ kind: "turn-delivery-accepted", requestId: "r" }, target);
  // @ts-expect-error: for an older driver the value has no version at all (and never version 0)
  const version: 0 | 1 = wire.version;
  return version === 0 ? wire : wire;
}
