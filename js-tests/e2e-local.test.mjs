// The end-to-end suite (e2e/suite.mjs) on world-local.
import { join } from "node:path";
import { root } from "./helpers.mjs";

const { suite } = await import(join(root, "e2e", "suite.mjs"));
const { freePort } = await import(join(root, "e2e", "cluster.mjs"));
// A port the system hands out as free: a fixed one in the ephemeral range (32768–60999 on Linux)
// can be the local end of another process's connection, and then the server cannot bind it.
suite("world-local", await freePort());
