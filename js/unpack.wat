;; The decoder entries' unpacker: turns the module's inlined text into its bytes in this module's
;; own memory, so no per-character loop runs in JS (a fresh workflow context would interpret it).
;; The text is base 85 over the characters '#' (35) to 'x' (120) without '\' (92): five
;; characters per little-endian 32-bit word, nothing a JS string literal has to escape.
;; `d(n)` reads n characters (a multiple of 5) from address 0 and writes the words from address 0:
;; each word lands behind the characters still to read, so one buffer serves both. The memory is
;; the decoder's own (imported), which its first instance then takes over: one allocation.
;; Assembled by scripts/build-pkg.mjs (binaryen) and inlined as a byte array.
(module
  (import "a" "m" (memory 1))
  (func (export "d") (param $n i32)
    (local $i i32) (local $o i32) (local $word i32) (local $c i32) (local $k i32)
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
              (i32.sub (i32.sub (local.get $c) (i32.const 35)) (i32.gt_u (local.get $c) (i32.const 92)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $digit (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
        (i32.store align=1 (local.get $o) (local.get $word))
        (local.set $o (i32.add (local.get $o) (i32.const 4)))
        (br $group)))))
