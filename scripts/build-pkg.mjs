// Build pkg/. Three wasm modules from the workspace's wasm crates, each compiled by wasm-pack and shrunk by
// binaryen's wasm-opt (a names-kept copy goes to target/wasm/ for twiggy), then inlined by esbuild
// into entries that instantiate synchronously (the decoders as LZ77-compressed base-85 text that a
// 408-byte module, js/unpack.wat, turns back into bytes; the encoder as base64):
//   hookwire.cjs  the no_std decoder (feature `wasm`), the workflow-safe main entry, self-contained;
//   turn-control.cjs  the turn-control decoder (feature `wasm-turn-control`), self-contained;
//   hookwire.mjs, turn-control.mjs  the same two for bundlers, ES modules over one shared core
//                 (hookwire-core.mjs);
//   module.{mjs,cjs}, turn-control-module.{mjs,cjs}  the same decoders without the inlined wasm,
//                 `init(module)` taking hookwire_bg.wasm / turn-control_bg.wasm precompiled;
//   encoder.cjs   the encoder and negotiation (feature `wasm-encoder`), for server and step code.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { base85, lz, unpack, unpacker } from "./pack.mjs";

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

const UNPACK = await unpacker();

/**
 * The decoders' import and export names. wasm-bindgen names an import after its Rust function
 * (src/hosts/wasm.rs) and the memory `memory`; every decoder module imports them by their index in
 * js/host.js's NAMES (the order of its import array), so one array serves both families, and
 * exports the names below (the decode export is named after the family: js/init.js tells the
 * modules apart by it).
 */
const NAMES = /export const NAMES = \/\* @__PURE__ \*\/ "([^"]+)"\.split\(" "\)/.exec(readFileSync(join(root, "js", "host.js"), "utf8"))?.[1].split(" ");
if (!NAMES) throw new Error("js/host.js no longer declares NAMES as one string split on spaces");
const IMPORT_NAMES = Object.fromEntries(NAMES.map((n, i) => [n, String(i)]));
const EXPORT_NAMES = { error_code: "c", error_version: "v", error_detail: "e", error_index: "i" };
/**
 * Exports of wasm-bindgen's that no decoder JS calls: left out of the decoders, and with them
 * what only they reach (the start function, the externref table it fills). The encoder keeps its
 * start function and table; it leaves out the last two.
 */
const UNUSED_EXPORTS = new Set(["__wbindgen_start", "__wbindgen_externrefs", "__abort_handler", "__instance_terminated"]);

/** A LEB128 reader and writer, and a name, for the import and export sections rewritten below. */
const uleb = (n) => {
  const out = [];
  do {
    let b = n & 127;
    n >>>= 7;
    if (n) b |= 128;
    out.push(b);
  } while (n);
  return out;
};
function reader(bytes, at) {
  const r = {
    at,
    u() {
      let v = 0, shift = 0, b;
      do (b = bytes[r.at++]), (v |= (b & 127) << shift), (shift += 7);
      while (b & 128);
      return v >>> 0;
    },
    name() {
      const n = r.u();
      return new TextDecoder().decode(bytes.subarray(r.at, (r.at += n)));
    },
  };
  return r;
}
const name = (s) => [...uleb(Buffer.byteLength(s)), ...Buffer.from(s)];

/**
 * The decoder module as wasm-bindgen wrote it, renamed: every import in module "a" under its
 * short name (IMPORT_NAMES), the exports under theirs, wasm-bindgen's unused exports dropped.
 * Answers the bytes and the memory's minimum pages.
 */
