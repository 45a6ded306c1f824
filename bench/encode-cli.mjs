// `hookwire encode --lines` end to end: 200,000 request lines through the release CLI, printed as
// lines per second (one JSON line). `node bench/encode-cli.mjs [BINARY]` times another build.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const { commands } = JSON.parse(readFileSync(join(here, "commands.json"), "utf8"));
const targets = [{ version: 1 }, { version: 0, variant: "deliver" }, { version: 0, variant: "send" }];
const n = 200_000;
const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ command: commands[i % commands.length], target: targets[i % 3] })).join("\n") + "\n";
const bin = process.argv[2] ?? join(here, "..", "target", "release", "hookwire");
const start = performance.now();
const out = execFileSync(bin, ["encode", "--lines"], { input: lines, maxBuffer: 1 << 30, encoding: "utf8" });
const seconds = (performance.now() - start) / 1000;
if (out.split("\n").length - 1 !== n) throw new Error("one line out per line in");
console.log(JSON.stringify({ linesPerSec: n / seconds }));
