// The main demonstration on a real Workflow SDK run (world-local): sessions of each cohort park
// on hooks; a producer inspects each hook, chooses a target, encodes, resumes; the transcript
// shows what the workflow decoded inside its VM and recorded through a step — and an undecodable
// payload parked and reported. Ends with what each decoder adds to the workflow bundle.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { build, decoder, encoder, here, producer, startServer } from "./harness.mjs";

const port = 39600;
const data = join(here, "..", "target", "e2e", "demo");
const show = (v) => JSON.stringify(v);
const say = (s = "") => console.log(s);

say("\n6. The same contract on a real Workflow SDK run (world-local): workflows built by `workflow build`,");
say("   the session driver decoding with pkg/ inside the workflow VM, steps recording what it decoded.\n");
build();
rmSync(data, { recursive: true, force: true });
const server = await startServer(port, data);
const p = await producer(port, data);

async function deliver(label, token, command, runId, expectSteps) {
  const n = await encoder.negotiate(command, { token }, p.lookup);
  const wire = encoder.encode(command, n.target);
  await p.api.resumeHook(n.resume.hook ?? n.resume.token, wire);
  const steps = await p.waitSteps(runId, expectSteps);
  const last = steps[expectSteps - 1];
  say(`   ${label}`);
  const inspected = n.resume.hook
    ? `inspected: metadata ${show(n.resume.hook.metadata ?? null)}, ${n.lookups} lookup${n.lookups === 1 ? "" : "s"}`
    : "not inspected: a send or control to a stable inbox token needs no lookup";
  say(`     hook      ${token}  (${inspected})`);
  say(`     target    ${show(n.target)}`);
  say(`     wire      ${show(wire)}`);
  say(`     recorded  ${show(last.value ?? last)}`);
}

const command = {
  kind: "send",
  payload: { message: "Where is my order #1042?" },
  delivery: { channelKind: "web", channelName: "support", deliveryId: "d-1", acceptedDeploymentId: "dpl-6" },
  requestId: "req-7",
};
const stamped = await p.api.start(p.workflow("sessionDriver"), ["demo-session"]);
await p.hook("demo-session");
await deliver("a current session (stamped 6, decodes with this build's pkg/)", "demo-session", command, stamped.runId, 1);

const pinned = await p.api.start(p.workflow("sessionDriverV1"), ["demo-pinned"]);
await p.hook("demo-pinned");
await deliver("a session pinned to a version 1 build (stamped 1, decodes with that build's decoder)", "demo-pinned", command, pinned.runId, 1);
const cancel = { kind: "cancel", turnId: "turn-3", tasks: true };
try {
  const n = await encoder.negotiate(cancel, { token: "demo-pinned" }, p.lookup);
  encoder.encode(cancel, n.target);
  say("   (unexpectedly encoded)");
} catch (e) {
  say(`   the same pinned session, asked to cancel a turn's tasks: ${show(cancel)}`);
  say(`     refused   ${e.code} at ${e.path} (version ${e.version}): nothing was written, the session never sees half a cancel`);
}

const rawSend = await p.api.start(p.workflow("legacyStableInbox"), []);
const stable = encoder.stableInboxToken(rawSend.runId);
await p.hook(stable);
await deliver("a 0.30.5–0.31.0 consumer (markerless stable inbox, reads .payload)", stable, command, rawSend.runId, 1);

const legacy = await p.api.start(p.workflow("legacyContinuation"), ["demo-continuation"]);
await p.hook("demo-continuation");
await deliver("a ≤ 0.30.4 consumer (markerless continuation, reads the deliver envelope)", "demo-continuation", command, legacy.runId, 1);

const hook = await p.hook("demo-session");
const newer = { kind: "deliver", version: 7, payloads: [{ message: "from a newer deployment" }], payload: {} };
await p.api.resumeHook(hook, newer);
const steps = await p.waitSteps(stamped.runId, 2);
say("   a payload this build cannot read, resumed directly");
say(`     wire      ${show(newer)}`);
say(`     reported  ${steps[1].code}: ${steps[1].message}`);
await deliver("… and the session, still parked, takes the next message", "demo-session", { kind: "send", payload: { message: "Thanks!" } }, stamped.runId, 3);
say(`   run status: ${(await p.world.runs.get(stamped.runId)).status} (parked on its hook)`);
say(`   (decode of the first wire value, for comparison, outside the VM: ${show(decoder.decode(encoder.encode(command)))})`);
await server.stop();
await p.close();

say("\n7. What a decoder adds to the workflow bundle (built by `workflow build`, inline source maps included):\n");
execFileSync(process.execPath, [join(here, "bench.mjs"), "--sizes-only"], { stdio: "inherit" });
process.exit(0);