function rename(bytes, decodeName) {
  const out = [...bytes.subarray(0, 8)];
  let pages = null;
  for (let at = 8; at < bytes.length; ) {
    const id = bytes[at];
    const r = reader(bytes, at + 1);
    const size = r.u();
    const end = r.at + size;
    let body = null;
    if (id === 2) {
      body = [];
      const count = r.u();
      body.push(...uleb(count));
      for (let i = 0; i < count; i++) {
        r.name();
        const field = r.name();
        const kind = bytes[r.at];
        const descStart = r.at;
        r.at++;
        if (kind === 0) r.u();
        else if (kind === 2) {
          const flags = r.u();
          pages = r.u();
          if (flags & 1) r.u();
        } else throw new Error(`unexpected import kind ${kind} (${field})`);
        const short = IMPORT_NAMES[field] ?? (field.startsWith("__wbindgen_") ? `_${field}` : undefined);
        if (!short) throw new Error(`no import named ${field} in js/host.js (NAMES)`);
        body.push(...name("a"), ...name(short), ...bytes.subarray(descStart, r.at));
      }
    } else if (id === 7) {
      const entries = [];
      let kept = 0;
      const count = r.u();
      for (let i = 0; i < count; i++) {
        const field = r.name();
        const descStart = r.at;
        r.at++;
        r.u();
        if (UNUSED_EXPORTS.has(field)) continue;
        const short = field === "decode" ? decodeName : EXPORT_NAMES[field];
        if (!short) throw new Error(`no short name for the export ${field} (scripts/build-pkg.mjs, EXPORT_NAMES)`);
        entries.push(...name(short), ...bytes.subarray(descStart, r.at));
        kept++;
      }
      body = [...uleb(kept), ...entries];
    }
    if (body === null) out.push(...bytes.subarray(at, end));
    else out.push(id, ...uleb(body.length), ...body);
    at = end;
  }
  return { bytes: Uint8Array.from(out), pages };
}

/**
 * The decoder module with its data segments made one (wasm-opt leaves one per run of nonzero
 * bytes, each with its own offset and length): the zeros between them cost the module more bytes
 * than the segments' heads, but the inline text fewer characters (LZ77 takes a run of zeros for
 * a few bytes; no head repeats another): the session inbox's 80 characters less for 94 B more,
 * turn control's 50 for 55. The zeros land where the memory already holds zeros (no data lies
 * between the segments, and nothing else writes above the stack). Only active segments of memory
 * 0 at constant offsets, and no code that names a segment (`memory.init`, `data.drop`): anything
 * else is an error here.
 */
function oneDataSegment(file) {
  const bytes = readFileSync(file);
  const out = [...bytes.subarray(0, 8)];
  const sleb = (r) => {
    let v = 0, shift = 0, b;
    do (b = bytes[r.at++]), (v |= (b & 127) << shift), (shift += 7);
    while (b & 128);
    return shift < 32 && b & 64 ? v | (-1 << shift) : v;
  };
  const sleb128 = (n) => {
    const o = [];
    for (;;) {
      const b = n & 127;
      n >>= 7;
      if ((n === 0 && !(b & 64)) || (n === -1 && b & 64)) return [...o, b];
      o.push(b | 128);
    }
  };
  for (let at = 8; at < bytes.length; ) {
    const id = bytes[at];
    const r = reader(bytes, at + 1);
    const end = r.u() + r.at;
    let body = null;
    if (id === 10 && /\xfc[\x08\x09]/.test(Buffer.from(bytes.subarray(r.at, end)).toString("latin1"))) {
      // A byte pair that may be one of them (or only look like it): checked on the printed code.
      const wat = execFileSync(bin("wasm-opt"), [file, ...WASM_FEATURES, "--print"], { encoding: "utf8", maxBuffer: 1 << 26 });
      if (/memory\.init|data\.drop/.test(wat)) throw new Error("a decoder's code names a data segment: they cannot be made one");
    }
    if (id === 11) {
      const parts = [];
      for (let i = 0, count = r.u(); i < count; i++) {
        if (bytes[r.at++] !== 0 || bytes[r.at++] !== 0x41) throw new Error("a data segment that is not active at a constant offset");
        const offset = sleb(r);
        if (bytes[r.at++] !== 0x0b) throw new Error("a data segment's offset is not one constant");
        const length = r.u();
        parts.push([offset, bytes.subarray(r.at, (r.at += length))]);
      }
      const low = Math.min(...parts.map(([o]) => o));
      const data = new Uint8Array(Math.max(...parts.map(([o, d]) => o + d.length)) - low);
      for (const [o, d] of parts) data.set(d, o - low);
      body = [1, 0, 0x41, ...sleb128(low), 0x0b, ...uleb(data.length), ...data];
    } else if (id === 12) body = [1];
    if (body === null) out.push(...bytes.subarray(at, end));
    else out.push(id, ...uleb(body.length), ...body);
    at = end;
  }
  return Uint8Array.from(out);
}

