// Faults under load on world-postgres (e2e/faults.mjs): PostgreSQL restarted mid-load, the app
// server killed while resumeHook calls are in flight. The suite stops and starts a PostgreSQL
// cluster of its own (e2e/cluster.mjs). Where PostgreSQL cannot be had, the suite says so loudly
// and is skipped; the rest of the tests still run.
import { join } from "node:path";
import { after, test } from "node:test";
import { root } from "./helpers.mjs";

const { privateCluster, freePort } = await import(join(root, "e2e", "cluster.mjs"));
let cluster = null;
let why = "";
try {
  cluster = await privateCluster(`hookwire-faults-${process.pid}`);
} catch (e) {
  why = String(e.message).split("\n")[0];
}

if (cluster) {
  process.env.WORKFLOW_POSTGRES_URL = cluster.url;
  // world-postgres's queue runner logs every connection the restart breaks, thousands of lines;
  // this keeps them out of the test output (the app servers' logs are kept by the harness).
  process.env.WORKFLOW_JSON_MODE = "1";
  const { faults } = await import(join(root, "e2e", "faults.mjs"));
  const registered = faults(cluster, await freePort());
  // Registered after the scenario's own `after`, so the worlds are closed before the cluster goes.
  after(() => {
    cluster.drop();
    // A pool client the restart broke can keep world-postgres from closing (its close stops at the
    // first failure): once everything is reported, do not wait for it (the test runner's own exit
    // code is only set when the process drains, hence the explicit one).
    setTimeout(() => process.exit(registered.passed() === registered.scenarios ? 0 : 1), 3000).unref();
  });
} else {
  console.error(`\n!!! PostgreSQL could not be had on this machine (${why}): the fault suite is SKIPPED !!!\n`);
  test("world-postgres faults", { skip: `PostgreSQL could not be had: ${why}` }, () => {});
}
