//! Tidy checks that run as plain tests: the decode path stays free of formatting, panics and
//! std; every removable path is listed; every module says what it owns.

mod common;

use std::fs;

/// The files the wasm decoder links, and the part of each that is decode code (before tests
/// and before any `std`-only section).
const DECODE_PATH: &[&str] = &[
    "src/engine/chain.rs",
    "src/engine/decode.rs",
    "src/engine/host.rs",
    "src/engine/family.rs",
    "src/engine/error.rs",
    "src/families/session_inbox/symbols.rs",
    "src/families/session_inbox/v0_to_v1.rs",
    "src/families/session_inbox/declared.rs",
    "src/families/session_inbox/v1_to_v2.rs",
    "src/families/session_inbox/v2_to_v3.rs",
    "src/families/session_inbox/v3_to_v4.rs",
    "src/families/session_inbox/v4_to_v5.rs",
    "src/families/session_inbox/v5_to_v6.rs",
    "src/families/turn_control/symbols.rs",
    "src/families/turn_control/v0_to_v1.rs",
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
    for rel in DECODE_PATH.iter().copied().chain(std::iter::once("src/hosts/wasm.rs")) {
        assert!(common::exists(rel), "{rel} is on the decode path but does not exist");
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

/// The layers of `src/`, bottom-up, and the modules each holds (by their name under the crate
/// root). Families sit above everything generic and below the tooling that takes them.
const LAYERS: &[(&str, usize, &[&str])] = &[
    (
        "src/engine",
        0,
        &["chain", "decode", "error", "family", "host", "removable"],
    ),
    ("src/hosts", 1, &["json", "wasm"]),
    ("src/shape", 0, &["shape", "canonical"]),
    ("src/families", 2, &["session_inbox", "turn_control"]),
    (
        "src/contract",
        3,
        &["artifacts", "conformance", "diff", "evolve", "guard", "invariants"],
    ),
    ("src/surfaces", 3, &["jsgen", "tape", "wasm_encoder"]),
];

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            rust_files(&e.path(), out);
        } else if e.path().extension().is_some_and(|x| x == "rs") {
            out.push(e.path());
        }
    }
}

/// Every source file under `src/` but `lib.rs`: its path from the root, and its code before its
/// tests.
fn sources() -> Vec<(String, String)> {
    let root = common::root();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            let text = fs::read_to_string(&path).unwrap();
            (rel, text.split("#[cfg(test)]").next().unwrap_or("").to_string())
        })
        .filter(|(rel, _)| rel != "src/lib.rs")
        .collect()
}

