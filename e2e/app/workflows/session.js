// The workflows of the end-to-end suite. `sessionDriver` is a current consumer: it stamps its
// inbox hook, decodes every payload with hookwire's pkg/ decoder inside the workflow VM, records
// each decoded value through a step, and reports what it cannot decode through another step —
// then stays parked for the next payload (`schemaDriver` does the same through the Standard Schema
// of the decoder, on a hook made with `defineHook`). The two `legacy…` workflows are consumers of the
// historic cohorts, reading payloads the way those builds did, with no decoder at all.
import { createHook, defineHook, getWorkflowMetadata } from "workflow";
import { decode, hookMetadata, SessionInboxWireError, standardSchema } from "hookwire";
import * as v1Build from "../vendor/hookwire-v1.cjs";
import { decode as decodeTurn, driverCapabilities, TurnControlWireError } from "hookwire/turn-control";

export async function sessionDriver(token) {
  "use workflow";
  const hook = createHook({ token, metadata: hookMetadata() });
  let n = 0;
  for await (const payload of hook) {
    n++;
    try {
      const value = decode(payload);
      await record(token, n, value);
      if (value.kind === "reset" && value.reason === "end of session") return n;
    } catch (e) {
      if (!(e instanceof SessionInboxWireError)) throw e;
      await report(token, n, e.code, e.message);
    }
  }
  return n;
}

/**
 * A session driver on a hook made with `defineHook` (its producer resumes it through
 * `defineHook({ schema: encoderSchema({ target }) })`), reading each payload through the decoder's
 * Standard Schema: it records the wire value as it arrived beside what `validate` answered, and
 * reports the issues of what it cannot decode.
 */
export async function schemaDriver(token) {
  "use workflow";
  const hook = defineHook().create({ token, metadata: hookMetadata() });
  let n = 0;
  for await (const payload of hook) {
    n++;
    const result = standardSchema["~standard"].validate(payload);
    if (result.issues) {
      await report(token, n, result.issues[0].message.split(":")[0], JSON.stringify(result.issues));
      continue;
    }
    await record(token, n, { wire: payload, value: result.value });
    if (result.value.kind === "reset" && result.value.reason === "end of session") return n;
  }
  return n;
}

/**
 * A session pinned to an older deployment: its build's decoder reads versions 0 and 1 only (the
 * frozen package of that build, vendor/hookwire-v1.cjs), and it stamps its hook accordingly.
 */
export async function sessionDriverV1(token) {
  "use workflow";
  const hook = createHook({ token, metadata: v1Build.hookMetadata() });
  let n = 0;
  for await (const payload of hook) {
    n++;
    try {
      const value = v1Build.decode(payload);
      await record(token, n, value);
      if (value.kind === "reset" && value.reason === "end of session") return n;
    } catch (e) {
      if (!(e instanceof v1Build.SessionInboxWireError)) throw e;
      await report(token, n, e.code, e.message);
    }
  }
  return n;
}

/**
 * A session driver of this build, parked on the control hook of one turn
 * (`<sessionId>:turn-control:<n>`). It hands the turn workflow its capabilities (recorded here as
 * step 0, which the producer reads as the turn workflow's input), decodes every control value
 * with hookwire/turn-control, and records it; the turn ends with its result.
 */
export async function turnDriver(sessionId) {
  "use workflow";
  const token = `${sessionId}:turn-control:1`;
  const hook = createHook({ token });
  await record(token, 0, { capabilities: driverCapabilities() });
  let n = 0;
  for await (const payload of hook) {
    n++;
    try {
      const value = decodeTurn(payload);
      await record(token, n, { ...value, actionIsTheWireObject: value.action !== undefined && value.action === payload.action });
      if (value.kind === "turn-result") return n;
    } catch (e) {
      if (!(e instanceof TurnControlWireError)) throw e;
      await report(token, n, e.code, e.message);
    }
  }
  return n;
}

/** A driver of a build before the capability: it advertises nothing and reads unversioned values. */
export async function legacyTurnDriver(sessionId) {
  "use workflow";
  const token = `${sessionId}:turn-control:1`;
  const hook = createHook({ token });
  await record(token, 0, { capabilities: null });
  let n = 0;
  for await (const value of hook) {
    n++;
    await record(token, n, { kind: value.kind, action: value.action ?? null, versioned: "version" in value });
    if (value.kind === "turn-result") return n;
  }
  return n;
}

/** A consumer of builds 0.30.5–0.31.0: a markerless stable inbox that reads `.payload`. */
export async function legacyStableInbox() {
  "use workflow";
  const { workflowRunId } = getWorkflowMetadata();
  const hook = createHook({ token: `eve:session:${workflowRunId}:inbox` });
  let n = 0;
  for await (const command of hook) {
    n++;
    await record(`legacy-send:${workflowRunId}`, n, { kind: command.kind, message: command.payload?.message ?? null });
    if (command.kind === "reset") return n;
  }
  return n;
}

/** A consumer of builds ≤ 0.30.4: a markerless continuation hook that requires the deliver envelope. */
export async function legacyContinuation(token) {
  "use workflow";
  const hook = createHook({ token });
  let n = 0;
  for await (const envelope of hook) {
    n++;
    const message = envelope.kind === "deliver" && Array.isArray(envelope.payloads) ? envelope.payloads[0]?.message ?? null : null;
    await record(token, n, { kind: envelope.kind, message, versioned: "version" in envelope });
    if (envelope.kind === "reset") return n;
  }
  return n;
}

/** A run that owns another run's stable inbox token (the ownership conflict). */
export async function inboxSquatter(runId) {
  "use workflow";
  const hook = createHook({ token: `eve:session:${runId}:inbox` });
  for await (const _ of hook) return 1;
  return 0;
}

async function record(token, n, value) {
  "use step";
  return { token, n, value };
}

async function report(token, n, code, message) {
  "use step";
  return { token, n, code, message };
}
