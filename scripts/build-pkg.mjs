// Build pkg/. Three wasm modules from the workspace's wasm crates, each compiled by wasm-pack and shrunk by
// binaryen's wasm-opt (a names-kept copy goes to target/wasm/ for twiggy), then inlined by esbuild
// into a CommonJS entry that instantiates synchronously (the decoders as base-85 text that a
// 100-byte module, js/unpack.wat, turns back into bytes; the encoder as base64):
//   hookwire.cjs  the no_std decoder (feature `wasm`), the workflow-safe main entry;
//   turn-control.cjs  the turn-control decoder (feature `wasm-turn-control`);
//   module.{mjs,cjs}, turn-control-module.{mjs,cjs}  the same decoders without the inlined wasm,
//                 `init(module)` taking hookwire_bg.wasm / turn-control_bg.wasm precompiled;
//   encoder.cjs   the encoder and negotiation (feature `wasm-encoder`), for server and step code.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = join(root, "pkg");
const work = join(root, "target", "wasm");
const bin = (name) => join(root, "node_modules", ".bin", name);
const run = (cmd, args, env) => execFileSync(cmd, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } });

export const WASM_FEATURES = [
  "--enable-reference-types",
  "--enable-bulk-memory",
  "--enable-sign-ext",
  "--enable-nontrapping-float-to-int",
  "--enable-mutable-globals",
  "--enable-multivalue",
];

/** Base 85 over '#'..'x' without '\\' (js/unpack.wat reads it): 5 characters per little-endian word. */
function base85(bytes) {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const words = new DataView(padded.buffer);
  let text = "";
  for (let at = 0; at < padded.length; at += 4) {
    let word = words.getUint32(at, true);
    const digits = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(word % 85);
      word = Math.floor(word / 85);
    }
    for (const d of digits) text += String.fromCharCode(d < 57 ? 35 + d : 36 + d);
  }
  return text;
}

/** js/unpack.wat, assembled and optimized for size. */
function unpacker(binaryen) {
  const m = binaryen.parseText(readFileSync(join(root, "js", "unpack.wat"), "utf8"));
  binaryen.setOptimizeLevel(2);
  binaryen.setShrinkLevel(2);
  m.optimize();
  if (!m.validate()) throw new Error("js/unpack.wat does not validate");
  const bytes = m.emitBinary();
  m.dispose();
  return bytes;
}
const binaryen = (await import("binaryen")).default;
const UNPACK = unpacker(binaryen);

/** Exports wasm-bindgen adds that no JS of the package calls: left out of the name map. */
const UNUSED_EXPORTS = new Set(["__abort_handler", "__instance_terminated"]);