/**
 * The functions a module imports: per import, its name and its type's index and parameter count.
 * A decoder's have four types (src/hosts/wasm.rs): V8 compiles a wasm-to-JS wrapper per
 * distinct type and JS arity when the module is compiled, which every fresh process pays
 * before its first decode.
 */
function importedFunctions(bytes) {
  const params = [];
  const out = [];
  for (let at = 8; at < bytes.length; ) {
    const id = bytes[at];
    const r = reader(bytes, at + 1);
    const end = r.u() + r.at;
    if (id === 1) {
      for (let i = 0, count = r.u(); i < count; i++) {
        if (bytes[r.at++] !== 0x60) throw new Error("a type that is not a function type");
        const n = r.u();
        params.push(n);
        r.at += n;
        const results = r.u();
        r.at += results;
      }
    } else if (id === 2) {
      for (let i = 0, count = r.u(); i < count; i++) {
        r.name();
        const field = r.name();
        const kind = bytes[r.at++];
        if (kind === 0) {
          const type = r.u();
          out.push({ field, type, params: params[type] });
        } else if (kind === 2) {
          if (r.u() & 1) r.u();
          r.u();
        } else throw new Error(`unexpected import kind ${kind}`);
      }
    }
    at = end;
  }
  return out;
}

/** wasm-pack + wasm-opt for one feature set; answers the shipped bytes, the names-kept copy's path and the memory's pages. */
function compile(name, crate, feature, outDir, env = {}, decodeName = null) {
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
  let input = join(out, "hookwire_bg.wasm");
  let pages = null;
  if (decodeName) {
    const renamed = rename(readFileSync(input), decodeName);
    pages = renamed.pages;
    input = join(work, `${name}.renamed.wasm`);
    writeFileSync(input, renamed.bytes);
  }
  // The decoders are optimized for size (every byte is paid per delivery); the encoder, which
  // runs on servers, for speed.
  const level = decodeName ? "-Oz" : "-O3";
  run(bin("wasm-opt"), [input, level, ...WASM_FEATURES, ...zeroFilled, "-g", "-o", named]);
  const strip = [level, ...WASM_FEATURES, ...zeroFilled, "--strip-debug", "--strip-producers", "--strip-target-features"];
  if (decodeName) {
    run(bin("wasm-opt"), [named, ...strip, "-o", shipped]);
    const bytes = oneDataSegment(shipped);
    writeFileSync(shipped, bytes);
    const imported = importedFunctions(bytes);
    const signatures = new Set(imported.map((f) => f.type)).size;
    if (signatures > 4) {
      throw new Error(`${name}: the decoder imports functions of ${signatures} signatures; src/hosts/wasm.rs gives each one of four`);
    }
    return { bytes, named, pages, imported };
  }
  // The encoder: wasm-bindgen's glue, its import and export names minified by wasm-opt (they
  // would otherwise be paid twice, in the wasm and in the glue), the name map given to the JS side.
  const map = JSON.parse(
    execFileSync(bin("wasm-opt"), [named, ...strip, "--minify-imports-and-exports-and-modules", "-o", shipped], { cwd: root, encoding: "utf8" }),
  );
  const bytes = readFileSync(shipped);
  const glue = join(work, `${name}.glue.js`);
  copyFileSync(join(out, "hookwire_bg.js"), glue);
  const lines = [];
  const fields = [];
  map.imports.forEach(([module, field, short], i) => {
    if (module !== "./hookwire_bg.js") throw new Error(`unexpected wasm import module ${module}`);
    lines.push(`import { ${field} as i${i} } from "hookwire:glue";`);
    fields.push(`${short}: i${i}`);
  });
  const used = map.exports.filter(([field]) => !UNUSED_EXPORTS.has(field) || field === "__wbindgen_start" || field === "__wbindgen_externrefs");
  const inline = join(work, `${name}.inline.js`);
  writeFileSync(
    inline,
    lines.join("\n") +
      `\nexport const WASM_BASE64 = ${JSON.stringify(bytes.toString("base64"))};\n` +
      `export const IMPORTS = { a: { ${fields.join(", ")} } };\n` +
      `export const exportsOf = (e) => ({ ${used.map(([field, short]) => `${field}: e.${short}`).join(", ")} });\n`,
  );
  return { bytes, named, inline, glue };
}

