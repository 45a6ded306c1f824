//! Tidy checks that run as plain tests: the decode path stays free of formatting, panics and
//! std; every removable path is listed; every module says what it owns.

mod common;

use std::fs;

/// The files the wasm decoder links, and the part of each that is decode code (before tests
/// and before any `std`-only section).
const DECODE_PATH: &[&str] = &[
    "src/chain.rs",
    "src/decode.rs",
    "src/host.rs",
    "src/family.rs",
    "src/error.rs",
    "src/session_inbox/symbols.rs",
    "src/session_inbox/v0_to_v1.rs",
    "src/session_inbox/declared.rs",
    "src/session_inbox/v1_to_v2.rs",
    "src/session_inbox/v2_to_v3.rs",
    "src/session_inbox/v3_to_v4.rs",
    "src/session_inbox/v4_to_v5.rs",
    "src/session_inbox/v5_to_v6.rs",
];

fn decode_code(rel: &str) -> String {
    let text = fs::read_to_string(common::root().join(rel)).unwrap();
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.split("#[cfg(feature = \"std\")]").next().unwrap_or("").to_string()
}

#[test]
fn the_decode_path_has_no_formatting_panics_or_std() {
    let forbidden = [
        "format!",
        "panic!",
        "unwrap()",
        "expect(",
        "unreachable!",
        "todo!",
        "serde",
        "std::",
        "String::",
        ".to_string(",
        "println!",
        "write!",
        "{:",
    ];
    let mut found = Vec::new();
    for rel in DECODE_PATH
        .iter()
        .copied()
        .chain(std::iter::once("src/wasm.rs"))
        .filter(|r| common::exists(r))
    {
        let code = decode_code(rel);
        for (n, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("");
            for word in forbidden {
                if line.contains(word) {
                    found.push(format!("{rel}:{}: `{word}` in {line:?}", n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the decoder must stay small and panic-free:\n{}",
        found.join("\n")
    );
}

#[test]
fn every_removable_path_is_listed() {
    let mut declared = 0;
    let mut stack = vec![common::root().join("src")];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(dir).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else if e.path().extension().is_some_and(|x| x == "rs") {
                let text = fs::read_to_string(e.path()).unwrap();
                let rel = e
                    .path()
                    .strip_prefix(common::root())
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                for _ in text.matches(": Removable = Removable {") {
                    declared += 1;
                    assert!(
                        hookwire::FAMILIES
                            .iter()
                            .any(|f| f.removable.iter().any(|r| r.site == rel)),
                        "{rel} declares a Removable that no family's REMOVABLE lists"
                    );
                }
            }
        }
    }
    assert_eq!(
        declared,
        hookwire::FAMILIES.iter().map(|f| f.removable.len()).sum::<usize>()
    );
}

#[test]
fn every_source_file_says_what_it_owns() {
    let mut stack = vec![common::root().join("src")];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(dir).unwrap().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else if e.path().extension().is_some_and(|x| x == "rs") && e.file_name() != "lib.rs" {
                let text = fs::read_to_string(e.path()).unwrap();
                assert!(
                    text.starts_with("//!"),
                    "{} must open with a //! paragraph",
                    e.path().display()
                );
            }
        }
    }
}

#[test]
fn the_symbol_tables_line_up() {
    use hookwire::session_inbox::{symbols::SYMBOLS, KINDS, KIND_SYMS};
    assert_eq!(&SYMBOLS[..2], &["version", "kind"]);
    assert!(SYMBOLS.len() < 256);
    assert_eq!(KINDS.len(), KIND_SYMS.len());
    for (k, s) in KINDS.iter().zip(KIND_SYMS) {
        assert_eq!(k.kind, *s);
    }
}

/// Generic modules take the family as a parameter: none of them names a family.
#[test]
fn generic_modules_import_no_family() {
    let generic = [
        "src/chain.rs",
        "src/decode.rs",
        "src/host.rs",
        "src/error.rs",
        "src/family.rs",
        "src/shape.rs",
        "src/json.rs",
        "src/wasm.rs",
        "src/canonical.rs",
        "src/artifacts.rs",
        "src/guard.rs",
        "src/conformance.rs",
        "src/diff.rs",
    ];
    for rel in generic {
        let text = fs::read_to_string(common::root().join(rel)).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for family in ["session_inbox", "turn_control"] {
            assert!(
                !code.contains(family),
                "{rel} names the family {family}: take it as a parameter"
            );
        }
    }
}