/** wasm-pack + wasm-opt for one feature set; returns the inline module's path and the wasm bytes. */
function compile(name, crate, feature, outDir, env = {}) {
  // An imported memory is one only this package makes (zero-filled, with the inline text unpacked
  // below the stack's top, where no data segment lies): wasm-opt may then drop the zeros of the
  // data segments as it does for a memory of the module's own.
  const zeroFilled = /--import-memory/.test(env.RUSTFLAGS ?? "") ? ["--zero-filled-memory"] : [];
  run("wasm-pack", [
    "build", crate, "--release", "--target", "bundler", "--out-dir", join(root, outDir), "--out-name", "hookwire", "--no-pack",
    "--", "--no-default-features", "--features", feature,
  ], env);
  const out = join(root, outDir);
  const named = join(work, `${name}.names.wasm`);
  const shipped = join(work, `${name}.wasm`);
  run(bin("wasm-opt"), [join(out, "hookwire_bg.wasm"), "-Oz", ...WASM_FEATURES, ...zeroFilled, "-g", "-o", named]);
  // The shipped module: stripped, and its import/export names minified (they would otherwise be
  // paid twice, in the wasm and in the glue); the JS side gets the name map below.
  const map = JSON.parse(
    execFileSync(bin("wasm-opt"), [
      named, "-Oz", ...WASM_FEATURES, ...zeroFilled, "--strip-debug", "--strip-producers", "--strip-target-features",
      "--minify-imports-and-exports-and-modules", "-o", shipped,
    ], { cwd: root, encoding: "utf8" }),
  );
  const bytes = readFileSync(shipped);
  const glue = join(work, `${name}.glue.js`);
  copyFileSync(join(out, "hookwire_bg.js"), glue);
  // Each import comes from the wasm-bindgen glue or straight from js/host.js (wasm-bindgen imports
  // a function directly when it needs no shim); all of them get their minified names.
  const sources = { "./hookwire_bg.js": "hookwire:glue", "hookwire:host": "hookwire:host" };
  const lines = [];
  const fields = [];
  // A decoder imports its memory (made by the glue): the inline text is unpacked in it, and a
  // re-instantiation swaps in a fresh one under MEMORY_KEY.
  let memory = "export const MEMORY = null;\nexport const MEMORY_KEY = null;";
  map.imports.forEach(([module, field, short], i) => {
    if (!sources[module]) throw new Error(`unexpected wasm import module ${module}`);
    lines.push(`import { ${field} as i${i} } from "${sources[module]}";`);
    fields.push(`${short}: i${i}`);
    if (field === "memory") memory = `export const MEMORY = i${i};\nexport const MEMORY_KEY = ${JSON.stringify(short)};`;
  });
  lines.push(memory);
  // The inline text is unpacked at address 0 of the decoder's memory, below its 64 KiB stack's
  // top and the data segments above it (js/inline.js relies on it).
  if (zeroFilled.length && base85(bytes).length > 65536) throw new Error(`${name}: the inline text no longer fits below the stack's top`);
  const inline = join(work, `${name}.inline.js`);
  writeFileSync(
    inline,
    lines.join("\n") +
      `\nexport const WASM_BASE64 = ${JSON.stringify(bytes.toString("base64"))};\n` +
      `export const WASM_TEXT = ${JSON.stringify(base85(bytes))};\n` +
      `export const WASM_LENGTH = ${bytes.length};\n` +
      `export const UNPACK = [${Array.from(UNPACK).join(",")}];\n` +
      `export const IMPORTS = { a: { ${fields.join(", ")} } };\n` +
      `export const exportsOf = (e) => ({ ${map.exports.filter(([field]) => !UNUSED_EXPORTS.has(field)).map(([field, short]) => `${field}: e.${short}`).join(", ")} });\n` +
      // What a precompiled module must export to be this entry's (js/init.js checks it).
      `export const EXPORT_NAMES = ${JSON.stringify(map.exports.filter(([field]) => !UNUSED_EXPORTS.has(field)).map(([, short]) => short))};\n`,
  );
  return { inline, glue, bytes };
}

