// Timing in short slices, for the benchmarks that let contenders (or builds) take turns in one
// process (bench/per-class.mjs, bench/ab.mjs).

/** Nanoseconds per call of `op`, over a slice of about `ms` milliseconds. */
export function slice(op, ms) {
  let count = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 64; i++) op();
    count += 64;
    now = performance.now();
  }
  return ((now - start) * 1e6) / count;
}

/** The median of `xs` (the upper one of an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
