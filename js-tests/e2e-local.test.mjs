// The end-to-end suite (e2e/suite.mjs) on world-local.
import { join } from "node:path";
import { root } from "./helpers.mjs";

const { suite } = await import(join(root, "e2e", "suite.mjs"));
suite("world-local", 39100 + (process.pid % 400));
