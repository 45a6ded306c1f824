// The generated TypeScript declarations of pkg/ compile against a consumer's code
// (js-tests/types/usage.ts), in strict mode, with the package resolved by its exports.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

test("the Standard Schemas type as @standard-schema/spec's StandardSchemaV1 and type the Workflow SDK's defineHook", (t) => {
  const workflow = join(root, "e2e", "node_modules", "workflow");
  if (!existsSync(workflow)) {
    t.skip("the Workflow SDK is not installed (scripts/setup.sh installs it in e2e/)");
    return;
  }
  const app = join(root, "target", "js-tests", "types-standard-schema");
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, "node_modules", "@standard-schema"), { recursive: true });
  symlinkSync(pkgDir, join(app, "node_modules", "hookwire"), "dir");
  symlinkSync(join(root, "node_modules", "@standard-schema", "spec"), join(app, "node_modules", "@standard-schema", "spec"), "dir");
  symlinkSync(workflow, join(app, "node_modules", "workflow"), "dir");
  copyFileSync(join(root, "js-tests", "types", "standard-schema.ts"), join(app, "standard-schema.ts"));
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      // The SDK's own declarations are not this package's to check (skipLibCheck); hookwire's
      // are checked by the test above.
      compilerOptions: { strict: true, noEmit: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", lib: ["es2022", "dom"], skipLibCheck: true, types: [] },
      files: ["standard-schema.ts"],
    }),
  );
  const tsc = spawnSync(join(root, "node_modules", ".bin", "tsc"), ["-p", join(app, "tsconfig.json")], { encoding: "utf8", cwd: app });
  assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);
});