rmSync(pkg, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const esbuild = await import("esbuild");
const aliases = {
  "hookwire:unpack": join(work, "unpack.js"),
  "hookwire:session-inbox-wasm": join(work, "hookwire.inline.js"),
  "hookwire:turn-control-wasm": join(work, "turn-control.inline.js"),
  "hookwire:codes": join(work, "codes.js"),
};

/**
 * A generated table as compact JS: an array of strings as one string split on a character none
 * of them holds, any other array or object as JSON text the engine parses, a number or string as
 * itself. A
 * bundler that re-prints the code (a workflow bundler does, one element a line) then prints each
 * table on one line.
 */
function packed(value) {
  if (Array.isArray(value) && value.length && value.every((v) => typeof v === "string")) {
    const sep = [" ", "|", ";", "~"].find((c) => value.every((v) => !v.includes(c)));
    if (sep) return `/* @__PURE__ */ ${JSON.stringify(value.join(sep))}.split(${JSON.stringify(sep)})`;
  }
  if (typeof value === "object" && value !== null) return `/* @__PURE__ */ JSON.parse(${JSON.stringify(JSON.stringify(value))})`;
  return JSON.stringify(value);
}
/**
 * The tables only an error needs (the codes, the message templates, a family's details) stay
 * text until the first error parses them (js/decoder.js): the codes and details joined with "|",
 * the templates too, each at its code's index.
 */
const LAZY = {
  CODES: (v) => JSON.stringify(joined(v, "|")),
  DETAILS: (v) => JSON.stringify(joined(v, "|")),
  MESSAGES: (v, all) => JSON.stringify(joined(all.CODES.map((c) => numbered(v[c] ?? "")), "|")),
};
/**
 * The placeholders of the message templates, numbered by their place here: js/decoder.js splits
 * a template on its braces and fills the odd pieces by number from its `fields`, in this order,
 * which is cheaper than a replace per placeholder (a reject's message is made per decode;
 * js-tests/differential.test.mjs holds every message to the native decoder's). Each may appear
 * once in a template; no other brace may.
 */
const PLACEHOLDERS = ["version", "current", "path", "detail"];
function numbered(template) {
  let out = template;
  for (const [i, name] of PLACEHOLDERS.entries()) {
    if (out.split(`{${name}}`).length > 2) throw new Error(`the template "${template}" holds {${name}} twice`);
    out = out.replace(`{${name}}`, `{${i}}`);
  }
  if (/[{}]/.test(out.replace(/\{\d\}/g, ""))) throw new Error(`the template "${template}" holds a brace that is no placeholder (${PLACEHOLDERS.join(", ")})`);
  return out;
}
const joined = (values, sep) => {
  if (values.some((v) => v.includes(sep))) throw new Error(`a table entry holds "${sep}"`);
  return values.join(sep);
};
const packedModule = (values) => Object.entries(values).map(([k, v]) => `export const ${k} = ${(LAZY[k] ?? packed)(v, values)};\n`).join("");
const contracts = {};
for (const file of ["contract.js", "turn-control-contract.js"]) {
  contracts[file] = { ...(await import(pathToFileURL(join(root, "js", file)).href)) };
}
// The details every family has alike (the chain's and the hosts': the first ones, by `What`'s
// order) are given once, with the codes (hookwire:codes, COMMON_DETAILS, each followed by "|");
// a family's tables keep the rest, which js/decoder.js appends to them at the first error.
const allDetails = Object.values(contracts).map((c) => c.DETAILS);
let common = 0;
while (allDetails.every((d) => common < d.length - 1 && d[common] === allDetails[0][common])) common++;
const COMMON_DETAILS = allDetails[0].slice(0, common).map((d) => `${d}|`).join("");
/** The generated contract tables (js/contract.js, js/turn-control-contract.js), packed (DETAILS without the common ones). */
const packTables = {
  name: "packed-tables",
  setup(build) {
    build.onLoad({ filter: /[\\/]js[\\/](turn-control-)?contract\.js$/ }, (args) => {
      const tables = contracts[args.path.split(/[\\/]/).pop()];
      return { contents: packedModule({ ...tables, DETAILS: tables.DETAILS.slice(common) }), loader: "js" };
    });
  },
};

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
  // Generated sources (target/wasm/: the inline text, the unpacker's bytes, the codes; the
  // contract tables, packed) are data: nothing of them is worth a stack trace, so the map names
  // only the hand-written js/ files.
  const keep = map.sources.map((s) => !/^hookwire:(generated\/|js\/(turn-control-)?contract\.js$)/.test(s));
  const index = [];
  let kept = 0;
  keep.forEach((k, i) => k && (index[i] = kept++));
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
      if (!keep[src]) continue;
      const key = `${src}:${line}`;
      if (key === last) continue;
      last = key;
      kept.push(vlq(gen - outGen) + vlq(index[src] - outSrc) + vlq(line - outLine) + vlq(col - outCol));
      [outGen, outSrc, outLine, outCol] = [gen, index[src], line, col];
    }
    lines.push(kept.join(","));
  }
  return { sources: map.sources.filter((_, i) => keep[i]), mappings: lines.join(";"), names: [] };
}

