//! Frozen artifacts on disk and their hash lock (contract §8).
//!
//! Layout, per family: `artifacts/<family>/v<N>/schema.json` (the canonical JSON Schema),
//! `artifacts/<family>/v<N>/encode/<case>.<target>.json` (byte-frozen encoder output),
//! `fixtures/<family>/v<N>/<case>.json` (frozen inputs with expected decodes). `artifacts/LOCK`
//! holds a SHA-256 per file of every shipped version and of every shipped migration module.
//! Lock lines are only ever added; a changed or missing locked file is a breaking change — except
//! a move: a file that left its locked path for a new one with the same bytes is recorded by a
//! line `<hash>  <new path>  <- <old path>` (`hookwire lock` writes it), and then the old path may
//! be gone.

use crate::family::Registry;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The lock file, relative to the crate root.
pub const LOCK: &str = "artifacts/LOCK";

/// What to do instead of editing a shipped artifact.
pub const GREEN_PATH: &str = "shipped versions are frozen. The only green path for a shape change is: \
a new version (a vN+1.rs module registered in the family's REGISTRY), a one-step migration \
(vN_to_vN+1.rs), and a new frozen schema (HOOKWIRE_BLESS=1 cargo test writes it while vN+1 is \
unshipped). Never edit or re-bless a shipped version's files";

/// The SHA-256 of `bytes`, in hex.
pub fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// One lock line as `(hash, path, moved from)`; `None` for a comment or a blank line.
pub fn parse_lock_line(line: &str) -> Option<(String, String, Option<String>)> {
    if line.trim().is_empty() || line.starts_with('#') {
        return None;
    }
    let (hash, rest) = line.split_once("  ")?;
    let (path, from) = match rest.split_once("  <- ") {
        Some((p, f)) => (p, Some(f.trim().to_string())),
        None => (rest, None),
    };
    Some((hash.trim().to_string(), path.trim().to_string(), from))
}

/// The lock's lines: `(hash, path, moved from)`.
fn lock_lines(root: &Path) -> Vec<(String, String, Option<String>)> {
    let text = fs::read_to_string(root.join(LOCK)).unwrap_or_default();
    text.lines().filter_map(parse_lock_line).collect()
}

/// Parse the lock: path → hash, the first line of a path its lock (lines are only ever added: a
/// later line for a locked path never re-locks it, and [`check_lock`] reports it).
pub fn read_lock(root: &Path) -> BTreeMap<String, String> {
    let mut lock = BTreeMap::new();
    for (h, p, _) in lock_lines(root) {
        lock.entry(p).or_insert(h);
    }
    lock
}

/// Whether a recorded move of a file locked with `hash` to `new` holds: `new` has those bytes, a
/// file of the same name in a folder of the same name (a folder moved, nothing renamed).
pub fn move_holds(root: &Path, old: &str, new: &str, hash: &str) -> bool {
    same_place(old, new) && fs::read(root.join(new)).is_ok_and(|b| sha256(&b) == hash)
}

/// Whether two paths name the same file in a folder of the same name (their last two parts).
fn same_place(a: &str, b: &str) -> bool {
    a.rsplit('/').take(2).eq(b.rsplit('/').take(2))
}

/// The recorded moves: old path → new path, each with the bytes the old path was locked with.
pub fn moves(root: &Path) -> BTreeMap<String, (String, String)> {
    lock_lines(root)
        .into_iter()
        .filter_map(|(h, p, from)| Some((from?, (p, h))))
        .collect()
}

/// Every file that must be locked for `reg`'s shipped versions, relative to `root`, sorted.
pub fn shipped_files(root: &Path, reg: &Registry) -> Vec<String> {
    let mut out = Vec::new();
    let mut versions: Vec<u32> = reg.initial.into_iter().collect();
    versions.extend(reg.versions.iter().filter(|e| e.shipped).map(|e| e.version));
    for v in versions {
        for dir in [
            format!("artifacts/{}/v{v}", reg.name),
            format!("fixtures/{}/v{v}", reg.name),
        ] {
            out.extend(files_under(root, &dir));
        }
        for (from, to) in reg.steps {
            if *to == v {
                out.push(format!("{}/v{from}_to_v{to}.rs", reg.module_dir));
            }
        }
    }
    out.sort();
    out
}

