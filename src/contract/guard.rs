//! The registry guard (contract §8, "rule 40"): the version registry and the version
//! modules on disk must agree, every version module must carry its tests, migration modules must
//! stay pure transforms, and shipped files must match their lock. Run by `hookwire check` and
//! by the test suite; each rule has a test that breaks a copy of the tree on purpose.

use crate::artifacts;
use crate::family::Registry;
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// The rules, one per check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Registered versions are 1, 2, …, n with no gap.
    Contiguous,
    /// The highest registered version is the current one.
    HighestIsCurrent,
    /// The version modules on disk are exactly the registered versions (and the initial one).
    ModulesMatch,
    /// The step modules on disk are exactly the registered one-step steps.
    MigrationsMatch,
    /// Every step is a pair: a `pub fn up` and a `pub fn down` (the historic 0 → 1 step: its
    /// `migrate`, and the v0 down-encoders of `v0.rs`).
    BothHalves,
    /// Every version and step module has colocated `#[test]`s.
    ColocatedTests,
    /// A step's `up` half imports nothing but the host trait, the decode error and symbols; its
    /// `down` half nothing of the family (both are pure transforms, no policy).
    MigrationPurity,
    /// Shipped files match `artifacts/LOCK`.
    Frozen,
}

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which rule.
    pub rule: Rule,
    /// What is wrong and what to do.
    pub message: String,
}

fn v(rule: Rule, message: String) -> Violation {
    Violation { rule, message }
}

/// Check the tree at `root` against the registry `reg`.
pub fn check(root: &Path, reg: &Registry) -> Vec<Violation> {
    let mut out = Vec::new();
    for (i, e) in reg.versions.iter().enumerate() {
        if e.version != i as u32 + 1 {
            out.push(v(
                Rule::Contiguous,
                format!(
                    "{}: registry entry {} is version {}, expected {}",
                    reg.name,
                    i,
                    e.version,
                    i + 1
                ),
            ));
        }
    }
    let highest = reg.versions.iter().map(|e| e.version).max();
    if highest != Some(reg.current) {
        out.push(v(
            Rule::HighestIsCurrent,
            format!(
                "{}: highest registered version is {highest:?}, current is {}",
                reg.name, reg.current
            ),
        ));
    }

    let dir = root.join(reg.module_dir);
    let mut on_disk = BTreeSet::new();
    let mut migrations_on_disk = BTreeSet::new();
    for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".rs") else {
            continue;
        };
        if let Some((a, b)) = stem.split_once("_to_") {
            if let (Some(a), Some(b)) = (version_of(a), version_of(b)) {
                migrations_on_disk.insert((a, b));
            }
        } else if let Some(n) = version_of(stem) {
            on_disk.insert(n);
        }
    }
    let expected: BTreeSet<u32> = reg
        .initial
        .into_iter()
        .chain(reg.versions.iter().map(|e| e.version))
        .collect();
    if on_disk != expected {
        out.push(v(Rule::ModulesMatch, format!(
            "{}: version modules on disk {on_disk:?} do not match the registry {expected:?}; register every vN.rs in REGISTRY (and only those)",
            reg.name
        )));
    }
    let declared: BTreeSet<(u32, u32)> = reg.steps.iter().copied().collect();
    if migrations_on_disk != declared {
        out.push(v(
            Rule::MigrationsMatch,
            format!(
                "{}: step modules on disk {migrations_on_disk:?} do not match the registry {declared:?}",
                reg.name
            ),
        ));
    }
    for (a, b) in &migrations_on_disk {
        let file = format!("v{a}_to_v{b}.rs");
        let text = fs::read_to_string(dir.join(&file)).unwrap_or_default();
        let (up, down) = if text.contains("pub fn up<") {
            (true, text.contains("pub fn down("))
        } else {
            // A first step that shipped before steps were pairs: `migrate` is its up, and the
            // version module of the era it leaves declares where its down half is.
            let era = fs::read_to_string(dir.join(format!("v{a}.rs"))).unwrap_or_default();
            (
                text.contains("pub fn migrate"),
                era.contains(&format!("the `down` half of step {a} ↔ {b}")),
            )
        };
        for (present, half) in [(up, "up"), (down, "down")] {
            if !present {
                out.push(v(
                    Rule::BothHalves,
                    format!(
                        "{}/{file} has no `{half}` half: a version step is a pair (pub fn up over Host, pub fn down over the encoder's value)",
                        reg.module_dir
                    ),
                ));
            }
        }
    }
    let lowest = reg.initial.unwrap_or(1);
    let chain: BTreeSet<(u32, u32)> = (lowest..reg.current).map(|n| (n, n + 1)).collect();
    if declared != chain {
        out.push(v(
            Rule::MigrationsMatch,
            format!(
                "{}: migrations {declared:?} are not exactly the one-step chain {chain:?}",
                reg.name
            ),
        ));
    }

    let modules = on_disk
        .iter()
        .map(|n| format!("v{n}.rs"))
        .chain(migrations_on_disk.iter().map(|(a, b)| format!("v{a}_to_v{b}.rs")));
    for file in modules {
        let text = fs::read_to_string(dir.join(&file)).unwrap_or_default();
        if !(text.contains("#[cfg(test)]") && text.contains("#[test]")) {
            out.push(v(
                Rule::ColocatedTests,
                format!(
                    "{}/{file} has no colocated tests (#[cfg(test)] mod tests with #[test]s)",
                    reg.module_dir
                ),
            ));
        }
    }
    for (a, b) in &migrations_on_disk {
        let file = format!("v{a}_to_v{b}.rs");
        let text = fs::read_to_string(dir.join(&file)).unwrap_or_default();
        for bad in impurities(&text, reg.module_dir) {
            out.push(v(Rule::MigrationPurity, format!(
                "{}/{file} refers to `{bad}`: a migration is a pure transform and may import only crate::host, crate::error and its family's symbols",
                reg.module_dir
            )));
        }
    }
    out.extend(artifacts::check_lock(root, reg).into_iter().map(|m| v(Rule::Frozen, m)));
    out
}

fn version_of(s: &str) -> Option<u32> {
    s.strip_prefix('v')
        .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|d| d.parse().ok())
}

/// The paths a step module's non-test code refers to that it may not. The `up` half is the
/// code before the first `#[cfg(feature = "std")]`; the `down` half is the rest.
fn impurities(text: &str, module_dir: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let (up, down) = code.split_once("#[cfg(feature = \"std\")]").unwrap_or((code, ""));
    let family = module_dir.rsplit('/').next().unwrap_or("");
    let symbols = format!("crate::{family}::symbols");
    let mut bad = Vec::new();
    let halves: [(&str, Vec<&str>, &[&str]); 2] = [
        (
            up,
            vec!["crate::error", "crate::host", &symbols],
            &[
                "super::",
                "serde_json",
                "std::",
                "alloc::format",
                "alloc::string",
                "alloc::boxed",
            ],
        ),
        (down, vec!["crate::error"], &["super::", "std::"]),
    ];
    for (half, allowed, words) in halves {
        for line in half.lines().map(str::trim).filter(|l| !l.starts_with("//")) {
            for (i, _) in line.match_indices("crate::") {
                let path: String = line[i..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                if !allowed
                    .iter()
                    .any(|a| path == *a || path.starts_with(&format!("{a}::")))
                {
                    bad.push(path);
                }
            }
            for word in words {
                if line.contains(word) {
                    bad.push(word.trim_end_matches("::").into());
                }
            }
        }
    }
    bad.sort();
    bad.dedup();
    bad
}
