//! Shared helpers of the test drivers: the crate root and the data fixtures.
#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root (the library's crate root): the nearest folder holding `fixtures/`
/// above the test's own crate, which is the library or `crates/hookwire-cli`.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("fixtures").is_dir() && dir.join("src/lib.rs").is_file())
        .expect("the repository root holds fixtures/ and src/lib.rs")
        .to_path_buf()
}

/// The `hookwire` binary, for the tests of the CLI crate (`crates/hookwire-cli/tests/`).
pub fn bin() -> PathBuf {
    match option_env!("CARGO_BIN_EXE_hookwire") {
        Some(path) => PathBuf::from(path),
        None => panic!("only the CLI crate's tests (crates/hookwire-cli/tests/) run the binary"),
    }
}

/// One fixture file: its name (the test name) and its parsed content.
pub struct Case {
    pub name: String,
    pub data: Value,
}

/// Every `*.json` case under `fixtures/session-inbox/<dir>`, sorted by name; the name is
/// `<dir>/<file stem>`.
pub fn cases(dir: &str) -> Vec<Case> {
    let path = root().join("fixtures/session-inbox").join(dir);
    let mut out: Vec<Case> = std::fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .map(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap();
            Case {
                name: format!("{dir}/{}", e.path().file_stem().unwrap().to_string_lossy()),
                data: serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", e.path().display())),
            }
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(!out.is_empty(), "no fixtures in {}", path.display());
    out
}

/// Canonical bytes, so `1` and `1.0` compare equal as they do in JS.
pub fn canon(v: &Value) -> String {
    hookwire::canonical::to_string(v)
}

/// The decode fixture directories: one per version, the chain's, and the walks of older
/// values through the later steps.
pub const DECODE_DIRS: &[&str] = &["v0", "v1", "v2", "v3", "v4", "v5", "v6", "chain", "walk"];

/// The encode fixture directories: the cases of the version 1 era, and those of version 6.
pub const ENCODE_DIRS: &[&str] = &["encode", "encode-v6"];

/// The frozen output of encode case `stem` for target `t`, wherever a version's encoder first
/// wrote it (`hookwire::conformance::frozen_output` for the session inbox), relative to the root.
pub fn frozen_output(stem: &str, t: &str) -> Option<String> {
    hookwire::conformance::frozen_output(&root(), &hookwire::session_inbox::FAMILY, stem, t)
}

/// Collect failures instead of stopping at the first, and report them all.
pub fn report(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} failing case(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

pub fn exists(rel: &str) -> bool {
    Path::new(&root()).join(rel).exists()
}

/// Run the `hookwire` binary with `args`, feeding `stdin` from a thread (so a large input cannot
/// deadlock against a full stdout pipe).
pub fn hookwire(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// A small deterministic generator for generated test cases (xorshift64*; no seed source, so a
/// failure reproduces; the seed must not be 0).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    /// One of `xs`.
    pub fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
}

/// A private copy of the folders `parts` of the tree (relative to its root), in a new temporary
/// folder whose name starts with `name`: a scratch tree a test may break on purpose.
pub fn scratch_tree(name: &str, parts: &[&str]) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    for part in parts {
        copy_dir(&root().join(part), &dir.join(part));
    }
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// `git` run in `dir` as a scratch repository's committer (a fixed identity, no signing).
pub fn git_output(dir: &Path, args: &[&str]) -> std::io::Result<Output> {
    Command::new("git")
        .args([
            "-c",
            "user.name=hookwire",
            "-c",
            "user.email=hookwire@localhost",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
}

/// The kind strings family `f` decodes (its `KINDS`, named by its symbol table), then `extra`:
/// generated values hold every real kind, whatever a family adds, beside a test's near-misses.
pub fn kind_names(
    kinds: &[hookwire::decode::KindSpec],
    symbols: &[&'static str],
    extra: &[&'static str],
) -> Vec<&'static str> {
    kinds
        .iter()
        .map(|k| symbols[usize::from(k.kind.0)])
        .chain(extra.iter().copied())
        .collect()
}