fn files_under(root: &Path, rel: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::from(rel)];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(root.join(&dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let rel = dir.join(e.file_name());
            if e.path().is_dir() {
                stack.push(rel);
            } else {
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

/// Problems with the lock: shipped files whose hash differs, locked files that are gone, and
/// shipped files not yet locked.
pub fn check_lock(root: &Path, reg: &Registry) -> Vec<String> {
    let lock = read_lock(root);
    let moved = moves(root);
    let mut problems = Vec::new();
    let prefixes = [
        format!("artifacts/{}/", reg.name),
        format!("fixtures/{}/", reg.name),
        format!("{}/", reg.module_dir),
    ];
    // A step module locked under an older folder of the family (`src/<family>/vA_to_vB.rs` before
    // a move) is the family's too: it must exist or have been recorded as moved.
    let folder = reg.module_dir.rsplit('/').next().unwrap_or(reg.module_dir);
    let step_of_family = |path: &str| {
        path.starts_with("src/")
            && path
                .rsplit_once('/')
                .is_some_and(|(dir, file)| dir.ends_with(&format!("/{folder}")) && file.contains("_to_v"))
    };
    for (path, hash) in &lock {
        if !prefixes.iter().any(|p| path.starts_with(p.as_str())) && !step_of_family(path) {
            continue;
        }
        match fs::read(root.join(path)) {
            Ok(bytes) if sha256(&bytes) == *hash => {}
            Ok(_) => problems.push(format!("{path} changed after it shipped; {GREEN_PATH}")),
            // A recorded move, its bytes at the new path.
            Err(_)
                if moved
                    .get(path)
                    .is_some_and(|(new, h)| h == hash && move_holds(root, path, new, hash)) => {}
            Err(_) => problems.push(format!("{path} is locked but missing; {GREEN_PATH}")),
        }
    }
    let mut hashes: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (hash, path, _) in lock_lines(root) {
        hashes.entry(path).or_default().insert(hash);
    }
    for (path, hashes) in hashes {
        if hashes.len() > 1 && (prefixes.iter().any(|p| path.starts_with(p.as_str())) || step_of_family(&path)) {
            problems.push(format!(
                "{path} is locked by lines of different hashes: the first locks it, and a later line never re-locks a file; {GREEN_PATH}"
            ));
        }
    }
    for path in shipped_files(root, reg) {
        if !lock.contains_key(&path) {
            problems.push(format!(
                "{path} belongs to a shipped version but is not in {LOCK}; run `hookwire lock` to add it"
            ));
        }
    }
    problems
}

/// Add lock lines for shipped files not yet locked; existing lines are never rewritten. A file
/// whose bytes are those of a locked file that is gone is recorded as that file's move.
/// Returns the paths added.
pub fn extend_lock(root: &Path, reg: &Registry) -> std::io::Result<Vec<String>> {
    let lock = read_lock(root);
    let moved = moves(root);
    let gone: Vec<(&String, &String)> = lock
        .iter()
        .filter(|(p, _)| !moved.contains_key(*p) && !root.join(p).exists())
        .collect();
    let mut added = Vec::new();
    let mut text = fs::read_to_string(root.join(LOCK)).unwrap_or_else(|_| {
        "# SHA-256 of every file of a shipped version. Lines are only ever added (`hookwire lock`).\n".into()
    });
    for path in shipped_files(root, reg) {
        if !lock.contains_key(&path) {
            let bytes = fs::read(root.join(&path))?;
            let hash = sha256(&bytes);
            // A move only where a gone file's bytes, name and folder's name are the new one's:
            // a copy elsewhere of a deleted file's bytes is a new file, and the deletion stays.
            match gone.iter().find(|(from, h)| **h == hash && same_place(from, &path)) {
                Some((from, _)) => text.push_str(&format!("{hash}  {path}  <- {from}\n")),
                None => text.push_str(&format!("{hash}  {path}\n")),
            }
            added.push(path);
        }
    }
    if !added.is_empty() {
        fs::write(root.join(LOCK), text)?;
    }
    Ok(added)
}

/// Compare a generated artifact with its file; with `bless`, write it — unless it exists and its
/// version shipped.
pub fn compare_or_bless(
    root: &Path,
    reg: &Registry,
    version: u32,
    rel: &str,
    generated: &str,
    bless: bool,
) -> Result<(), String> {
    let path = root.join(rel);
    let on_disk = fs::read_to_string(&path).ok();
    if on_disk.as_deref() == Some(generated) {
        return Ok(());
    }
    if bless {
        // A shipped version's files are append-only: a new case may be written, never a rewrite.
        if reg.is_shipped(version) && on_disk.is_some() {
            return Err(format!(
                "refusing to bless {rel}: version {version} of {} has shipped; {GREEN_PATH}",
                reg.name
            ));
        }
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        return fs::write(&path, generated).map_err(|e| e.to_string());
    }
    Err(match on_disk {
        None => format!("{rel} is missing; generate it with HOOKWIRE_BLESS=1 cargo test (only while version {version} is unshipped)"),
        Some(_) if reg.is_shipped(version) => format!("{rel} differs from what this build generates: a breaking change to shipped version {version}; {GREEN_PATH}"),
        Some(_) => format!("{rel} differs from what this build generates; re-bless with HOOKWIRE_BLESS=1 cargo test"),
    })
}

/// Whether the bless variable is set.
pub fn blessing() -> bool {
    std::env::var_os("HOOKWIRE_BLESS").is_some_and(|v| v == "1")
}