/**
 * Bundle a decoder entry as ESM, then turn the single trailing `export{…}` into
 * `module.exports={…}`: the same CommonJS file esbuild's cjs format would give, without its
 * ~0.5 KB of interop helpers. Node's cjs-module-lexer reads the literal, so
 * `import { decode } from "hookwire"` works too. It ships a source map without sourcesContent:
 * a workflow bundler that inlines its own source map (the Workflow SDK's does) then maps into
 * js/ instead of copying the minified file, base64 wasm included, into every bundle a second time.
 */
/**
 * Lines of at most 300 characters, so that a stack trace's source line stays short (esbuild's
 * limit is soft: past a long string or template it may run on; MAX_LINE is checked).
 */
const LINE_LIMIT = 300;
const MAX_LINE = 1500;
const checkLines = (name, text) => {
  const longest = Math.max(...text.split("\n").map((l) => l.length));
  if (longest > MAX_LINE) throw new Error(`${name}: a line of ${longest} characters (at most ${MAX_LINE})`);
};

async function decoderEntry(entry, out) {
  const built = await esbuild.build({
    entryPoints: [join(root, "js", entry)],
    outfile: join(pkg, out),
    write: false, bundle: true, format: "esm", platform: "neutral", target: "es2022", minify: true,
    sourcemap: "external", sourcesContent: false, lineLimit: LINE_LIMIT,
    legalComments: "none", alias: aliases, plugins: [packTables], logLevel: "warning",
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
  checkLines(out, code);
  return { code, map, esm: esmCode };
}

// The decoders: one module per family. Their shadow stack is 32 KiB (Rust's default is 1 MiB): a
// decode's frames take a few hundred bytes, even four nested decodes (the most getters may
// start; the decode logic does not recurse), and every fresh workflow context allocates the whole
// memory at instantiation, so the module's memory is 1 page instead of 17 (2 pages, a 64 KiB
// stack, were 2-4 % slower to a fresh context's first decode). The memory is imported: the inline
// entries unpack the module's text in it first (js/unpack.wat), one memory for both.
const STACK = 32768;
const DECODER_FLAGS = { RUSTFLAGS: `-C link-arg=-zstack-size=${STACK} -C link-arg=--import-memory` };
/** The name a family's module exports its decode under: the `X` its JS declares (the one place it is kept). */
const decodeExport = (file) => {
  const x = /\bX: "([A-Za-z_$][\w$]*)" \}/.exec(readFileSync(join(root, "js", file), "utf8"))?.[1];
  if (!x) throw new Error(`js/${file} no longer declares its family's X (the decode export's name) as X: "…" }`);
  return x;
};
const decoder = compile("hookwire", "crates/hookwire-wasm", "wasm", "pkg", DECODER_FLAGS, decodeExport("session-inbox.js"));
const turnControl = compile("turn-control", "crates/hookwire-wasm", "wasm-turn-control", "target/wasm/turn-control-pack", {
  CARGO_TARGET_DIR: join(root, "target", "wasm-turn-control"),
  ...DECODER_FLAGS,
}, decodeExport("turn-control.js"));

// The inline text of each decoder: its bytes LZ-compressed, then in base 85 (js/unpack.wat),
// checked here by unpacking it as an entry does.
const PAGES = Number(/export const PAGES = (\d+);/.exec(readFileSync(join(root, "js", "decoder.js"), "utf8"))[1]);
// The unpacker's bytes as the arguments of one call: a bundler that re-prints the code keeps
// them on one line (an array literal it would print one element a line).
writeFileSync(join(work, "unpack.js"), `export const UNPACK = /* @__PURE__ */ Uint8Array.of(${Array.from(UNPACK).join(",")});\n`);
for (const [name, m] of [["hookwire", decoder], ["turn-control", turnControl]]) {
  if (m.pages !== PAGES) throw new Error(`${name}: its memory has ${m.pages} pages, js/decoder.js says ${PAGES}`);
  const text = base85(lz(m.bytes));
  // Text and bytes (and the at most 7 bytes the unpacker writes past them) lie below the stack's
  // top (STACK), where no data segment lies.
  if (text.length + m.bytes.length + 8 > STACK) throw new Error(`${name}: the inline text no longer fits below the stack's top`);
  if (Buffer.compare(unpack(UNPACK, text, m.bytes.length, PAGES), m.bytes) !== 0) throw new Error(`${name}: the inline text does not unpack to the module`);
  m.text = text;
  writeFileSync(join(work, `${name}.inline.js`), `export const TEXT = ${JSON.stringify(text)};\nexport const LENGTH = ${m.bytes.length};\n`);
}
// The codes and message templates are the same for every family: the decoder core holds them
// once (hookwire:codes), taken from the generated tables, which must agree.
const shared = (c) => JSON.stringify({ CODES: c.CODES, MESSAGES: c.MESSAGES, TYPE_CODES: c.TYPE_CODES, READ_CHECKS: c.READ_CHECKS, UNREADABLE: c.UNREADABLE });
if (shared(contracts["contract.js"]) !== shared(contracts["turn-control-contract.js"])) {
  throw new Error("js/contract.js and js/turn-control-contract.js differ in CODES, MESSAGES, TYPE_CODES, READ_CHECKS or UNREADABLE");
}
const { CODES, MESSAGES, TYPE_CODES, READ_CHECKS, UNREADABLE } = contracts["contract.js"];
// The type codes as constants (js/host.js imports them by their upper-case names), which the
// bundler then writes in place.
const typeCodes = Object.entries(TYPE_CODES).map(([t, code]) => `export const ${t.toUpperCase()} = ${code};\n`).join("");
// The code and the detail of a read that threw (the decoder's own error, js/decoder.js), by index.
const notObject = `export const NOT_OBJECT = ${CODES.indexOf("NOT_OBJECT")};\nexport const UNREADABLE = ${UNREADABLE};\n`;
// The numbers of the checks js/host.js makes as it reads a field (ARRAY_OF_OBJECTS, KINDED_OBJECT).
const readChecks = Object.entries(READ_CHECKS).map(([c, n]) => `export const ${c.replace(/[A-Z]/g, (x) => `_${x}`).toUpperCase()} = ${n};\n`).join("");
writeFileSync(
  join(work, "codes.js"),
  packedModule({ CODES, MESSAGES }) + `export const COMMON_DETAILS = ${JSON.stringify(COMMON_DETAILS)};\n` + typeCodes + readChecks + notObject,
);

// Every import function declares the parameters of its import's signature (js/host.js): one that
// declared fewer would need a wrapper of its own (V8 compiles one per signature and JS arity).
{
  const check = join(work, "host-check.mjs");
  await esbuild.build({ entryPoints: [join(root, "js", "host.js")], bundle: true, format: "esm", outfile: check, alias: aliases, logLevel: "warning" });
  const { host } = await import(pathToFileURL(check).href);
  const off = [...decoder.imported, ...turnControl.imported].flatMap(({ field, params }) =>
    host[Number(field)].length === params ? [] : [`${NAMES[Number(field)]} declares ${host[Number(field)].length}, its import ${params}`],
  );
  if (off.length) throw new Error(`js/host.js: the parameters of imports differ from src/hosts/wasm.rs: ${[...new Set(off)].join("; ")}`);
}

// Self-contained files, one per entry: what `require` loads, and what runs by itself (an edge
// function, a vm context handed the file's text).
const session = await decoderEntry("entry.js", "hookwire.cjs");
const turn = await decoderEntry("turn-control-entry.js", "turn-control.cjs");
// The same decoders without the inlined wasm (`hookwire/module`, `hookwire/turn-control/module`):
// `init(module)` takes the shipped .wasm precompiled, as workerd and edge runtimes import it. They
// share the inline entries' core (js/decoder.js); only the start differs (js/init.js).
const sessionModule = await decoderEntry("module.js", "module.cjs");
const turnModule = await decoderEntry("turn-control-module.js", "turn-control-module.cjs");
// For bundlers (the `import` and `workflow` conditions): the two inline entries as ES modules
// over one shared core (pkg/hookwire-core.mjs), so a bundle holding both families holds the core
// once, and a bundler drops what its code never uses.
const split = await esbuild.build({
  entryPoints: { hookwire: join(root, "js", "entry.js"), "turn-control": join(root, "js", "turn-control-entry.js") },
  outdir: pkg, outExtension: { ".js": ".mjs" }, chunkNames: "hookwire-core", splitting: true,
  write: false, bundle: true, format: "esm", platform: "neutral", target: "es2022", minify: true,
  lineLimit: LINE_LIMIT, legalComments: "none", alias: aliases, plugins: [packTables], logLevel: "warning",
});
/**
 * An ES module's code in one function scope: `import…;CODE;export{x as y,…}` becomes
 * `import…;const{y,…}=(()=>{\nCODE;return{y:x,…}})();export{y,…}`. A bundler hoists a module's
 * top-level declarations into its bundle's, and a workflow bundle runs as a script, where each
 * is a property of the global object, defined anew in every fresh context (about a microsecond
 * each); the locals of one function are not.
 */
function scoped(name, code) {
  const imports = /^import\{[^}]*\}from"[^"]*";/.exec(code)?.[0] ?? "";
  const tail = /export\{([^}]*)\};?\s*$/.exec(code);
  if (!tail || code.indexOf("export{") !== tail.index || code.indexOf("import", imports.length) >= 0 && /\bimport\{/.test(code.slice(imports.length))) {
    throw new Error(`${name}: expected one leading import and one trailing export statement`);
  }
  const pairs = tail[1].split(",").map((p) => {
    const [local, exported = local] = p.trim().split(/\s+as\s+/);
    return [local, exported];
  });
  const taken = new Set([...imports.matchAll(/(?:as |[{,])([\w$]+)(?=[,}])/g)].map((m) => m[1]));
  if (pairs.some(([, e]) => taken.has(e))) throw new Error(`${name}: an export is named like an import`);
  const body = code.slice(imports.length, tail.index);
  return `${imports}const{${pairs.map(([, e]) => e).join(",")}}=(()=>{\n${body};return{${pairs.map(([l, e]) => `${e}:${l}`).join(",")}}})();export{${pairs.map(([, e]) => e).join(",")}};\n`;
}
/**
 * The ES modules' source map is inline and maps one position (a map without any, esbuild
 * ignores). A bundler that takes them re-prints them, and the Workflow SDK's first runs SWC over
 * every file, so no map of ours could map what it bundles; with none at all it would copy the
 * whole file into the bundle's inline map as its source. This way the bundle pays nothing for
 * them (the CommonJS files keep their line-granular maps).
 */
