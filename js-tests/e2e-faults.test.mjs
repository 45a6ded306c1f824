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
  const { faults } = await import(join(root, "e2e", "faults.mjs"));
  faults(cluster, await freePort());
  // Registered after the scenario's own `after`, so the worlds are closed before the cluster goes.
  after(() => cluster.drop());
} else {
  console.error(`\n!!! PostgreSQL could not be had on this machine (${why}): the fault suite is SKIPPED !!!\n`);
  test("world-postgres faults", { skip: `PostgreSQL could not be had: ${why}` }, () => {});
}
