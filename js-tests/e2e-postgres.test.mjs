// The end-to-end suite (e2e/suite.mjs) on world-postgres, the World that spans machines:
// PostgreSQL on loopback is installed and started when it is not running, the schema is
// bootstrapped, and what this file started is stopped at the end. Where PostgreSQL cannot be had,
// the suite says so loudly and is skipped; the rest of the tests still run.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { after, test } from "node:test";
import { root } from "./helpers.mjs";

let url = null;
let why = "";
try {
  url = execFileSync(join(root, "scripts", "postgres.sh"), ["start"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 600_000 })
    .trim()
    .split("\n")
    .pop();
} catch (e) {
  why = String(e.message).split("\n")[0];
}

if (url) {
  process.env.WORKFLOW_POSTGRES_URL = url;
  const { suite } = await import(join(root, "e2e", "suite.mjs"));
  const { freePort } = await import(join(root, "e2e", "cluster.mjs"));
  // A free port, as the world-local suite takes one (see there).
  suite("world-postgres", await freePort());
  // Registered after the suite's own `after`, so the worlds are closed before the database stops.
  after(() => execFileSync(join(root, "scripts", "postgres.sh"), ["stop"], { stdio: "inherit" }));
} else {
  console.error(`\n!!! PostgreSQL could not be had on this machine (${why}): the world-postgres end-to-end suite is SKIPPED !!!\n`);
  test("world-postgres end-to-end suite", { skip: `PostgreSQL could not be had: ${why}` }, () => {});
}
