// The session driver of the rolling-deploy and fault scenarios (e2e/rolling.mjs, e2e/faults.mjs),
// built as an app of its own by the harness (`buildSessionApp`) with a given `hookwire` package:
// the old build with the frozen version 1 package (e2e/fixtures/hookwire-v1/), the new one with
// pkg/. It stamps its hook with what its build reads, decodes every payload with its
// build's decoder inside the workflow VM and records it through a step, tagged with that build
// (`build`: the newest version it reads); what it cannot decode it reports, and stays parked.
import { createHook } from "workflow";
import { decode, hookMetadata, SessionInboxWireError, WIRE_VERSION } from "hookwire";

export async function session(token) {
  "use workflow";
  const hook = createHook({ token, metadata: hookMetadata() });
  let n = 0;
  for await (const payload of hook) {
    n++;
    try {
      await record(token, n, WIRE_VERSION, decode(payload));
    } catch (e) {
      if (!(e instanceof SessionInboxWireError)) throw e;
      await report(token, n, WIRE_VERSION, e.code);
    }
  }
  return n;
}

async function record(token, n, build, value) {
  "use step";
  return { token, n, build, value };
}

async function report(token, n, build, code) {
  "use step";
  return { token, n, build, code };
}