rmSync(pkg, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const esbuild = await import("esbuild");
const aliases = (m, contract = "contract.js") => ({
  "hookwire:glue": m.glue,
  "hookwire:wasm": m.inline,
  "hookwire:host": join(root, "js", "host.js"),
  "hookwire:contract": join(root, "js", contract),
});

const VLQ = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const vlq = (n) => {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = "";
  do {
    const digit = v & 31;
    v >>>= 5;
    out += VLQ[v ? digit | 32 : digit];
  } while (v);
  return out;
};

/**
 * A source map that maps to lines, not columns: of each run of segments from the same source line
 * only the first is kept, and names are dropped. A workflow bundler inlines the map of every
 * module it bundles (the Workflow SDK's does), so the entry's map is paid in every workflow
 * bundle: this keeps a fifth of its segments, and a stack trace still names the right line.
 */
function lineGranular(map) {
  const lines = [];
  let [src, line, col] = [0, 0, 0];
  let [outSrc, outLine, outCol] = [0, 0, 0];
  let last = "";
  for (const text of map.mappings.split(";")) {
    const kept = [];
    let [gen, outGen] = [0, 0];
    for (const seg of text.split(",").filter(Boolean)) {
      const f = [];
      for (let i = 0, v = 0, shift = 0; i < seg.length; i++) {
        const d = VLQ.indexOf(seg[i]);
        v += (d & 31) << shift;
        if (d & 32) shift += 5;
        else (f.push(v & 1 ? -(v >>> 1) : v >>> 1), (v = 0), (shift = 0));
      }
      gen += f[0];
      if (f.length < 4) continue;
      [src, line, col] = [src + f[1], line + f[2], col + f[3]];
      const key = `${src}:${line}`;
      if (key === last) continue;
      last = key;
      kept.push(vlq(gen - outGen) + vlq(src - outSrc) + vlq(line - outLine) + vlq(col - outCol));
      [outGen, outSrc, outLine, outCol] = [gen, src, line, col];
    }
    lines.push(kept.join(","));
  }
  return { mappings: lines.join(";"), names: [] };
}

/**
 * Bundle a decoder entry as ESM, then turn the single trailing `export{…}` into
 * `module.exports={…}`: the same CommonJS file esbuild's cjs format would give, without its
 * ~0.5 KB of interop helpers. Node's cjs-module-lexer reads the literal, so
 * `import { decode } from "hookwire"` works too. It ships a source map without sourcesContent:
 * a workflow bundler that inlines its own source map (the Workflow SDK's does) then maps into
 * js/ instead of copying the minified file, base64 wasm included, into every bundle a second time.
 */
async function decoderEntry(entry, out, module, contract) {
  const built = await esbuild.build({
    entryPoints: [join(root, "js", entry)],
    outfile: join(pkg, out),
    write: false, bundle: true, format: "esm", platform: "neutral", target: "es2022", minify: true,
    sourcemap: "external", sourcesContent: false, lineLimit: 480,
    legalComments: "none", alias: aliases(module, contract), logLevel: "warning",
  });
  const esm = built.outputFiles.find((f) => f.path.endsWith(".cjs")).text;
  // The ES module form as built (the precompiled-module entries ship it as .mjs, for workerd).
  const esmCode = esm.replace(/\n\/\/# sourceMappingURL=.*\n?$/, "\n");
  const map = JSON.parse(built.outputFiles.find((f) => f.path.endsWith(".map")).text);
  // Name the sources, do not point at files: a bundler would read them back from disk.
  map.sources = map.sources.map((s) => `hookwire:${s.replace(/^(\.\.\/)+/, "").replace(/^target\/wasm\//, "generated/")}`);
  Object.assign(map, lineGranular(map));
  const tail = /export\{([^}]*)\};?\s*$/.exec(esm);
  if (!tail || esm.indexOf("export{") !== tail.index) throw new Error("expected exactly one trailing export statement");
  const entries = tail[1].split(",").map((pair) => {
    const [local, exported = local] = pair.trim().split(/\s+as\s+/);
    return `${exported}:${local}`;
  });
  const code = `${esm.slice(0, tail.index)}module.exports={${entries.join(",")}};\n//# sourceMappingURL=${out}.map\n`;
  return { code, map, esm: esmCode };
}

// The decoders: one module per family, each entry self-contained. Their shadow stack is 64 KiB
// (Rust's default is 1 MiB): a decode's frames take a few hundred bytes, even four nested decodes
// (the most getters may start), and every fresh workflow context allocates the whole memory at
// instantiation, so the module's memory is 2 pages instead of 17. The memory is imported: the
// inline entries unpack the module's text in it first (js/unpack.wat), one memory for both.
const DECODER_FLAGS = { RUSTFLAGS: "-C link-arg=-zstack-size=65536 -C link-arg=--import-memory" };
const decoder = compile("hookwire", "crates/hookwire-wasm", "wasm", "pkg", DECODER_FLAGS);
const session = await decoderEntry("entry.js", "hookwire.cjs", decoder, "contract.js");
const turnControl = compile("turn-control", "crates/hookwire-wasm", "wasm-turn-control", "target/wasm/turn-control-pack", {
  CARGO_TARGET_DIR: join(root, "target", "wasm-turn-control"),
  ...DECODER_FLAGS,
});
const turn = await decoderEntry("turn-control-entry.js", "turn-control.cjs", turnControl, "turn-control-contract.js");
// The same decoders without the inlined wasm (`hookwire/module`, `hookwire/turn-control/module`):
// `init(module)` takes the shipped .wasm precompiled, as workerd and edge runtimes import it. They
// share the inline entries' core (js/decoder.js); only the start differs (js/init.js).
const sessionModule = await decoderEntry("module.js", "module.cjs", decoder, "contract.js");
const turnModule = await decoderEntry("turn-control-module.js", "turn-control-module.cjs", turnControl, "turn-control-contract.js");

// The encoder: server-side, so plain esbuild cjs; it shares the decoder entry's error class.
// Server-side, so it is built for speed (opt-level 3) rather than size.
const encoder = compile("encoder", "crates/hookwire-wasm-encoder", "wasm-encoder", "target/wasm/encoder-pack", {
  CARGO_TARGET_DIR: join(root, "target", "wasm-encoder"),
  CARGO_PROFILE_RELEASE_OPT_LEVEL: "3",
  RUSTFLAGS: "-C link-arg=-zstack-size=8388608",
});
await esbuild.build({
  entryPoints: [join(root, "js", "encoder-entry.js")],
  outfile: join(pkg, "encoder.cjs"), bundle: true, format: "cjs", platform: "node", target: "es2022", minify: true,
  legalComments: "none", alias: aliases(encoder), external: ["./hookwire.cjs", "./turn-control.cjs"], logLevel: "warning",
});

for (const f of ["hookwire.js", "hookwire_bg.js", "hookwire_bg.wasm.d.ts", "hookwire.d.ts", ".gitignore"]) {
  rmSync(join(pkg, f), { force: true });
}
writeFileSync(join(pkg, "hookwire.cjs"), session.code);
writeFileSync(join(pkg, "hookwire.cjs.map"), JSON.stringify(session.map));
writeFileSync(join(pkg, "hookwire_bg.wasm"), decoder.bytes);
writeFileSync(join(pkg, "turn-control.cjs"), turn.code);
writeFileSync(join(pkg, "turn-control.cjs.map"), JSON.stringify(turn.map));
writeFileSync(join(pkg, "turn-control_bg.wasm"), turnControl.bytes);
for (const [m, name] of [[sessionModule, "module"], [turnModule, "turn-control-module"]]) {
  writeFileSync(join(pkg, `${name}.cjs`), m.code.replace(/\/\/# sourceMappingURL=.*\n$/, ""));
  writeFileSync(join(pkg, `${name}.mjs`), m.esm);
}
for (const [from, to] of [
  ["hookwire.d.ts", "hookwire"], ["encoder.d.ts", "encoder"], ["turn-control.d.ts", "turn-control"],
  ["module.d.ts", "module"], ["turn-control-module.d.ts", "turn-control-module"],
]) {
  const dts = readFileSync(join(root, "js", from));
  writeFileSync(join(pkg, `${to}.d.ts`), dts);
  writeFileSync(join(pkg, `${to}.d.cts`), dts);
  if (to.endsWith("module")) writeFileSync(join(pkg, `${to}.d.mts`), dts);
}
// The deployment manifest of this build (per family: versions, current version, write ceiling,
// each shipped schema's SHA-256): `hookwire manifest --compare` reads it back.
const manifest = execFileSync("cargo", ["run", "--quiet", "--", "manifest"], { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
JSON.parse(manifest);
writeFileSync(join(pkg, "manifest.json"), manifest);
const cargo = readFileSync(join(root, "Cargo.toml"), "utf8");
const version = /^version = "([^"]+)"/m.exec(cargo)[1];
writeFileSync(
  join(pkg, "package.json"),
  JSON.stringify(
    {
      name: "hookwire",
      version,
      description: "Versioned wire contracts for durable workflow hook payloads in JS: tiny synchronous WebAssembly decoders for workflow bundles (the session inbox: main entry; turn control: hookwire/turn-control) and the validating encoder for server code (hookwire/encoder).",
      license: "MIT OR Apache-2.0",
      main: "./hookwire.cjs",
      types: "./hookwire.d.ts",
      exports: {
        ".": "./hookwire.cjs", "./turn-control": "./turn-control.cjs", "./encoder": "./encoder.cjs",
        "./module": { import: "./module.mjs", default: "./module.cjs" },
        "./turn-control/module": { import: "./turn-control-module.mjs", default: "./turn-control-module.cjs" },
        "./hookwire_bg.wasm": "./hookwire_bg.wasm", "./turn-control_bg.wasm": "./turn-control_bg.wasm",
        "./manifest.json": "./manifest.json", "./package.json": "./package.json",
      },
      files: [
        "hookwire.cjs", "hookwire.cjs.map", "hookwire.d.ts", "hookwire.d.cts", "hookwire_bg.wasm",
        "turn-control.cjs", "turn-control.cjs.map", "turn-control.d.ts", "turn-control.d.cts", "turn-control_bg.wasm",
        "encoder.cjs", "encoder.d.ts", "encoder.d.cts", "manifest.json",
        "module.cjs", "module.mjs", "module.d.ts", "module.d.cts", "module.d.mts",
        "turn-control-module.cjs", "turn-control-module.mjs", "turn-control-module.d.ts", "turn-control-module.d.cts", "turn-control-module.d.mts",
      ],
      sideEffects: false,
    },
    null,
    2,
  ) + "\n",
);
// What a package user reads: the JS part of the README, the licenses, and every frozen JSON
// Schema (schemas/<family>/v<N>.json).
const readme = readFileSync(join(root, "README.md"), "utf8");
const section = (title) => {
  const start = readme.indexOf(`## ${title}`);
  if (start < 0) throw new Error(`README has no section ${title}`);
  const end = readme.indexOf("\n## ", start + 3);
  return readme.slice(start, end < 0 ? undefined : end).trim();
};
writeFileSync(
  join(pkg, "README.md"),
  [
    "# hookwire",
    "Versioned wire contracts for the payloads that resume durable workflow hooks: tiny synchronous WebAssembly decoders for workflow bundles (`hookwire`: the session inbox; `hookwire/turn-control`) and the validating encoders for server and step code (`hookwire/encoder`). The contract, the Rust crate and the command line live in the project's repository; this package is their JS side.",
    section("JS: decode inside the workflow"),
    section("JS: encode on the server (or in a step)"),
    section("JS: Standard Schema"),
    section("JS: edge runtimes (a precompiled module)"),
    section("Turn control"),
  ].join("\n\n") + "\n",
);
for (const f of ["LICENSE-MIT", "LICENSE-APACHE"]) copyFileSync(join(root, f), join(pkg, f));
const schemaFiles = [];
for (const family of readdirSync(join(root, "artifacts")).filter((d) => statSync(join(root, "artifacts", d)).isDirectory())) {
  for (const v of readdirSync(join(root, "artifacts", family)).filter((d) => /^v\d+$/.test(d))) {
    const from = join(root, "artifacts", family, v, "schema.json");
    if (!existsSync(from)) continue;
    mkdirSync(join(pkg, "schemas", family), { recursive: true });
    copyFileSync(from, join(pkg, "schemas", family, `${v}.json`));
    schemaFiles.push(`schemas/${family}/${v}.json`);
  }
}
// The JSON Schema of every answer (`hookwire schema --answers`), the same for every family.
copyFileSync(join(root, "artifacts", "answer.json"), join(pkg, "schemas", "answer.json"));
schemaFiles.push("schemas/answer.json");
const manifestPath = join(pkg, "package.json");
const published = JSON.parse(readFileSync(manifestPath, "utf8"));
published.type = "commonjs";
published.engines = { node: ">=20" };
published.keywords = ["workflow", "durable", "hooks", "wire contract", "schema", "versioning", "webassembly", "decoder"];
published.files.push("README.md", "LICENSE-MIT", "LICENSE-APACHE", "schemas/");
published.exports["./schemas/*"] = "./schemas/*";
writeFileSync(manifestPath, JSON.stringify(published, null, 2) + "\n");
writeFileSync(join(pkg, ".gitignore"), "*\n");
console.log(`pkg/: hookwire.cjs ${session.code.length} B (wasm ${decoder.bytes.length} B); turn-control.cjs ${turn.code.length} B (wasm ${turnControl.bytes.length} B); encoder.cjs ${readFileSync(join(pkg, "encoder.cjs")).length} B (wasm ${encoder.bytes.length} B)`);
