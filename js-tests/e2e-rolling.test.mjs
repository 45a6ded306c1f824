// A rolling deploy, end to end, on world-postgres (e2e/rolling.mjs), on a PostgreSQL cluster of
// its own (e2e/cluster.mjs). Where PostgreSQL cannot be had, the suite says so loudly and is
// skipped; the rest of the tests still run.
import { join } from "node:path";
import { after, test } from "node:test";
import { root } from "./helpers.mjs";

const { privateCluster, freePort } = await import(join(root, "e2e", "cluster.mjs"));
let cluster = null;
let why = "";
try {
  cluster = await privateCluster(`hookwire-rolling-${process.pid}`);
} catch (e) {
  why = String(e.message).split("\n")[0];
}

if (cluster) {
  process.env.WORKFLOW_POSTGRES_URL = cluster.url;
  const { rolling } = await import(join(root, "e2e", "rolling.mjs"));
  const old = await freePort();
  let fresh;
  do fresh = await freePort(); while (fresh === old);
  rolling({ old, new: fresh });
  // Registered after the scenario's own `after`, so the worlds are closed before the cluster goes.
  after(() => cluster.drop());
} else {
  console.error(`\n!!! PostgreSQL could not be had on this machine (${why}): the rolling-deploy suite is SKIPPED !!!\n`);
  test("world-postgres rolling deploy", { skip: `PostgreSQL could not be had: ${why}` }, () => {});
}
