// The generated TypeScript declarations of pkg/ compile against a consumer's code
// (js-tests/types/usage.ts), in strict mode, with the package resolved by its exports.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { pkgDir, root } from "./helpers.mjs";

test("pkg/hookwire.d.ts types a consumer in strict mode", () => {
  const app = join(root, "target", "js-tests", "types");
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, "node_modules"), { recursive: true });
  symlinkSync(pkgDir, join(app, "node_modules", "hookwire"), "dir");
  copyFileSync(join(root, "js-tests", "types", "usage.ts"), join(app, "usage.ts"));
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"], skipLibCheck: false, types: [] },
      files: ["usage.ts"],
    }),
  );
  const tsc = spawnSync(join(root, "node_modules", ".bin", "tsc"), ["-p", join(app, "tsconfig.json")], { encoding: "utf8", cwd: app });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});
