// A rolling deploy on one world-postgres database (js-tests/e2e-rolling.test.mjs): two builds of
// the same session workflow (template/session.js) — the old one with the frozen version 1
// package of fixtures/hookwire-v1/, the new one with pkg/ — each served by its own app server,
// with sessions parked on each. Producers of both builds send mixed commands concurrently:
//   old      the old build's producer: the frozen version 1 encoder, commands of its era;
//   half     the new build's producer while it is half rolled out: pkg/encoder.cjs with a write
//            ceiling of 1 (`writeAtMost: 1`), so whatever it writes the old build can read;
//   promoted the new build's producer once promoted: no ceiling.
// Phases: (A) both builds live, `old` and `half` send; (B) rollback: the new build's server goes
// away and the old build serves its deployment, so the old decoder replays and continues the
// sessions the new build started; `old` and `half` send again; (C) roll forward and promote: the
// new build serves its deployment again, `promoted` sends.
// Runs are pinned to their deployment by deployments.mjs (world-postgres cannot pin them: see
// there). Every message must be recorded exactly once, by the build its session runs on at that
// moment; what an old session cannot carry is refused with INCOMPATIBLE, and what the old encoder
// cannot write for a newer session with UNSUPPORTED_TARGET — in both cases nothing is written.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { buildSessionApp, decoder, encoder, here, producer, startServer } from "./harness.mjs";

const require = createRequire(import.meta.url);
const FIXTURE = join(here, "fixtures", "hookwire-v1");
const v1 = { decoder: require(join(FIXTURE, "hookwire.cjs")), encoder: require(join(FIXTURE, "encoder.cjs")) };
const OLD = "dpl-old";
const NEW = "dpl-new";
const SESSIONS = 3; // per deployment

/** Commands with a marker: `era` 1 is what a version 1 producer knows; `era` 6 uses versions 2–6. */
const COMMANDS = [
  { era: 1, make: (m) => ({ kind: "send", payload: { message: m }, requestId: m }) },
  { era: 1, make: (m) => ({ kind: "deliver", payloads: [{ message: m }, { message: "and more" }], turnPolicy: "queue" }) },
  { era: 1, make: (m) => ({ kind: "cancel", taskId: m }) },
  { era: 6, make: (m) => ({ kind: "send", payload: { message: m }, caller: { callId: "c", subagentName: "s", replyTo: { kind: "hook", token: "r" }, activityObserver: { sink: { url: "https://observe.example/a", version: 1 } } } }) },
  { era: 6, make: (m) => ({ kind: "send", payload: { message: m }, delivery: { channelKind: "web", channelName: "support", deliveryId: "d-1", acceptedDeploymentId: NEW } }) },
  { era: 6, make: (m) => ({ kind: "cancel", taskId: m, tasks: false }) },
  { era: 6, make: (m) => ({ kind: "cancel", turnId: m, tasks: true }) }, // INCOMPATIBLE below version 6
  { era: 6, make: (m) => ({ kind: "send", payload: { message: m, task: { agentRequests: [{ replyTo: "r", taskId: "t", request: { kind: "agent-settled", result: {} } }] } } }) }, // below 4
  { era: 1, make: (m) => ({ kind: "reset", reason: m }) },
];

/** The markers in a decoded value (each command carries exactly one). */
const markerOf = (value) => JSON.stringify(value).match(/<[^<>]+>/g)?.[0];

