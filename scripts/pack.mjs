// The inline text of the decoder entries (js/unpack.wat has the format): bytes LZ77-compressed,
// optimally parsed, then in base 85; the unpacker assembled from js/unpack.wat; and `unpack`,
// which runs it as an entry does. scripts/build-pkg.mjs packs the decoders with it and checks
// each text by unpacking it; js-tests/unpack.test.mjs holds the unpacker to the packer over
// inputs of every kind.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Base 85 over '('..'~' without '\\' and '`' (js/unpack.wat reads it): 5 characters per little-endian word. */
export function base85(bytes) {
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
    for (const d of digits) text += String.fromCharCode(40 + d + (d >= 52) + (d >= 55));
  }
  return text;
}

/** LZ77 sequences for js/unpack.wat (format there), optimally parsed: the fewest bytes. */
export function lz(data) {
  const n = data.length;
  const extra = (x) => (x < 15 ? 0 : 1 + Math.floor((x - 15) / 255));
  // The longest match at p within 127 bytes back (1-byte distance) and within 32767 (2 bytes).
  const near = new Int32Array(n), far = new Int32Array(n), nearOff = new Int32Array(n), farOff = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    for (let j = p - 1; j >= Math.max(0, p - 32767); j--) {
      let l = 0;
      while (p + l < n && l < 4096 && data[j + l] === data[p + l]) l++;
      if (p - j < 128 && l > near[p]) (near[p] = l), (nearOff[p] = p - j);
      if (l > far[p]) (far[p] = l), (farOff[p] = p - j);
    }
  }
  // S[i]: the fewest bytes from i when a sequence starts there; M[p]: the fewest from p when a
  // match starts there (its distance and length bytes, then S after it).
  const S = new Float64Array(n + 1), M = new Float64Array(n + 1).fill(Infinity);
  const mChoice = new Int32Array(n + 1), sChoice = new Int32Array(n + 1);
  S[n] = 1;
  sChoice[n] = -1;
  for (let i = n - 1; i >= 0; i--) {
    for (let L = 3; L <= far[i]; L++) {
      const c = (L <= near[i] ? 1 : 2) + extra(L - 3) + S[i + L];
      if (c < M[i]) (M[i] = c), (mChoice[i] = L);
    }
    let best = 1 + extra(n - i) + (n - i);
    let choice = -1; // literals to the end
    for (let k = 0; i + k < n; k++) {
      const c = 1 + extra(k) + k + M[i + k];
      if (c < best) (best = c), (choice = k);
    }
    S[i] = best;
    sChoice[i] = choice;
  }
  const out = [];
  const len = (x) => {
    if (x < 15) return;
    x -= 15;
    while (x >= 255) (out.push(255), (x -= 255));
    out.push(x);
  };
  let i = 0;
  for (;;) {
    const k = sChoice[i];
    if (k < 0) {
      const rest = n - i;
      out.push(Math.min(rest, 15) << 4);
      len(rest);
      for (let q = i; q < n; q++) out.push(data[q]);
      break;
    }
    const p = i + k, L = mChoice[p], off = L <= near[p] ? nearOff[p] : farOff[p];
    out.push((Math.min(k, 15) << 4) | Math.min(L - 3, 15));
    len(k);
    for (let q = i; q < p; q++) out.push(data[q]);
    if (off < 128) out.push(off);
    else out.push((off & 127) | 128, off >> 7);
    len(L - 3);
    i = p + L;
    if (i === n) {
      out.push(0);
      break;
    }
  }
  if (out.length !== S[0]) throw new Error(`lz: ${out.length} bytes written, ${S[0]} planned`);
  return Uint8Array.from(out);
}

/** js/unpack.wat, assembled and optimized for size: the module's bytes. */
export async function unpacker() {
  const binaryen = (await import("binaryen")).default;
  const m = binaryen.parseText(readFileSync(join(root, "js", "unpack.wat"), "utf8"));
  m.setFeatures(binaryen.Features.BulkMemory | binaryen.Features.BulkMemoryOpt | binaryen.Features.MutableGlobals);
  binaryen.setOptimizeLevel(2);
  binaryen.setShrinkLevel(2);
  m.optimize();
  if (!m.validate()) throw new Error("js/unpack.wat does not validate");
  const bytes = m.emitBinary();
  m.dispose();
  return bytes;
}

/**
 * The `length` bytes `text` unpacks to, by the unpacker `module` (its bytes) in a fresh memory of
 * `pages` pages, as an entry runs it: the text at address 0, the bytes written after it.
 */
export function unpack(module, text, length, pages) {
  const memory = new WebAssembly.Memory({ initial: pages });
  const view = new Uint8Array(memory.buffer);
  new TextEncoder().encodeInto(text, view);
  new WebAssembly.Instance(new WebAssembly.Module(module), { a: [memory] }).exports.d(text.length, text.length, text.length + length);
  return view.slice(text.length, text.length + length);
}
