;; The decoder entries' unpacker: turns the module's inlined text into its bytes in this module's
;; memory, so no per-character loop runs in JS (a fresh workflow context would interpret it).
;; The memory is the decoder's own (imported), which its first instance then takes over.
;; Assembled by scripts/pack.mjs (binaryen), which also writes the text:
;;
;; 1. Base 85 over the characters '(' (40) to '~' (126) without '\' (92) and '`' (96): five
;;    characters per little-endian 32-bit word, nothing a JS string literal, a template literal
;;    or a bundler that embeds a bundle in one (`\`, `` ` ``, `$`) has to escape. The text lies
;;    at address 0 and each word lands behind the characters still to read, so one buffer
;;    serves both.
;; 2. LZ77 sequences over those bytes: a token (high nibble: the count of literal bytes that
;;    follow, low nibble: the match length - 3; 15 in either continues in further bytes, each
;;    added, until one is not 255), the literal bytes, then, unless the output is complete, the
;;    match's distance back (one byte below 128, else two: the low 7 bits with the high bit set,
;;    then the rest). The bytes are written from `$out` (past the text) to `$end`. Literals move
;;    8 bytes at a time (they lie before the output: what a copy writes past a sequence's end is
;;    written again by the next one, and at most 7 bytes past `$end`, which scripts/build-pkg.mjs
;;    keeps below the stack's top); a match is copied by `memory.copy` in runs of at most its
;;    distance, so that no run reads what it writes (one run unless the match overlaps itself).
;;    Every fresh context runs this once, as baseline code (it never tiers up): few iterations,
;;    and few instructions in each, are what make it fast. (Literals by `memory.copy` too were
;;    93 B smaller in the entry but 2-4 % slower to a fresh context's first decode: most runs of
;;    literals are short, and each `memory.copy` is a call out of the module.)
(module
  (import "a" "0" (memory 1))
  (func (export "d") (param $n i32) (param $out i32) (param $end i32)
    (local $i i32) (local $o i32) (local $word i32) (local $c i32) (local $k i32) (local $t i32) (local $b i32) (local $s i32)
    ;; 1. Base 85, in place.
    (block $done
      (loop $group
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $word (i32.const 0))
        (local.set $k (i32.const 5))
        (loop $digit
          (local.set $c (i32.load8_u (local.get $i)))
          (local.set $word
            (i32.add
              (i32.mul (local.get $word) (i32.const 85))
              (i32.sub
                (i32.sub (i32.sub (local.get $c) (i32.const 40)) (i32.gt_u (local.get $c) (i32.const 92)))
                (i32.gt_u (local.get $c) (i32.const 96)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $digit (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
        (i32.store align=1 (local.get $o) (local.get $word))
        (local.set $o (i32.add (local.get $o) (i32.const 4)))
        (br $group)))
    ;; 2. LZ77, from address 0 to $out.
    (local.set $i (i32.const 0))
    (loop $sequence
      (local.set $t (i32.load8_u (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (local.set $k (i32.shr_u (local.get $t) (i32.const 4)))
      (if (i32.eq (local.get $k) (i32.const 15))
        (then (loop $more
          (local.set $k (i32.add (local.get $k) (local.tee $b (i32.load8_u (local.get $i)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $more (i32.eq (local.get $b) (i32.const 255))))))
      ;; The literals.
      (local.set $s (local.get $i))
      (local.set $o (local.get $out))
      (local.set $out (i32.add (local.get $out) (local.get $k)))
      (local.set $i (i32.add (local.get $i) (local.get $k)))
      (block $lit (loop $l8
        (br_if $lit (i32.ge_s (local.get $o) (local.get $out)))
        (i64.store align=1 (local.get $o) (i64.load align=1 (local.get $s)))
        (local.set $o (i32.add (local.get $o) (i32.const 8)))
        (local.set $s (i32.add (local.get $s) (i32.const 8)))
        (br $l8)))
      (if (i32.lt_u (local.get $out) (local.get $end))
        (then
          ;; The match: its distance, then its length, copied in runs of at most its distance
          ;; (a run never reads what it writes).
          (local.set $c (i32.load8_u (local.get $i)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (if (i32.ge_u (local.get $c) (i32.const 128))
            (then
              (local.set $c (i32.or (i32.and (local.get $c) (i32.const 127)) (i32.shl (i32.load8_u (local.get $i)) (i32.const 7))))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))))
          (local.set $k (i32.and (local.get $t) (i32.const 15)))
          (if (i32.eq (local.get $k) (i32.const 15))
            (then (loop $more2
              (local.set $k (i32.add (local.get $k) (local.tee $b (i32.load8_u (local.get $i)))))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br_if $more2 (i32.eq (local.get $b) (i32.const 255))))))
          (local.set $k (i32.add (local.get $k) (i32.const 3)))
          (loop $run
            ;; A run of min(distance, what is left); a distance of 0 (no text this build writes
            ;; has one) copies all that is left in one run, so the loop cannot run forever.
            (local.set $s (select (local.get $c) (local.get $k) (i32.lt_u (i32.sub (local.get $c) (i32.const 1)) (local.get $k))))
            (memory.copy (local.get $out) (i32.sub (local.get $out) (local.get $c)) (local.get $s))
            (local.set $out (i32.add (local.get $out) (local.get $s)))
            (br_if $run (local.tee $k (i32.sub (local.get $k) (local.get $s)))))
          (br $sequence))))))
