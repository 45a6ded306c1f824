// The end-to-end harness: builds the workflows with the SDK's own builder, runs the app server
// (server.mjs) as a child process, and gives the producer side — this process — a world on the
// same data directory, so it can start runs, inspect hooks and resume them as a real producer.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { pinned, postgresWorld } from "./deployments.mjs";

export const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// The app imports "hookwire" as a package: point it at this checkout's pkg/. Every e2e test file
// imports this module, several at once: the link is made only when it is not already this one,
// and a file that loses the race to make it takes the winner's.
const link = join(here, "node_modules", "hookwire");
const pkgDir = join(here, "..", "pkg");
let linked = null;
try {
  linked = readlinkSync(link);
} catch {}
if (linked !== pkgDir) {
  rmSync(link, { recursive: true, force: true });
  try {
    symlinkSync(pkgDir, link, "dir");
  } catch (e) {
    if (e.code !== "EEXIST" || readlinkSync(link) !== pkgDir) throw e;
  }
}
export const encoder = require("hookwire/encoder");
export const decoder = require("hookwire");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The rows a query answers on world-postgres's database, on a connection of its own (the world's pool may be broken). */
export async function sql(text, values) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: process.env.WORKFLOW_POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Frees the queue jobs (and their queues) a dead worker of world-postgres still holds:
 * graphile-worker keeps a job locked by a worker that died (its app server killed, or crashed
 * when the database went away) for four hours, and runs no locked job, nor any later job of its
 * queue, before then. A delivery here takes milliseconds, so a lock held past 20 s is a dead
 * worker's; its workers are released the way graphile-worker documents for a worker known dead
 * (`force_unlock_workers`). Answers the jobs released.
 */
async function releaseDeadWorkers() {
  const [dead] = await sql(
    "select array_agg(distinct locked_by) as workers, count(*)::int as jobs from graphile_worker.jobs where locked_at < now() - interval '20 seconds'",
  );
  if (dead.jobs > 0) await sql("select graphile_worker.force_unlock_workers($1)", [dead.workers]);
  return dead.jobs;
}

/**
 * What an operator does for world-postgres's queue after a server died: its locked jobs
 * released, then the jobs out of attempts run again. Answers the counts of both.
 */
export async function recoverQueue() {
  return { released: await releaseDeadWorkers(), retried: await retrySpentJobs() };
}

/**
 * Runs again the queue jobs of world-postgres that ran out of attempts: a job gets 3, about 10 s
 * apart in all, so one whose app server was down longer (killed, then restarted) is dropped for
 * good, and a step job dropped so leaves its run waiting on a step that started and will never
 * end (re-enqueueing the run replays it to the same wait). A job out of attempts and not locked
 * is given them back and made due now (graphile-worker's `reschedule_jobs`). Answers the jobs.
 */
async function retrySpentJobs() {
  const [spent] = await sql("select array_agg(id) as ids, count(*)::int as jobs from graphile_worker.jobs where locked_at is null and attempts >= max_attempts");
  if (spent.jobs > 0) await sql("select count(*) from graphile_worker.reschedule_jobs($1::bigint[], run_at => now(), attempts => 0)", [spent.ids]);
  return spent.jobs;
}

/** Build e2e/app (or another app folder) with `workflow build` (the standalone target). */
export function build(app = join(here, "app")) {
  execFileSync(process.execPath, [join(here, "node_modules", "workflow", "bin", "run.js"), "build"], { cwd: app, stdio: ["ignore", "ignore", "inherit"] });
  writeFileSync(join(app, ".well-known", "workflow", "v1", "package.json"), '{"type":"commonjs"}\n');
}

/** A copy of e2e/app (its sources, not its build) as e2e/builds/<name>, to be built on its own. */
export function appCopy(name) {
  const dir = join(here, "builds", name);
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(here, "app"), dir, { recursive: true, filter: (src) => !/[\\/]\.(well-known|swc)$/.test(src) });
  return dir;
}

