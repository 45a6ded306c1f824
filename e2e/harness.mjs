// The end-to-end harness: builds the workflows with the SDK's own builder, runs the app server
// (server.mjs) as a child process, and gives the producer side — this process — a world on the
// same data directory, so it can start runs, inspect hooks and resume them as a real producer.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";

export const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// The app imports "hookwire" as a package: point it at this checkout's pkg/.
rmSync(join(here, "node_modules", "hookwire"), { recursive: true, force: true });
symlinkSync(join(here, "..", "pkg"), join(here, "node_modules", "hookwire"), "dir");
export const encoder = require("hookwire/encoder");
export const decoder = require("hookwire");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Build e2e/app with `workflow build` (the standalone target). */
export function build() {
  const app = join(here, "app");
  execFileSync(process.execPath, [join(here, "node_modules", "workflow", "bin", "run.js"), "build"], { cwd: app, stdio: ["ignore", "ignore", "inherit"] });
  writeFileSync(join(app, ".well-known", "workflow", "v1", "package.json"), '{"type":"commonjs"}\n');
}

/** The app server as a child process; resolves once it listens. */
export async function startServer(port, dataDir, app = join(here, "app")) {
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, [join(here, "server.mjs"), String(port), dataDir, app], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stderr.on("data", (d) => (log += d));
  await new Promise((resolve, reject) => {
    child.stdout.on("data", (d) => String(d).includes("ready") && resolve());
    child.on("exit", (code) => reject(new Error(`server exited (${code}): ${log}`)));
  });
  return {
    child,
    log: () => log,
    stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once("exit", r), child.kill("SIGTERM")))),
    kill: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once("exit", r), child.kill("SIGKILL")))),
  };
}

/**
 * The producer's side: one world shared with the server (the same data directory for world-local,
 * the same database for world-postgres when WORKFLOW_POSTGRES_URL is set), and the SDK's API.
 */
export async function producer(port, dataDir) {
  const { setWorld } = await import("@workflow/core/runtime");
  process.env.PORT = String(port);
  const world = process.env.WORKFLOW_POSTGRES_URL
    ? (await import("@workflow/world-postgres")).createWorld({ connectionString: process.env.WORKFLOW_POSTGRES_URL })
    : (await import("@workflow/world-local")).createLocalWorld({ dataDir, port });
  setWorld(world);
  const api = await import("workflow/api");
  const devalue = await import("devalue");
  const workflow = (name, file = "session") => ({ workflowId: `workflow//./workflows/${file}//${name}` });

  /** A hook by token, waiting for the run to register it. */
  async function hook(token, timeout = 15_000) {
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
  async function waitSteps(runId, n, timeout = 30_000, every = 50) {
    const until = Date.now() + timeout;
    for (;;) {
      const s = await steps(runId);
      if (s.length >= n || Date.now() > until) return s;
      await sleep(every);
    }
  }

  return { world, api, workflow, hook, lookup, steps, waitSteps, close: () => world.close?.() };
}
