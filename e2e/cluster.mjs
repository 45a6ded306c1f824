// A PostgreSQL server of a suite's own (scripts/postgres.sh cluster): the suites that restart
// PostgreSQL, or run beside the shared world-postgres suite, get their own cluster on a free port,
// created afresh and dropped at the end.
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { createServer } from "node:net";
import { join } from "node:path";
import { here } from "./harness.mjs";

const script = join(here, "..", "scripts", "postgres.sh");
const run = (...args) => execFileSync(script, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 600_000 });
// Asynchronous, so that the producers and servers of this process keep running meanwhile.
const runAsync = (...args) => promisify(execFile)(script, args, { timeout: 120_000 });

/** A free TCP port on loopback. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer().once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/**
 * Create and start cluster `name`; returns its URL, `stop()` and `start()` (promises: a real stop
 * and start of that PostgreSQL server) and `drop()`.
 */
export async function privateCluster(name) {
  const url = run("cluster", name, String(await freePort())).trim().split("\n").pop();
  return { url, stop: () => runAsync("cluster-stop", name), start: () => runAsync("cluster-start", name), drop: () => run("cluster-drop", name) };
}