/**
 * One build of the session driver of template/session.js, as its own app in e2e/builds/<name>,
 * with `hookwire` imported from `entry` (a package name or a file).
 */
export function buildSessionApp(name, entry) {
  const dir = join(here, "builds", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "workflows"), { recursive: true });
  writeFileSync(join(dir, "package.json"), `{ "name": "hookwire-e2e-${name}", "private": true, "type": "module" }\n`);
  const source = readFileSync(join(here, "template", "session.js"), "utf8");
  writeFileSync(join(dir, "workflows", "session.js"), source.replace('from "hookwire"', `from ${JSON.stringify(entry)}`));
  build(dir);
  return dir;
}

/**
 * The app server as a child process; resolves once it listens. With `deployment` (world-postgres)
 * it serves the runs pinned to that deployment id only (deployments.mjs). With `supervised`, it
 * runs the way a process supervisor runs a service: whenever it exits without being stopped
 * (killed, or crashed), it is started again half a second later; `restarts()` counts them and
 * `ready()` resolves once the current process listens.
 */
export async function startServer(port, dataDir, app = join(here, "app"), { deployment, supervised = false } = {}) {
  mkdirSync(dataDir, { recursive: true });
  const env = { ...process.env, ...(deployment ? { HOOKWIRE_E2E_DEPLOYMENT: deployment } : {}) };
  let log = "";
  let child;
  let ready;
  let stopping = false;
  let restarts = 0;
  const launch = () => {
    child = spawn(process.execPath, [join(here, "server.mjs"), String(port), dataDir, app], { stdio: ["ignore", "pipe", "pipe"], env });
    child.stderr.on("data", (d) => (log += d));
    ready = new Promise((resolve, reject) => {
      child.stdout.on("data", (d) => String(d).includes("ready") && resolve());
      child.on("exit", (code, signal) => {
        reject(new Error(`server exited (${code ?? signal}): ${log}`));
        if (supervised && !stopping) {
          restarts++;
          log += `\n[supervisor] exited (${code ?? signal}); starting it again\n`;
          setTimeout(() => stopping || launch(), 500);
        }
      });
    });
    ready.catch(() => {});
  };
  launch();
  await ready;
  // A stop that the server does not answer within 10 s becomes a kill.
  const end = (signal) =>
    new Promise((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r();
      const c = child;
      const force = setTimeout(() => c.kill("SIGKILL"), 10_000);
      c.once("exit", () => (clearTimeout(force), r()));
      c.kill(signal);
    });
  return {
    get child() {
      return child;
    },
    log: () => log,
    restarts: () => restarts,
    ready: async () => {
      for (;;) {
        const current = ready;
        try {
          return await current;
        } catch (e) {
          if (!supervised || stopping) throw e;
          await new Promise((r) => setTimeout(r, 600));
        }
      }
    },
    stop: () => ((stopping = true), end("SIGTERM")),
    kill: () => end("SIGKILL"),
  };
}

/**
 * The producer's side: one world shared with the server (the same data directory for world-local,
 * the same database for world-postgres when WORKFLOW_POSTGRES_URL is set), and the SDK's API.
 * With `deployments` ({ id: port of its app server }, world-postgres), each message goes to the
 * deployment of its run (deployments.mjs), and runs start on `deployment` unless `start` is given
 * another `deploymentId`.
 */
