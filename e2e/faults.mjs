// Faults under load on world-postgres (js-tests/e2e-faults.test.mjs): PostgreSQL stopped and
// started again mid-load, and the app server killed (SIGKILL) while producers' resumeHook calls
// are in flight. The session driver is template/session.js built with pkg/; the database is a
// cluster of the suite's own (cluster.mjs), so stopping it disturbs nothing else.
//
// A producer whose call fails does not know whether its payload was written: resumeHook writes
// the hook_received event, then enqueues the run. So it reads the run's events: when its payload
// is there, it only re-enqueues the run (reenqueueRun; the run replays and takes every received
// payload, so a lost wake-up costs nothing); otherwise it sends again. Nothing is sent twice.
// A run that stops gaining steps while it is short is re-enqueued the same way (the recovery
// sweep of `settle`), with what it was waiting on printed, after the queue jobs a dead worker
// still holds are released and the jobs that ran out of attempts are given them back
// (`recoverQueue` of harness.mjs). Counts of sent, recorded, lost and duplicated messages are
// printed and asserted, per fault; the sweeps are printed.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import * as devalue from "devalue";
import { buildSessionApp, decoder, encoder, here, producer, recoverQueue, sql, startServer } from "./harness.mjs";

const SESSIONS = 8;
const MESSAGES = 30;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Message j of a session: mixed kinds, each carrying its marker once. */
function command(marker, j) {
  switch (j % 5) {
    case 0:
      return { kind: "send", payload: { message: marker }, requestId: `r-${j}` };
    case 1:
      return { kind: "deliver", payloads: [{ message: marker }, { message: [{ type: "text", text: "and more" }] }], turnPolicy: "steer" };
    case 2:
      return { kind: "cancel", taskId: marker, tasks: false };
    case 3:
      return { kind: "send", payload: { message: marker, task: { views: [{ usage: { tokens: 3, costUsd: 0.01 } }] } } };
    default:
      return { kind: "reset", reason: marker };
  }
}
const markerOf = (value) => JSON.stringify(value).match(/<[^<>]+>/g)?.[0];

