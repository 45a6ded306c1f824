;; The decoder entries' unpacker: turns the module's inlined text into its bytes in this module's
;; memory, so no per-character loop runs in JS (a fresh workflow context would interpret it).
;; The memory is the decoder's own (imported), which its first instance then takes over.
;; Assembled by scripts/build-pkg.mjs (binaryen), which also writes the text:
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
;;    then the rest). The bytes are written from `$out` (past the text) to `$end`.
(module
  (import "a" "m" (memory 1))
  (global $in (mut i32) (i32.const 0))
  ;; The next input byte.
  (func $byte (result i32)
    (global.set $in (i32.add (global.get $in) (i32.const 1)))
    (i32.load8_u (i32.sub (global.get $in) (i32.const 1))))
  ;; A length of `$n` (a nibble) continued while it, or the last byte added, is 255.
  (func $more (param $n i32) (result i32) (local $b i32)
    (if (i32.eq (local.get $n) (i32.const 15))
      (then
        (loop $next
          (local.set $n (i32.add (local.get $n) (local.tee $b (call $byte))))
          (br_if $next (i32.eq (local.get $b) (i32.const 255))))))
    (local.get $n))
  (func (export "d") (param $n i32) (param $out i32) (param $end i32)
    (local $i i32) (local $o i32) (local $word i32) (local $c i32) (local $k i32) (local $t i32)
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
    (global.set $in (i32.const 0))
    (loop $sequence
      (local.set $t (call $byte))
      ;; The literals.
      (local.set $k (call $more (i32.shr_u (local.get $t) (i32.const 4))))
      (memory.copy (local.get $out) (global.get $in) (local.get $k))
      (local.set $out (i32.add (local.get $out) (local.get $k)))
      (global.set $in (i32.add (global.get $in) (local.get $k)))
      (if (i32.lt_u (local.get $out) (local.get $end))
        (then
          ;; The match: its distance, then its length, copied a byte at a time (it may overlap
          ;; what it writes).
          (local.set $c (call $byte))
          (if (i32.ge_u (local.get $c) (i32.const 128))
            (then
              (local.set $c
                (i32.or (i32.and (local.get $c) (i32.const 127)) (i32.shl (call $byte) (i32.const 7))))))
          (local.set $k (i32.add (call $more (i32.and (local.get $t) (i32.const 15))) (i32.const 3)))
          (loop $copy
            (i32.store8 (local.get $out) (i32.load8_u (i32.sub (local.get $out) (local.get $c))))
            (local.set $out (i32.add (local.get $out) (i32.const 1)))
            (br_if $copy (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
          (br $sequence))))))
