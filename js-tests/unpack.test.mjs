// The decoder entries' unpacker (js/unpack.wat) against the packer (scripts/pack.mjs): every input
// packs to a text of the entries' alphabet and unpacks to itself — literals of every length, matches
// that overlap what they write (distance 1 to 7, where runs are shorter than the match), matches
// at the 1- and 2-byte distance boundary, lengths that continue in further bytes — and a text
// whose match has a distance of 0, which no packer writes, ends instead of looping.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import test from "node:test";
import { base85, lz, unpack, unpacker } from "../scripts/pack.mjs";

const pack = new URL("../scripts/pack.mjs", import.meta.url).href;

const UNPACK = await unpacker();
const PAGES = 1;

/** A deterministic generator (xorshift32), so a failure names a reproducible case. */
function random(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Bytes that mix literals, short repeats and copies from far back, as a module's bytes do. */
function mixed(seed, n) {
  const r = random(seed);
  const out = [];
  while (out.length < n) {
    const pick = r();
    if (pick < 0.3 || out.length < 8) {
      for (let k = 1 + Math.floor(r() * 40); k > 0; k--) out.push(Math.floor(r() * 256));
    } else if (pick < 0.6) {
      // A repeat of a short period: a match that overlaps what it writes.
      const period = 1 + Math.floor(r() * 7);
      const from = out.length - period;
      for (let k = 0, len = 3 + Math.floor(r() * 300); k < len; k++) out.push(out[from + k]);
    } else {
      // A copy from anywhere before, near (below 128) or far.
      const d = 1 + Math.floor(r() * Math.min(out.length, r() < 0.5 ? 127 : 4000));
      const from = out.length - d;
      for (let k = 0, len = 3 + Math.floor(r() * 40); k < len; k++) out.push(out[from + k]);
    }
  }
  return Uint8Array.from(out.slice(0, n));
}

const roundTrip = (bytes) => {
  const text = base85(lz(bytes));
  assert.match(text, /^[(-[\]-_a-~]*$/, "the text keeps to the alphabet of js/unpack.wat");
  return unpack(UNPACK, text, bytes.length, PAGES);
};

test("every kind of input unpacks to itself", () => {
  const cases = [
    ["one byte", Uint8Array.of(7)],
    ["a run of one byte", new Uint8Array(1000).fill(9)],
    ["a period of 2 (a match overlapping itself)", Uint8Array.from({ length: 777 }, (_, i) => i % 2)],
    ["a period of 7", Uint8Array.from({ length: 500 }, (_, i) => (i % 7) * 31)],
    ["a period of 8", Uint8Array.from({ length: 500 }, (_, i) => (i % 8) * 13)],
    ["no repeats (literals only, a length in further bytes)", Uint8Array.from({ length: 600 }, (_, i) => (i * 97 + (i >> 8)) & 255)],
    ["a copy 127 back and one 128 back", Uint8Array.from({ length: 900 }, (_, i) => (i < 300 ? (i * 89) & 255 : i % 255 === 0 ? 1 : 0))],
  ];
  for (let seed = 1; seed <= 24; seed++) cases.push([`mixed, seed ${seed}`, mixed(seed, 200 + seed * 150)]);
  for (const [name, bytes] of cases) assert.deepEqual(roundTrip(bytes), bytes, name);
});

test("a match with a distance of 0 ends the unpacking instead of looping", () => {
  // One literal (token 0x10, the byte 65), then a match of length 3 + 0 at distance 0; the output
  // is 4 bytes. No packer writes this: the unpacker must end (the match copies in place), not spin.
  // It runs in a child process, so that a loop that never ends fails the test by its timeout.
  const child = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", `import { base85, unpack, unpacker } from ${JSON.stringify(pack)};
       const out = unpack(await unpacker(), base85(Uint8Array.of(0x10, 65, 0)), 4, ${PAGES});
       console.log(out[0]);`],
    { encoding: "utf8", timeout: 20_000 },
  );
  assert.equal(child.error, undefined, "the unpacker did not end");
  assert.equal(child.status, 0, child.stderr);
  assert.equal(child.stdout.trim(), "65");
});