export function rolling(ports) {
  let p;
  const servers = {};
  const runs = { [OLD]: [], [NEW]: [] };
  const figures = { sent: 0, recorded: 0, refusedIncompatible: 0, refusedUnsupported: 0, lost: 0, duplicated: 0, byBuild: { 1: 0, 6: 0 } };
  /** Per run: marker → { value, build } expected, and the hook_received count it must have. */
  const expected = new Map();
  let apps;

  before(async () => {
    apps = { old: buildSessionApp("old-v1", join(FIXTURE, "hookwire.cjs")), new: buildSessionApp("new", "hookwire") };
    servers[OLD] = await startServer(ports.old, join(here, "..", "target", "e2e", "rolling"), apps.old, { deployment: OLD });
    servers[NEW] = await startServer(ports.new, join(here, "..", "target", "e2e", "rolling"), apps.new, { deployment: NEW });
    p = await producer(ports.new, join(here, "..", "target", "e2e", "rolling"), { deployments: { [OLD]: ports.old, [NEW]: ports.new }, deployment: NEW });
  });
  after(async () => {
    await p?.close();
    for (const s of Object.values(servers)) await s?.stop();
  });

  /** Send `command` from `who` to `run`; records what must come of it. */
  async function send(who, run, command, build) {
    const enc = who === "old" ? v1.encoder : encoder;
    const options = who === "half" ? { writeAtMost: 1 } : undefined;
    const marker = markerOf(command);
    const want = expected.get(run.runId);
    figures.sent++;
    let n;
    let wire;
    try {
      n = who === "old" ? await enc.negotiate(command, { token: run.token }, p.lookup) : await enc.negotiate(command, { token: run.token }, p.lookup, options);
      wire = enc.encode(command, n.target);
    } catch (e) {
      if (e.code === "INCOMPATIBLE") figures.refusedIncompatible++;
      else if (e.code === "UNSUPPORTED_TARGET") figures.refusedUnsupported++;
      else throw e;
      want.refused.push([who, marker, e.code, n?.target?.version ?? null]);
      return;
    }
    want.values.set(marker, { value: build === 1 ? v1.decoder.decode(wire) : decoder.decode(wire), build, target: n.target.version });
    await p.api.resumeHook(n.resume.hook ?? n.resume.token, wire);
  }

  /** Every producer in `who` sends each command it knows to every session, all concurrently. */
  async function phase(name, who, builds) {
    await Promise.all(
      [...runs[OLD], ...runs[NEW]].flatMap((run) =>
        who.map(async (w) => {
          for (const [i, c] of COMMANDS.entries()) {
            if (w === "old" && c.era !== 1) continue;
            await send(w, run, c.make(`<${name}-${w}-${run.token}-${i}>`), builds[run.deployment]);
          }
        }),
      ),
    );
    for (const run of [...runs[OLD], ...runs[NEW]]) await settle(run);
  }

  /** Wait until every message written to `run` is recorded; check each one. */
  async function settle(run) {
    const want = expected.get(run.runId);
    const steps = await p.waitSteps(run.runId, want.values.size, 120_000);
    assert.deepEqual(steps.map((s) => s.n), Array.from({ length: want.values.size }, (_, k) => k + 1), `${run.token}: every message once`);
    const seen = new Set();
    for (const s of steps) {
      assert.equal(s.code, undefined, `${run.token} message ${s.n}: reported ${s.code}`);
      const marker = markerOf(s.value);
      assert.ok(want.values.has(marker), `${run.token}: ${marker} was never sent`);
      assert.ok(!seen.has(marker), `${run.token}: ${marker} recorded twice`);
      seen.add(marker);
      const { value, build } = want.values.get(marker);
      assert.deepEqual([s.build, s.value], [build, value], `${run.token}: ${marker}`);
    }
  }

  test("world-postgres: a rolling deploy — two builds on one database, mixed producers, a rollback and a promotion", { timeout: 600_000 }, async () => {
    assert.ok(readFileSync(join(FIXTURE, "hookwire.cjs")).equals(readFileSync(join(here, "app", "vendor", "hookwire-v1.cjs"))), "one frozen version 1 decoder");
    for (const deployment of [OLD, NEW]) {
      for (let i = 0; i < SESSIONS; i++) {
        const token = `roll-${deployment}-${i}`;
        const run = await p.api.start(p.workflow("session"), [token], { deploymentId: deployment });
        const hook = await p.hook(token);
        assert.deepEqual(hook.metadata, { sessionInboxWireVersion: deployment === OLD ? 1 : 6 });
        assert.equal((await p.world.runs.get(run.runId)).deploymentId, deployment);
        runs[deployment].push({ ...run, runId: run.runId, token, deployment });
        expected.set(run.runId, { values: new Map(), refused: [] });
      }
    }

    // (A) half rolled out: both builds serve their own sessions.
    await phase("A", ["old", "half"], { [OLD]: 1, [NEW]: 6 });
    // Everything written so far is readable by the build the new one may be rolled back to.
    for (const run of runs[NEW]) {
      for (const { target } of expected.get(run.runId).values.values()) assert.equal(target, 1, "the half-rolled-out build writes at most version 1");
    }

    // (B) rollback: the old build serves the new build's deployment; it replays those sessions.
    await servers[NEW].stop();
    servers[NEW] = await startServer(ports.new, join(here, "..", "target", "e2e", "rolling"), apps.old, { deployment: NEW });
    await phase("B", ["old", "half"], { [OLD]: 1, [NEW]: 1 });

    // (C) roll forward and promote: the new build again, the ceiling lifted.
    await servers[NEW].stop();
    servers[NEW] = await startServer(ports.new, join(here, "..", "target", "e2e", "rolling"), apps.new, { deployment: NEW });
    await phase("C", ["promoted"], { [OLD]: 1, [NEW]: 6 });

    // Figures, and what must hold for each session.
    for (const run of [...runs[OLD], ...runs[NEW]]) {
      const want = expected.get(run.runId);
      const steps = await p.steps(run.runId);
      const events = await p.world.events.list({ runId: run.runId, pagination: { limit: 1000 } });
      assert.equal(events.data.filter((e) => e.eventType === "hook_received").length, want.values.size, `${run.token}: a refusal writes nothing`);
      figures.recorded += steps.length;
      figures.duplicated += steps.length - new Set(steps.map((s) => markerOf(s.value))).size;
      for (const s of steps) figures.byBuild[s.build]++;
      assert.equal((await p.world.runs.get(run.runId)).status, "running");
      // The refusals, exactly: the old encoder cannot write for a session stamped 6; below
      // version 6 nothing carries tasks: true, below 4 no task operation.
      const refusals = want.refused.map(([who, marker, code, version]) => `${who} ${marker.split("-").pop().slice(0, -1)} ${code}`).sort();
      const wanted = [];
      for (const [phaseName, who] of [["A", ["old", "half"]], ["B", ["old", "half"]], ["C", ["promoted"]]]) {
        for (const w of who) {
          for (const [i, c] of COMMANDS.entries()) {
            if (w === "old" && c.era !== 1) continue;
            if (w === "old" && run.deployment === NEW) wanted.push(`${w} ${i} UNSUPPORTED_TARGET`);
            else if ((i === 6 || i === 7) && !(w === "promoted" && run.deployment === NEW)) wanted.push(`${w} ${i} INCOMPATIBLE`);
          }
        }
      }
      assert.deepEqual(refusals, wanted.sort(), `${run.token}: refusals`);
    }
    figures.lost = figures.sent - figures.refusedIncompatible - figures.refusedUnsupported - figures.recorded;
    console.log(
      `rolling deploy on world-postgres: sessions ${SESSIONS} old + ${SESSIONS} new, sent ${figures.sent}, recorded ${figures.recorded} ` +
        `(by the version 1 build ${figures.byBuild[1]}, by the version 6 build ${figures.byBuild[6]}), refused INCOMPATIBLE ${figures.refusedIncompatible}, ` +
        `refused UNSUPPORTED_TARGET ${figures.refusedUnsupported}, lost ${figures.lost}, duplicated ${figures.duplicated}`,
    );
    // Per session and phase: old 4 era-1 commands, half and promoted 9 commands each.
    const perOld = 4 + 9 + 4 + 9 + 9;
    assert.equal(figures.sent, SESSIONS * 2 * perOld);
    assert.equal(figures.refusedUnsupported, SESSIONS * 4 * 2);
    // Commands 6 and 7: from `half` to every session in A and B, from `promoted` to the old ones.
    assert.equal(figures.refusedIncompatible, 2 * 2 * (2 * SESSIONS) + 2 * SESSIONS);
    assert.equal(figures.lost, 0);
    assert.equal(figures.duplicated, 0);
  });
}