/** Registers the fault scenarios; answers how many of them passed (`passed()`). */
export function faults(cluster, port) {
  let passed = 0;
  let server;
  let p;
  let app;
  const DATA = join(here, "..", "target", "e2e", `faults-${process.pid}`);
  before(async () => {
    app = buildSessionApp("faults", "hookwire");
    server = await startServer(port, DATA, app, { supervised: true });
    p = await producer(port, DATA);
    const { reenqueueRun } = await import("@workflow/core/runtime");
    p.reenqueue = (runId) => reenqueueRun(p.world, runId);
  });
  after(async () => {
    await p?.close()?.catch(() => {}); // a pool client may still hold a connection the restart broke
    await server?.stop();
  });

  /** The markers of the payloads `runId` has received (hook_received events), with repeats. */
  async function received(runId) {
    const events = await p.world.events.list({ runId, resolveData: "all", pagination: { limit: 1000 } });
    return events.data
      .filter((e) => e.eventType === "hook_received")
      .map((e) => markerOf(devalue.parse(Buffer.from(e.eventData.payload).toString("utf8").slice(4)))); // "devl" + devalue
  }

  /**
   * What a run that stopped short is waiting on, printed before its assertion fails: what the
   * run holds (`diagnose` of harness.mjs), the queue's jobs still in the database (pending,
   * locked or failed; the runner deletes finished ones) and the app server's log tail.
   */
  async function stuck(run, done) {
    const lines = [`${run.token} (${run.runId}) stopped after ${done} of ${MESSAGES} steps`];
    try {
      lines.push(await p.diagnose(run.runId));
      const jobs = await sql(
        "select id, task_identifier, attempts, max_attempts, locked_at, locked_by, run_at, key, left(last_error, 160) as last_error from graphile_worker.jobs order by id",
      );
      lines.push(`queue jobs in the database: ${jobs.length}`);
      for (const j of jobs.slice(0, 24)) lines.push(`job ${JSON.stringify(j)}`);
    } catch (e) {
      lines.push(`(could not read more: ${e?.message ?? e})`);
    }
    lines.push(`app server log tail:\n${server.log().slice(-3000)}`);
    return lines.join("\n");
  }

  /**
   * Wait until `run` has `n` completed steps (or the time `until` comes); answers its steps. A
   * run that gains no step for 20 s while it is short is re-enqueued, the recovery sweep a
   * deployment runs (world-postgres does it once, when its app server starts): a queue job that a
   * killed worker held, or that ran out of attempts while the app server was down, can leave a run
   * parked with payloads it has not taken (or, a step job, waiting on a step that never ends):
   * such jobs are released and run again first (`recoverQueue`). What it was waiting on is
   * printed first; `figures.sweeps` counts. HOOKWIRE_SWEEP_MS shortens the 20 s (a few hundred ms sweeps nearly
   * every run: a way to see the sweep and its report work).
   */
  async function settle(run, n, figures, until) {
    let seen = -1;
    let since = Date.now();
    for (;;) {
      const steps = await p.steps(run.runId);
      if (steps.length >= n || Date.now() > until) {
        if (steps.length < n) console.log(await stuck(run, steps.length));
        return steps;
      }
      if (steps.length !== seen) [seen, since] = [steps.length, Date.now()];
      else if (Date.now() - since > (Number(process.env.HOOKWIRE_SWEEP_MS) || 20_000)) {
        console.log(await stuck(run, steps.length));
        const { released, retried } = await persist(recoverQueue);
        figures.released += released;
        figures.retried += retried;
        await persist(() => p.reenqueue(run.runId));
        figures.sweeps++;
        since = Date.now();
      }
      await sleep(100);
    }
  }

  /** Retry `fn` until it answers (the database may be down), for two minutes at most. */
  async function persist(fn) {
    const until = Date.now() + 120_000;
    for (;;) {
      try {
        return await fn();
      } catch (e) {
        if (Date.now() > until) throw e;
        await sleep(200);
      }
    }
  }

  /** Sessions × messages sent concurrently, each exactly once whatever fails; `fault` runs meanwhile. */
  async function load(name, fault) {
    const figures = { sent: 0, recorded: 0, lost: 0, duplicated: 0, failedCalls: 0, foundWritten: 0, sentAgain: 0, sweeps: 0, released: 0, retried: 0, restarts: server.restarts() };
    const runs = [];
    for (let i = 0; i < SESSIONS; i++) {
      const token = `${name}-${i}`;
      runs.push({ ...(await p.api.start(p.workflow("session"), [token])), token });
    }
    for (const run of runs) await p.hook(run.token);

    async function send(run, marker, cmd) {
      for (;;) {
        try {
          const n = await encoder.negotiate(cmd, { token: run.token }, p.lookup);
          await p.api.resumeHook(n.resume.hook ?? n.resume.token, encoder.encode(cmd, n.target));
          break;
        } catch (e) {
          if (e.code === "INCOMPATIBLE" || e.code === "INVALID") throw e;
          figures.failedCalls++;
          if ((await persist(() => received(run.runId))).includes(marker)) {
            figures.foundWritten++;
            await persist(() => p.reenqueue(run.runId));
            break;
          }
          figures.sentAgain++;
          await sleep(200);
        }
      }
      figures.sent++;
    }

    const faulted = fault(figures);
    await Promise.all(
      runs.map(async (run, i) => {
        for (let j = 0; j < MESSAGES; j++) await send(run, `<${name}-s${i}-m${j}>`, command(`<${name}-s${i}-m${j}>`, j));
      }),
    );
    const timeline = await faulted;

    // One deadline for every run to settle (the test's own timeout is longer, so a run still
    // short at the deadline is reported with what it was waiting on, not cut off).
    const until = Date.now() + 480_000;
    for (const [i, run] of runs.entries()) {
      const steps = await settle(run, MESSAGES, figures, until);
      const markers = await received(run.runId);
      figures.recorded += steps.length;
      figures.duplicated += markers.length - new Set(markers).size;
      assert.deepEqual(steps.map((s) => s.n), Array.from({ length: MESSAGES }, (_, k) => k + 1), `${run.token}: every message once, nothing more`);
      assert.deepEqual(
        steps.map((s) => markerOf(s.value)).sort(),
        Array.from({ length: MESSAGES }, (_, j) => `<${name}-s${i}-m${j}>`).sort(),
        `${run.token}: the messages sent, each recorded once`,
      );
      for (const s of steps) {
        const j = Number(/-m(\d+)>$/.exec(markerOf(s.value))[1]);
        assert.deepEqual(s.value, decoder.decode(encoder.encode(command(markerOf(s.value), j))), `${run.token}: ${markerOf(s.value)}`);
      }
      assert.equal(markers.length, MESSAGES, `${run.token}: each payload written once`);
    }
    // Every session answers afterwards.
    await Promise.all(runs.map((run) => send(run, `<${name}-probe>`, { kind: "send", payload: { message: `<${name}-probe>` } })));
    for (const run of runs) {
      const steps = await settle(run, MESSAGES + 1, figures, until);
      assert.equal(markerOf(steps[MESSAGES]?.value), `<${name}-probe>`, `${run.token} answers`);
      assert.equal((await p.world.runs.get(run.runId)).status, "running");
    }
    figures.restarts = server.restarts() - figures.restarts;
    figures.sent -= SESSIONS; // the probes are not part of the load
    figures.lost = figures.sent - figures.recorded;
    return { figures, timeline };
  }

  test("world-postgres: PostgreSQL stopped and started mid-load — nothing lost, nothing duplicated, every session answers", { timeout: 900_000 }, async () => {
    const total = SESSIONS * MESSAGES;
    const { figures, timeline } = await load("pg-restart", async (f) => {
      while (f.sent < total / 3) await sleep(20);
      // The messages sent before and still to send when the database went away (what the
      // producers finish while it restarts depends on timing, so it is not what is asserted).
      const before = f.sent;
      await cluster.stop();
      await sleep(2000);
      await cluster.start();
      return { before, after: total - before };
    });
    console.log(
      `faults on world-postgres, PostgreSQL restarted after ${timeline.before} of ${total} messages: sent ${figures.sent}, recorded ${figures.recorded}, ` +
        `lost ${figures.lost}, duplicated ${figures.duplicated}; failed producer calls ${figures.failedCalls} (payload found written ${figures.foundWritten}, sent again ${figures.sentAgain}); ` +
        `parked runs re-enqueued by the recovery sweep ${figures.sweeps} (jobs of dead workers released ${figures.released}, jobs out of attempts run again ${figures.retried}); ` +
        `app server restarts by its supervisor ${figures.restarts}`,
    );
    assert.equal(figures.sent, total);
    assert.equal(figures.recorded, total);
    assert.equal(figures.lost, 0);
    assert.equal(figures.duplicated, 0);
    assert.ok(figures.failedCalls > 0, "the producers saw the database go away");
    assert.ok(timeline.before > 0 && timeline.after > 0, "the restart happened mid-load");
    passed++;
  });

  test("world-postgres: the app server killed while resumeHook calls are in flight — nothing lost, nothing duplicated, every session answers", { timeout: 900_000 }, async () => {
    const total = SESSIONS * MESSAGES;
    const { figures, timeline } = await load("server-kill", async (f) => {
      while (f.sent < total / 3) await sleep(5); // a resumeHook has just returned; others are in flight
      const before = f.sent;
      await server.kill();
      await server.ready(); // its supervisor starts it again
      return { before, after: total - before };
    });
    console.log(
      `faults on world-postgres, app server killed after ${timeline.before} of ${total} messages: sent ${figures.sent}, recorded ${figures.recorded}, ` +
        `lost ${figures.lost}, duplicated ${figures.duplicated}; failed producer calls ${figures.failedCalls}; ` +
        `parked runs re-enqueued by the recovery sweep ${figures.sweeps} (jobs of dead workers released ${figures.released}, jobs out of attempts run again ${figures.retried}); app server restarts by its supervisor ${figures.restarts}`,
    );
    assert.equal(figures.sent, total);
    assert.equal(figures.recorded, total);
    assert.equal(figures.lost, 0);
    assert.equal(figures.duplicated, 0);
    assert.equal(figures.restarts, 1, "killed once, started again once");
    assert.ok(timeline.before > 0 && timeline.after > 0, "the kill happened mid-load");
    passed++;
  });
  return { passed: () => passed, scenarios: 2 };
}
