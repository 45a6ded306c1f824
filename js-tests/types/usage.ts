// Compiled (not run) by js-tests/types.test.mjs against pkg/hookwire.d.ts: the declarations
// must type a consumer's real code, narrow by kind, and reject what the contract does not allow.
import { decode, hookMetadata, HOOK_METADATA_KEY, SessionInboxWireError, WIRE_VERSION } from "hookwire";
import type { SessionInboxValue, SessionInboxWireErrorCode, UserContentPart } from "hookwire";

/** The current version, a literal type (never `number`), whichever version it is. */
type Current = typeof WIRE_VERSION;
const literal: number extends Current ? never : true = true;
const metadata: { readonly sessionInboxWireVersion: Current } = hookMetadata();
const key: "sessionInboxWireVersion" = HOOK_METADATA_KEY;
const version: Current = WIRE_VERSION;
/** The version after `N` (a tuple's length: types have no `+`). */
type Next<N extends number, T extends unknown[] = []> = T["length"] extends N ? [...T, unknown]["length"] : Next<N, [...T, unknown]>;
declare const newer: Next<Current>;

export function handle(payload: unknown): string {
  let value: SessionInboxValue;
  try {
    value = decode(payload);
  } catch (e) {
    if (e instanceof SessionInboxWireError) {
      const code: SessionInboxWireErrorCode = e.code;
      const where: string | undefined = code === "INVALID" ? e.path : undefined;
      return `${code} ${e.version ?? ""} ${where ?? ""} ${metadata.sessionInboxWireVersion} ${key} ${version}`;
    }
    throw e;
  }
  switch (value.kind) {
    case "deliver": {
      const first = value.payloads[0];
      const parts: ReadonlyArray<UserContentPart> = typeof first?.message === "string" ? [] : first?.message ?? [];
      const image = parts.find((p) => p.type === "image");
      const bytes: string | Uint8Array | ArrayBuffer | URL | undefined = image?.type === "image" ? image.image : undefined;
      return `${value.payloads.length} ${value.auth === null ? "anonymous" : value.auth?.principalId} ${value.turnPolicy ?? "queue"} ${String(bytes)}`;
    }
    case "reset":
      return value.reason ?? "";
    case "cancel":
      return `${value.taskId} ${value.turnId} ${value.tasks === true ? "and its tasks" : ""}`;
    case "session-timeout":
    case "clear":
    case "compact":
      return value.kind;
  }
}

// @ts-expect-error: the wire-only version is not part of a decoded value
export const noVersion = (v: SessionInboxValue) => v.version;
// @ts-expect-error: there is no send kind after decode
export const noSend = (v: SessionInboxValue) => v.kind === "send";
// @ts-expect-error: decoded values are read-only
export const readOnly = (v: SessionInboxValue) => { v.kind = "clear"; };

// The encoder entry, for server and step code.
import { encode, negotiate, stableInboxToken } from "hookwire/encoder";
import type { SessionInboxCommand, SessionInboxTarget, SessionInboxWire } from "hookwire/encoder";

export async function produce(getHookByToken: (token: string) => Promise<{ token: string; runId: string; metadata?: unknown } | null>) {
  const command: SessionInboxCommand = { kind: "send", payload: { message: [{ type: "image", image: new Uint8Array(1) }] }, requestId: "r" };
  const n = await negotiate(command, { token: stableInboxToken("run-1") }, getHookByToken, { writeAtMost: 5 });
  const target: SessionInboxTarget = n.target;
  const wire: SessionInboxWire = encode(command, target);
  // The return type follows the target.
  const v3 = encode(command, { version: 3 });
  const three: 3 = v3.version;
  const raw = encode(command, { version: 0, variant: "send" });
  const sent: "send" | "session-timeout" | "clear" | "compact" | "reset" | "cancel" = raw.kind;
  const cancel: SessionInboxCommand = { kind: "cancel", taskId: "t", tasks: true };
  return [wire, three, sent, cancel, "hook" in n.resume ? n.resume.hook.runId : n.resume.token] as const;
}

// @ts-expect-error: a control carries no payloads
export const badControl: SessionInboxCommand = { kind: "clear", payloads: [] };
// @ts-expect-error: not a target
export const badTarget: SessionInboxTarget = { version: 0 };
// @ts-expect-error: the version after the current one is not a version this build writes
export const newerTarget: SessionInboxTarget = { version: newer };

// The precompiled-module entry: the same API, plus init (declarations checked here, not skipped).
import { init, decode as decodeWithModule, standardSchema } from "hookwire/module";
export function startFromModule(module: WebAssembly.Module, payload: unknown): SessionInboxValue | undefined {
  init(module);
  const result = standardSchema["~standard"].validate(payload);
  return result.issues ? undefined : decodeWithModule(result.value);
}
