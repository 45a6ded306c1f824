// `hookwire encode --lines` end to end: 200,000 request lines through the release CLI, printed as
// lines per second (one JSON line). `node bench/encode-cli.mjs [BINARY]` times another build.
// The process reads the lines from a file and writes its answers to one, as `hookwire encode
// --lines < in > out` does: timed from its start to its exit, it is the CLI's own time, process
// start included. (Through Node's pipes, with the input written and the output collected as one
// string by this process, the same build measured about half as fast: the harness's time.)
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const { commands } = JSON.parse(readFileSync(join(here, "commands.json"), "utf8"));
const targets = [{ version: 1 }, { version: 0, variant: "deliver" }, { version: 0, variant: "send" }];
const n = 200_000;
const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ command: commands[i % commands.length], target: targets[i % 3] })).join("\n") + "\n";
const bin = process.argv[2] ?? join(here, "..", "target", "release", "hookwire");
const dir = mkdtempSync(join(tmpdir(), "hookwire-encode-cli-"));
try {
  writeFileSync(join(dir, "in"), lines);
  const [input, output] = [openSync(join(dir, "in"), "r"), openSync(join(dir, "out"), "w")];
  const start = performance.now();
  execFileSync(bin, ["encode", "--lines"], { stdio: [input, output, "inherit"] });
  const seconds = (performance.now() - start) / 1000;
  closeSync(input);
  closeSync(output);
  const out = readFileSync(join(dir, "out"), "utf8").split("\n");
  if (out.length - 1 !== n) throw new Error("one line out per line in");
  // Every line an answer: a valid command's wire value, a reject's refusal.
  const odd = out.slice(0, n).find((l) => !l.startsWith('{"ok":') && !l.startsWith('{"error":'));
  if (odd !== undefined) throw new Error(`not an answer: ${odd.slice(0, 80)}`);
  console.log(JSON.stringify({ linesPerSec: n / seconds }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