/// The layout reads top-down: every file of `src/` but `lib.rs` sits in a layer's folder, and
/// no file imports a module of a layer above its own.
#[test]
fn no_layer_imports_one_above_it() {
    let mut found = Vec::new();
    for (rel, code) in sources() {
        let Some(&(_, level, _)) = LAYERS.iter().find(|(dir, _, _)| rel.starts_with(&format!("{dir}/"))) else {
            found.push(format!("{rel} is in no layer's folder"));
            continue;
        };
        for (dir, above, modules) in LAYERS.iter().filter(|(_, l, _)| *l > level) {
            for m in *modules {
                if code.contains(&format!("crate::{m}::"))
                    || code.contains(&format!("crate::{m};"))
                    || code.contains(&format!("crate::{m} "))
                {
                    found.push(format!("{rel} (layer {level}) imports `{m}` of {dir} (layer {above})"));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// What the library makes once and keeps (a `OnceLock`, a `LazyLock`, a thread-local) is listed
/// here, each made by its family's `prepare`: the wasm encoder's arena starts over only when none
/// of its blocks is live, so a table made there on first use would keep it from ever starting over
/// (`memoryStats().arenaBlocks` in `js-tests/encoder.test.mjs` catches the ones a fixture reaches).
#[test]
fn every_table_kept_for_good_is_made_by_prepare() {
    const KEPT: &[(&str, usize)] = &[("src/families/session_inbox/encode.rs", 2)];
    let mut found = Vec::new();
    for (rel, code) in sources() {
        // A `static` of a lazily made kind (however it is spelled), or a thread-local.
        let n = code
            .lines()
            .filter(|l| {
                let l = l.trim_start();
                (l.starts_with("static ") || l.starts_with("pub static ") || l.starts_with("pub(crate) static "))
                    && ["OnceLock", "LazyLock", "OnceCell", "Lazy<", "Once,", "Once ="]
                        .iter()
                        .any(|k| l.contains(k))
                    || l.contains("thread_local!")
            })
            .count();
        let listed = KEPT.iter().find(|(f, _)| *f == rel).map_or(0, |(_, n)| *n);
        if n != listed {
            found.push(format!(
                "{rel} keeps {n} tables made once, {listed} listed: make each in its family's `prepare` and list it here"
            ));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Generic modules take the family as a parameter: no file outside `src/families/` names a
/// family.
#[test]
fn generic_modules_import_no_family() {
    let mut found = Vec::new();
    for (rel, code) in sources()
        .into_iter()
        .filter(|(rel, _)| !rel.starts_with("src/families/"))
    {
        for family in ["session_inbox", "turn_control"] {
            if code.contains(family) {
                found.push(format!("{rel} names the family {family}: take it as a parameter"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The first cells of `ARCHITECTURE.md`'s code map that name places under `src/`: each a list of
/// paths (a later path without a folder is in the folder of the one before it).
fn code_map_paths() -> Vec<String> {
    let text = fs::read_to_string(common::root().join("ARCHITECTURE.md")).unwrap();
    let map = text.split("## Code map").nth(1).expect("a code map");
    let mut out = Vec::new();
    for row in map.lines().filter(|l| l.starts_with("| `src/")) {
        let first = row.split('|').nth(1).unwrap_or("");
        let mut dir = String::new();
        for (i, token) in first.split('`').enumerate() {
            if i % 2 == 0 {
                continue;
            }
            let path = if token.starts_with("src/") {
                token.to_string()
            } else {
                format!("{dir}{token}")
            };
            dir = path.rsplit_once('/').map(|(d, _)| format!("{d}/")).unwrap_or_default();
            out.push(path);
        }
    }
    out
}

/// Whether the code map's `entry` covers the file `rel`: the file itself, its folder, or a
/// pattern row (`vN_to_vM.rs` for the step pairs, `v1.rs` … `v6.rs` for the versions).
fn covers(entry: &str, rel: &str) -> bool {
    let is_step = |f: &str| f.starts_with('v') && f.contains("_to_v") && f.ends_with(".rs");
    let is_version = |f: &str| {
        f.strip_prefix('v')
            .and_then(|x| x.strip_suffix(".rs"))
            .is_some_and(|n| n.parse::<u32>().is_ok())
    };
    let (dir, file) = rel.rsplit_once('/').unwrap_or(("", rel));
    match entry.rsplit_once('/') {
        _ if entry == rel => true,
        Some((d, "")) => rel.starts_with(&format!("{d}/")),
        Some((d, "vN_to_vM.rs")) => d == dir && is_step(file),
        Some((d, "v1.rs" | "v6.rs")) => d == dir && is_version(file),
        _ => false,
    }
}

/// The code map stays true: every `src/` place it names exists, and every source file is in it.
#[test]
fn the_code_map_names_every_source_file_and_nothing_else() {
    let root = common::root();
    let entries = code_map_paths();
    assert!(entries.len() > 20, "the code map was not read: {entries:?}");
    for e in &entries {
        let concrete = !e.contains("vN_to_vM");
        assert!(
            !concrete || root.join(e).exists(),
            "ARCHITECTURE.md's code map names {e}, which does not exist"
        );
    }
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for path in files {
        let rel = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
        assert!(
            entries.iter().any(|e| covers(e, &rel)),
            "{rel} is in no row of ARCHITECTURE.md's code map"
        );
    }
}

/// Each family's folder names no other family: what they share lives below them.
#[test]
fn a_family_names_no_other_family() {
    let root = common::root();
    let families = ["session_inbox", "turn_control"];
    for own in families {
        let mut files = Vec::new();
        rust_files(&root.join("src/families").join(own), &mut files);
        for path in files {
            let text = fs::read_to_string(&path).unwrap();
            for other in families.iter().filter(|f| **f != own) {
                assert!(
                    !text.contains(&format!("crate::{other}")) && !text.contains(&format!("hookwire::{other}")),
                    "{} names the family {other}",
                    path.display()
                );
            }
        }
    }
}