export async function producer(port, dataDir, { deployments, deployment } = {}) {
  const { setWorld } = await import("@workflow/core/runtime");
  let world;
  if (deployments) {
    const worlds = {};
    for (const [id, p] of Object.entries(deployments)) {
      process.env.PORT = String(p); // where this world's queue runner delivers
      worlds[id] = await postgresWorld(id);
    }
    world = pinned(worlds, deployment);
  }
  process.env.PORT = String(port);
  world ??= process.env.WORKFLOW_POSTGRES_URL
    ? await postgresWorld()
    : (await import("@workflow/world-local")).createLocalWorld({ dataDir, port });
  setWorld(world);
  const api = await import("workflow/api");
  const devalue = await import("devalue");
  const workflow = (name, file = "session") => ({ workflowId: `workflow//./workflows/${file}//${name}` });

  /** A hook by token, waiting for the run to register it. */
  async function hook(token, timeout = 60_000) {
    const until = Date.now() + timeout;
    for (;;) {
      try {
        return await api.getHookByToken(token);
      } catch (e) {
        if (Date.now() > until) throw e;
        await sleep(25);
      }
    }
  }

  /**
   * getHookByToken as negotiation's lookup: the hook, or null when the world says there is none.
   * Any other failure propagates, and negotiation refuses with LOOKUP_FAILED: a transient error
   * taken for "not found" would pick the legacy shape for a consumer that cannot read it.
   */
  async function lookup(token) {
    try {
      return await api.getHookByToken(token);
    } catch (e) {
      if (e?.name === "HookNotFoundError") return null;
      throw e;
    }
  }

  /** The decoded outputs of a run's steps, oldest first. */
  async function steps(runId) {
    const out = [];
    let cursor;
    do {
      const page = await world.steps.list({ runId, resolveData: "all", pagination: { limit: 1000, cursor } });
      out.push(...page.data);
      cursor = page.hasMore ? page.cursor : undefined;
    } while (cursor);
    out.sort((a, b) => new Date(a.createdAt) - new Date(b.createdAt) || String(a.stepId).localeCompare(String(b.stepId)));
    return out
      .filter((s) => s.status === "completed")
      .map((s) => ({
        name: s.stepName.split("//").pop(),
        createdAt: s.createdAt,
        completedAt: s.completedAt,
        ...devalue.parse(Buffer.from(s.output).toString("utf8").slice(4)),
      }));
  }

  /** Wait until `runId` has at least `n` completed steps; returns them. */
  async function waitSteps(runId, n, timeout = 120_000, every = 50) {
    const until = Date.now() + timeout;
    for (;;) {
      const s = await steps(runId);
      if (s.length >= n || Date.now() > until) return s;
      await sleep(every);
    }
  }

  /** Wait until `runId`'s event log holds at least `n` events of type `type`; returns how many it holds. */
  async function waitEvents(runId, type, n, timeout = 60_000, every = 50) {
    const until = Date.now() + timeout;
    for (;;) {
      const events = (await world.events.list({ runId, resolveData: "none", pagination: { limit: 10_000 } })).data;
      const found = events.filter((e) => e.eventType === type).length;
      if (found >= n || Date.now() > until) return found;
      await sleep(every);
    }
  }

  /**
   * What a stalled run holds: its status, its events by type and the last six, its steps by
   * status and each one that did not complete.
   */
  async function diagnose(runId) {
    const count = (list, of) => list.reduce((n, x) => ((n[of(x)] = (n[of(x)] ?? 0) + 1), n), {});
    const events = (await world.events.list({ runId, resolveData: "none", pagination: { limit: 10_000 } })).data;
    const steps = (await world.steps.list({ runId, resolveData: "none", pagination: { limit: 10_000 } })).data;
    return [
      `run ${runId} (${(await world.runs.get(runId)).status})`,
      `events: ${JSON.stringify(count(events, (e) => e.eventType))}; last: ${events.slice(-6).map((e) => `${e.eventType}(${e.correlationId ?? ""})`).join(", ")}`,
      `steps: ${JSON.stringify(count(steps, (s) => s.status))}`,
      ...steps.filter((s) => s.status !== "completed").map((s) => `step ${s.stepId}: ${s.status}, attempt ${s.attempt}`),
    ].join("\n");
  }

  return { world, api, workflow, hook, lookup, steps, waitSteps, waitEvents, diagnose, close: () => world.close?.() };
}
