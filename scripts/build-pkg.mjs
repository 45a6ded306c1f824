// Build pkg/: wasm-pack compiles the no_std decoder (feature `wasm`), binaryen's wasm-opt
// shrinks it (a names-kept copy goes to target/wasm/ for twiggy), and esbuild inlines the
// bytes and the wasm-bindgen glue into one CommonJS entry that instantiates synchronously.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "pkg");
const work = join(root, "target", "wasm");
const bin = (name) => join(root, "node_modules", ".bin", name);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"] });

export const WASM_FEATURES = [
  "--enable-reference-types",
  "--enable-bulk-memory",
  "--enable-sign-ext",
  "--enable-nontrapping-float-to-int",
  "--enable-mutable-globals",
  "--enable-multivalue",
];


rmSync(pkg, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
run("wasm-pack", [
  "build", "--release", "--target", "bundler", "--out-dir", "pkg", "--out-name", "hookwire", "--no-pack",
  "--", "--no-default-features", "--features", "wasm",
]);

const raw = join(pkg, "hookwire_bg.wasm");
const named = join(work, "hookwire.names.wasm");
const shipped = join(work, "hookwire.wasm");
run(bin("wasm-opt"), [raw, "-Oz", ...WASM_FEATURES, "-g", "-o", named]);
// The shipped module: stripped, and its import/export names minified (they would otherwise be
// paid twice, in the wasm and in the glue); the JS side gets the name map below.
const map = JSON.parse(
  execFileSync(bin("wasm-opt"), [
    named, "-Oz", ...WASM_FEATURES, "--strip-debug", "--strip-producers", "--strip-target-features",
    "--minify-imports-and-exports-and-modules", "-o", shipped,
  ], { cwd: root, encoding: "utf8" }),
);

const bytes = readFileSync(shipped);
const inline = join(work, "inline.js");
// Each import comes from the wasm-bindgen glue or straight from js/host.js (wasm-bindgen imports
// a function directly when it needs no shim); all of them get their minified names.
const sources = { "./hookwire_bg.js": "hookwire:glue", "hookwire:host": "hookwire:host" };
const lines = [];
const fields = [];
map.imports.forEach(([module, name, short], i) => {
  if (!sources[module]) throw new Error(`unexpected wasm import module ${module}`);
  lines.push(`import { ${name} as i${i} } from "${sources[module]}";`);
  fields.push(`${short}: i${i}`);
});
writeFileSync(
  inline,
  lines.join("\n") +
    `\nexport const WASM_BASE64 = ${JSON.stringify(bytes.toString("base64"))};\n` +
    `export const IMPORTS = { a: { ${fields.join(", ")} } };\n` +
    `export const exportsOf = (e) => ({ ${map.exports.map(([name, short]) => `${name}: e.${short}`).join(", ")} });\n`,
);
// Bundle as ESM, then turn the single trailing `export{…}` into `module.exports={…}`: the same
// CommonJS file esbuild's cjs format would give, without its ~0.5 KB of interop helpers. Node's
// cjs-module-lexer reads the literal, so `import { decode } from "hookwire"` works too.
const esbuild = await import("esbuild");
const built = await esbuild.build({
  entryPoints: [join(root, "js", "entry.js")],
  write: false,
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  minify: true,
  legalComments: "none",
  alias: { "hookwire:glue": join(work, "glue.js"), "hookwire:wasm": inline, "hookwire:host": join(root, "js", "host.js") },
  logLevel: "warning",
});
const esm = built.outputFiles[0].text;
const tail = /export\{([^}]*)\};?\s*$/.exec(esm);
if (!tail || esm.indexOf("export{") !== tail.index) throw new Error("expected exactly one trailing export statement");
const entries = tail[1].split(",").map((pair) => {
  const [local, exported = local] = pair.trim().split(/\s+as\s+/);
  return `${exported}:${local}`;
});
writeFileSync(join(pkg, "hookwire.cjs"), `${esm.slice(0, tail.index)}module.exports={${entries.join(",")}};\n`);

for (const f of ["hookwire.js", "hookwire_bg.js", "hookwire_bg.wasm.d.ts", "hookwire.d.ts", ".gitignore"]) {
  rmSync(join(pkg, f), { force: true });
}
copyFileSync(shipped, raw);
const dts = readFileSync(join(root, "js", "hookwire.d.ts"));
writeFileSync(join(pkg, "hookwire.d.ts"), dts);
writeFileSync(join(pkg, "hookwire.d.cts"), dts);
const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
const version = /^version = "([^"]+)"/m.exec(cargo)[1];
writeFileSync(
  join(pkg, "package.json"),
  JSON.stringify(
    {
      name: "hookwire",
      version,
      description: "The session inbox decoder: a tiny synchronous WebAssembly module for workflow bundles.",
      license: "MIT OR Apache-2.0",
      main: "./hookwire.cjs",
      types: "./hookwire.d.ts",
      exports: { ".": "./hookwire.cjs", "./package.json": "./package.json" },
      files: ["hookwire.cjs", "hookwire.d.ts", "hookwire.d.cts", "hookwire_bg.wasm"],
      sideEffects: false,
    },
    null,
    2,
  ) + "\n",
);
writeFileSync(join(pkg, ".gitignore"), "*\n");
console.log(`pkg/: hookwire.cjs ${readFileSync(join(pkg, "hookwire.cjs")).length} B, wasm ${bytes.length} B`);