const ONE_POSITION_MAP = `//# sourceMappingURL=data:application/json;base64,${Buffer.from('{"version":3,"sources":["hookwire"],"mappings":"AAAA"}').toString("base64")}\n`;
const esmFiles = {};
for (const f of split.outputFiles.filter((f) => f.path.endsWith(".mjs"))) {
  const base = f.path.slice(pkg.length + 1);
  const code = base === "hookwire-core.mjs" ? scoped(base, f.text) : f.text.replace(/\n?$/, "\n");
  checkLines(base, (esmFiles[base] = code + ONE_POSITION_MAP));
}
if (Object.keys(esmFiles).sort().join() !== "hookwire-core.mjs,hookwire.mjs,turn-control.mjs") {
  throw new Error(`unexpected ES module files: ${Object.keys(esmFiles).join(", ")}`);
}

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
  legalComments: "none", alias: { "hookwire:glue": encoder.glue, "hookwire:wasm": encoder.inline }, external: ["./hookwire.cjs", "./turn-control.cjs"], logLevel: "warning",
});

for (const f of ["hookwire.js", "hookwire_bg.js", "hookwire_bg.wasm.d.ts", "hookwire.d.ts", ".gitignore"]) {
  rmSync(join(pkg, f), { force: true });
}
for (const [f, text] of Object.entries(esmFiles)) writeFileSync(join(pkg, f), text);
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
  if (to !== "encoder") writeFileSync(join(pkg, `${to}.d.mts`), dts);
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
        ".": { workflow: "./hookwire.mjs", import: "./hookwire.mjs", default: "./hookwire.cjs" },
        "./turn-control": { workflow: "./turn-control.mjs", import: "./turn-control.mjs", default: "./turn-control.cjs" },
        "./encoder": "./encoder.cjs",
        "./module": { import: "./module.mjs", default: "./module.cjs" },
        "./turn-control/module": { import: "./turn-control-module.mjs", default: "./turn-control-module.cjs" },
        "./hookwire_bg.wasm": "./hookwire_bg.wasm", "./turn-control_bg.wasm": "./turn-control_bg.wasm",
        "./manifest.json": "./manifest.json", "./package.json": "./package.json",
      },
      files: [
        "hookwire.cjs", "hookwire.cjs.map", "hookwire.d.ts", "hookwire.d.cts", "hookwire_bg.wasm",
        "hookwire.mjs", "hookwire.d.mts", "hookwire-core.mjs",
        "turn-control.cjs", "turn-control.cjs.map", "turn-control.d.ts", "turn-control.d.cts", "turn-control_bg.wasm",
        "turn-control.mjs", "turn-control.d.mts",
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
