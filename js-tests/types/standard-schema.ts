// Compiled (not run) by js-tests/types.test.mjs: hookwire's Standard Schemas are
// `StandardSchemaV1`s of `@standard-schema/spec` whose inferred input and output are the
// decoder's and the encoder's own types, and they type the Workflow SDK's `defineHook({ schema })`.
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { decode, standardSchema, WIRE_VERSION, type SessionInboxValue } from "hookwire";
import { standardSchema as turnControlSchema, type TurnControlValue } from "hookwire/turn-control";
import { encoderSchema, type SessionInboxCommand, type SessionInboxWireAt, type TurnControlCommand, type TurnControlWireFor } from "hookwire/encoder";
import { init, decode as decodeWithModule, standardSchema as moduleSchema } from "hookwire/module";
import { init as initTurnControl } from "hookwire/turn-control/module";
import { defineHook } from "workflow";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** The version after `N`, whatever the current one is (a tuple's length: types have no `+`). */
type Next<N extends number, T extends unknown[] = []> = T["length"] extends N ? [...T, unknown]["length"] : Next<N, [...T, unknown]>;
const yes = <T extends true>(t: T) => t;

// The decoder entries: unknown in, the decoded union out.
const consumer: StandardSchemaV1<unknown, SessionInboxValue> = standardSchema;
yes<Equal<StandardSchemaV1.InferOutput<typeof standardSchema>, SessionInboxValue>>(true);
yes<Equal<StandardSchemaV1.InferInput<typeof standardSchema>, unknown>>(true);
const turn: StandardSchemaV1<unknown, TurnControlValue> = turnControlSchema;
const fromModule: StandardSchemaV1<unknown, SessionInboxValue> = moduleSchema;

// validate is synchronous: no await, no Promise in the result's type.
export function read(payload: unknown): SessionInboxValue | string {
  const result = standardSchema["~standard"].validate(payload);
  if (result.issues) return result.issues.map((i) => `${i.message} at ${(i.path ?? []).join("/")}`).join("; ");
  return result.value;
}
// @ts-expect-error: the result is not a promise
export const notAPromise = () => standardSchema["~standard"].validate(1).then;

// The encoder entry: commands in, the wire value of the fixed target out.
const current = encoderSchema();
const v3 = encoderSchema({ target: { version: 3 } });
yes<Equal<StandardSchemaV1.InferInput<typeof v3>, SessionInboxCommand>>(true);
yes<Equal<StandardSchemaV1.InferOutput<typeof v3>, SessionInboxWireAt<3>>>(true);
const producer: StandardSchemaV1<SessionInboxCommand, SessionInboxWireAt<typeof WIRE_VERSION>> = current;
const control = encoderSchema({ family: "turn-control", target: { version: 0 } });
yes<Equal<StandardSchemaV1.InferInput<typeof control>, TurnControlCommand>>(true);
yes<Equal<StandardSchemaV1.InferOutput<typeof control>, TurnControlWireFor<0>>>(true);
yes<Equal<Next<6>, 7>>(true);
declare const newer: Next<typeof WIRE_VERSION>;
// @ts-expect-error: the version after the current one is not a target this build writes
encoderSchema({ target: { version: newer } });
// @ts-expect-error: turn control has no version 3
encoderSchema({ family: "turn-control", target: { version: 3 } });

// The Workflow SDK: resume takes a command and persists the wire value validate answers.
const inbox = defineHook({ schema: encoderSchema({ target: { version: 6 } }) });
export async function send(token: string) {
  await inbox.resume(token, { kind: "send", payload: { message: "hello" } });
  // @ts-expect-error: not a command
  await inbox.resume(token, { kind: "send" });
}
const received = defineHook({ schema: standardSchema });
export const decodedHook = received;

// The precompiled-module entries.
export function start(module: WebAssembly.Module, turnControlModule: WebAssembly.Module): SessionInboxValue {
  init(module);
  initTurnControl(turnControlModule);
  return decodeWithModule({ kind: "clear" });
}

export { consumer, decode, fromModule, producer, turn };
