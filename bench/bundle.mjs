// The workflow bundle of a contender, as every cold-start measurement evaluates it: what a
// bundler makes of `decode` and one call on `globalThis.input` (the result left in
// `globalThis.result`), one minified CommonJS script in bench/out/.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** Build contender `c`'s bundle (bench/contenders/`c`.mjs); answers its path. */
export async function bundle(c) {
  const esbuild = await import("esbuild");
  const outfile = join(here, "out", `${c}.cjs`);
  mkdirSync(dirname(outfile), { recursive: true });
  await esbuild.build({
    stdin: { contents: `import { decode } from "./contenders/${c}.mjs"; globalThis.result = decode(globalThis.input);`, resolveDir: here, loader: "js" },
    bundle: true, minify: true, format: "cjs", platform: "neutral", target: "es2022", outfile, logLevel: "silent",
    mainFields: ["module", "main"], conditions: ["import", "default"],
  });
  return outfile;
}
