//! `hookwire`: decode, encode and negotiate the payloads of every family this build knows, render
//! their frozen schemas, and — for maintainers — scaffold and ship versions, run the registry guard
//! (alone or against a git revision), extend the hash lock, print the deployment manifest,
//! list removable paths and demonstrate the whole contract. Parsing is clap's (derive).

use clap::{CommandFactory, Parser, Subcommand};
use hookwire::family::FamilyDesc;
use hookwire::session_inbox::encode::{encode, Target};
use hookwire::session_inbox::{self};
use hookwire::{artifacts, canonical, evolve, guard, Answer, DecodeError, Transport, FAMILIES};
use serde::Deserialize as _;
use serde_json::{json, Value};
use std::ffi::OsString;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError};
use std::sync::Arc;

/// The longest `--lines` line read by default: 16 MiB, far beyond any real payload, and a bound
/// on what one line may cost (a stream without newlines, `/dev/zero` say, would grow forever).
const DEFAULT_MAX_LINE_BYTES: usize = 16 << 20;

/// The command line's allocator: `encode --lines` and `decode --lines` build and drop a
/// `serde_json` value per line, and mimalloc makes that about an eighth cheaper than the system
/// allocator (measured on `encode --lines`, bench/encode-cli.mjs). The library chooses none.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Input nested deeper than this is refused with `TOO_DEEP` (it is far beyond any real payload,
/// and the work thread's stack is sized for it: about 2 KiB a level in a debug build).
const MAX_DEPTH: usize = 131_072;
/// The work thread's stack: deep JSON is parsed, cloned, written and dropped recursively.
const STACK: usize = 1 << 30;

/// Versioned wire contracts for durable workflow hook payloads.
///
/// Exit status: 0 ok; 1 the value could not be decoded or encoded (stderr: `error[CODE]: message`);
/// 2 usage, configuration or I/O.
#[derive(Parser)]
#[command(name = "hookwire", version, propagate_version = true, max_term_width = 100)]
struct Cli {
    /// The payload family: session-inbox or turn-control.
    #[arg(long, global = true, default_value = "session-inbox", value_parser = family_name)]
    family: String,
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Decode one JSON value (FILE, or stdin; `-` is stdin), or NDJSON with --lines.
    Decode {
        /// NDJSON in: one {"ok":…} or {"error":{"code",…}} line per input line.
        #[arg(long)]
        lines: bool,
        /// The longest line read, in bytes; a longer one is answered `TOO_LARGE` (unread, so it
        /// costs no memory) and the stream goes on.
        #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE_BYTES)]
        max_line_bytes: usize,
        /// The file to read (default: stdin).
        file: Option<PathBuf>,
    },
    /// Encode one command for a target, or lines of {"command","target"} with --lines.
    Encode {
        /// NDJSON in: lines of {"command": …, "target": {"version": N} | {"version": 0, "variant": …}}.
        #[arg(long)]
        lines: bool,
        /// The longest line read, in bytes; a longer one is answered `TOO_LARGE` (unread, so it
        /// costs no memory) and the stream goes on.
        #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE_BYTES)]
        max_line_bytes: usize,
        /// The target: v1 … v6, v0-deliver, v0-send (session inbox); v0, v1 (turn control).
        /// Default: the current version.
        #[arg(long)]
        target: Option<String>,
        /// The file to read (default: stdin).
        file: Option<PathBuf>,
    },
    /// Negotiate targets for lines of requests (NDJSON).
    Negotiate {
        /// NDJSON in (the only mode): session inbox lines {"command", "destination", "hooks",
        /// "stableInboxToken"?}; turn-control lines {"capabilities": {…} | null}.
        #[arg(long, required = true)]
        lines: bool,
        /// The longest line read, in bytes; a longer one is answered `TOO_LARGE` (unread, so it
        /// costs no memory) and the stream goes on.
        #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_LINE_BYTES)]
        max_line_bytes: usize,
        /// The write ceiling: the newest version to write (1 … current).
        #[arg(long, value_name = "N")]
        write_at_most: Option<u32>,
    },
    /// Print the canonical JSON Schema of a version (default: the current one).
    #[command(disable_version_flag = true)]
    Schema {
        /// The version.
        #[arg(long, value_name = "N")]
        version: Option<u32>,
        /// The JSON Schema of the answers instead (every `--lines` line: `{"ok"}` or `{"error"}`
        /// with a stable code), the same for every family.
        #[arg(long, conflicts_with = "version")]
        answers: bool,
    },
    /// Classify every change between two shape versions (or against the frozen schemas at a git
    /// revision) with a named rule and forward/backward verdicts.
    Diff {
        /// The version compared from (with --to-version).
        #[arg(long, value_name = "A", requires = "to_version", conflicts_with = "against")]
        from_version: Option<u32>,
        /// The version compared to.
        #[arg(long, value_name = "B", requires = "from_version")]
        to_version: Option<u32>,
        /// A git revision: this tree's shapes against the frozen schemas committed there.
        #[arg(long, value_name = "GIT_REF")]
        against: Option<String>,
        /// Output: text (default), json (an array of changes) or github (workflow annotations).
        #[arg(long, default_value = "text", value_parser = ["text", "json", "github"])]
        format: String,
        /// The repository root (for --against and the github format's source lines).
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Maintainer: the registry guard and the artifact lock (every family unless --family).
    Check {
        /// The repository root.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Also check the change since a git revision: files locked there unchanged, the lock only
        /// grown, no version gone, and a change that adds a version touching only its files.
        #[arg(long, value_name = "GIT_REF")]
        against: Option<String>,
    },
    /// Maintainer: add lock lines for shipped files not yet locked.
    Lock {
        /// The repository root.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Maintainer: scaffold the next version of the family (--family, default session-inbox) from
    /// the current one: shape module, identity step pair, registration, fixtures.
    NewVersion {
        /// The repository root.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Maintainer: ship the newest unshipped version (shipped: true, lock lines, manifest) of every
    /// family unless --family.
    Ship {
        /// The repository root.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },
    /// Maintainer: the deployment manifest of this build (JSON), or with --compare what deploying
    /// it would break for runs pinned to an older build.
    Manifest {
        /// The manifest of the deployment the runs are pinned to.
        #[arg(long, value_name = "OLD.json")]
        compare: Option<PathBuf>,
    },
    /// Maintainer: temporary compatibility paths and when they can go.
    Removable,
    /// Maintainer: encode for every kind of receiver and decode every historic cohort.
    Demo,
    /// Print a shell completion script.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

fn family_name(name: &str) -> Result<String, String> {
    match hookwire::family(name) {
        Some(_) => Ok(name.into()),
        None => {
            let known: Vec<&str> = FAMILIES.iter().map(|f| f.name()).collect();
            Err(format!("unknown family; known families: {}", known.join(", ")))
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let worker = std::thread::Builder::new().stack_size(STACK).spawn(move || run(args));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(2),
    }
}

fn run(args: Vec<OsString>) -> ExitCode {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let explicit = std::env::args_os().any(|a| a.to_string_lossy().starts_with("--family"));
    let desc = hookwire::family(&cli.family).unwrap_or(FAMILIES[0]);
    let current = desc.registry.current;
    match cli.command {
        Cmd::Decode {
            lines: true,
            max_line_bytes,
            file,
        } => lines_with(file, max_line_bytes, parse, |v, out| {
            out.push_str(&result_line(decode_value(desc, v)));
        }),
        Cmd::Decode { file, .. } => one(file, |v| decode_value(desc, v)),
        Cmd::Encode {
            lines: true,
            max_line_bytes,
            file,
            ..
        } => lines_with(
            file,
            max_line_bytes,
            move |l| encode_request(current, l),
            |(command, target), out| (desc.encode_text)(command, target, out),
        ),
        Cmd::Encode { target, file, .. } => {
            let target = target.map_or_else(|| json!({ "version": current }), |t| hookwire::family::target_json(&t));
            one(file, |v| (desc.encode)(v.clone(), &target).ok())
        }
        Cmd::Negotiate {
            write_at_most,
            max_line_bytes,
            ..
        } => {
            let ceiling = write_at_most.unwrap_or(current);
            if !(1..=current).contains(&ceiling) {
                eprintln!(
                    "hookwire: --write-at-most: {} ({})",
                    hookwire::family::write_ceiling_refused(current, &ceiling),
                    desc.name()
                );
                return ExitCode::from(2);
            }
            lines_with(None, max_line_bytes, parse, |v, out| {
                canonical::write_value(&(desc.negotiate)(v, ceiling), out);
            })
        }
        Cmd::Schema { answers: true, .. } => {
            out(&pretty(&hookwire::answer::json_schema()));
            ExitCode::SUCCESS
        }
        Cmd::Schema { version, .. } => match desc.version(version.unwrap_or(current)) {
            Some(p) => {
                out(&pretty(&(p.json_schema)()));
                ExitCode::SUCCESS
            }
            None => {
                eprintln!(
                    "hookwire: {} has no schema for version {}: versions with a schema: 1 … {current}",
                    desc.name(),
                    version.unwrap_or(current)
                );
                ExitCode::from(2)
            }
        },
        Cmd::Diff {
            from_version,
            to_version,
            against,
            format,
            root,
        } => diff_command(desc, from_version, to_version, against.as_deref(), &format, &root),
        Cmd::Check { root, against } => {
            let mut failed = false;
            for f in selected(desc, explicit) {
                let violations = guard::check(&root, f.registry);
                for v in &violations {
                    eprintln!("error[{:?}]: {}", v.rule, v.message);
                }
                // The code's shapes against the frozen schemas, every change classified.
                let schemas = hookwire::conformance::check_schemas(f, &root, false);
                for m in &schemas {
                    eprintln!("error[Shapes]: {m}");
                }
                failed |= !violations.is_empty() || !schemas.is_empty();
                if violations.is_empty() && schemas.is_empty() {
                    out(&format!(
                        "{}: registry, version modules, steps, tests and lock are consistent",
                        f.name()
                    ));
                }
            }
            if let Some(rev) = against {
                match evolve::check_against(&root, &rev, &selected(desc, explicit)) {
                    Ok(problems) if problems.is_empty() => out(&format!(
                        "against {rev}: locked files unchanged, the lock only grown, no version gone"
                    )),
                    Ok(problems) => {
                        problems.iter().for_each(|p| eprintln!("error[Against]: {p}"));
                        failed = true;
                    }
                    Err(e) => {
                        eprintln!("hookwire: check --against {rev}: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
        Cmd::NewVersion { root } => new_version(desc, &root),
        Cmd::Ship { root } => ship(selected(desc, explicit), &root),
        Cmd::Manifest { compare } => manifest(compare.as_deref()),
        Cmd::Lock { root } => {
            for f in selected(desc, explicit) {
                match artifacts::extend_lock(&root, f.registry) {
                    Ok(added) => added.iter().for_each(|p| out(&format!("locked {p}"))),
                    Err(e) => {
                        eprintln!("hookwire: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            ExitCode::SUCCESS
        }
        Cmd::Removable => {
            for f in selected(desc, explicit) {
                for r in f.removable {
                    out(&format!("{}\n  at:   {}\n  when: {}\n", r.what, r.site, r.when));
                }
            }
            ExitCode::SUCCESS
        }
        Cmd::Demo => {
            demo();
            ExitCode::SUCCESS
        }
        Cmd::Completions { shell } => {
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "hookwire", &mut buf);
            out(String::from_utf8_lossy(&buf).trim_end());
            ExitCode::SUCCESS
        }
    }
}

/// `hookwire diff`: two versions of this build, or this build against a git revision's frozen
/// schemas (every version there that this build also has, and each version this build adds,
/// against the newest one there). Exit 0 whatever the verdicts (it reports; the guard decides).
fn diff_command(
    desc: &FamilyDesc,
    from: Option<u32>,
    to: Option<u32>,
    against: Option<&str>,
    format: &str,
    root: &std::path::Path,
) -> ExitCode {
    let shape = |v: u32| desc.version(v).map(|p| p.wire);
    let mut pairs: Vec<(
        String,
        &'static hookwire::shape::Shape,
        u32,
        &'static hookwire::shape::Shape,
    )> = Vec::new();
    match (from, to, against) {
        (Some(a), Some(b), None) => match (shape(a), shape(b)) {
            (Some(x), Some(y)) => pairs.push((format!("v{a}"), x, b, y)),
            _ => {
                eprintln!(
                    "hookwire: {} has versions 1 … {}; no version {}",
                    desc.name(),
                    desc.registry.current,
                    if shape(a).is_none() { a } else { b }
                );
                return ExitCode::from(2);
            }
        },
        (None, None, Some(rev)) => {
            if let Err(e) = evolve::verify_commit(root, rev) {
                eprintln!("hookwire: {e}");
                return ExitCode::from(2);
            }
            let mut newest_there = None;
            for v in 1..=desc.registry.current.max(64) {
                let rel = format!("artifacts/{}/v{v}/schema.json", desc.name());
                let shown = std::process::Command::new("git")
                    .args(["show", &format!("{rev}:{rel}")])
                    .current_dir(root)
                    .output();
                let Ok(out) = shown else {
                    eprintln!("hookwire: cannot run git");
                    return ExitCode::from(2);
                };
                if !out.status.success() {
                    continue;
                }
                let parsed = serde_json::from_slice::<Value>(&out.stdout)
                    .map_err(|e| e.to_string())
                    .and_then(|doc| hookwire::shape::from_json_schema(&doc));
                match (parsed, shape(v)) {
                    (Ok(there), Some(here)) => {
                        pairs.push((format!("{rev}:v{v}"), there, v, here));
                        newest_there = Some((v, there));
                    }
                    (Ok(there), None) => {
                        eprintln!("hookwire: version {v} exists at {rev} but not in this tree: a version disappeared");
                        newest_there = Some((v, there));
                    }
                    (Err(e), _) => {
                        eprintln!("hookwire: cannot read {rev}:{rel}: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            match newest_there {
                Some((n, there)) => {
                    for v in n + 1..=desc.registry.current {
                        if let Some(here) = shape(v) {
                            pairs.push((format!("{rev}:v{n}"), there, v, here));
                        }
                    }
                }
                None if format != "json" => out(&format!(
                    "{rev} has no frozen schema of {}: every version of it is new in this tree",
                    desc.name()
                )),
                None => {}
            }
        }
        _ => {
            eprintln!("hookwire: diff takes --from-version A --to-version B, or --against GIT_REF");
            return ExitCode::from(2);
        }
    }
    let mut all = Vec::new();
    for (label, a, b, b_shape) in &pairs {
        let changes = hookwire::diff::diff(a, b_shape);
        match format {
            "json" => {
                all.push(json!({"from": label, "to": format!("v{b}"), "changes": hookwire::diff::to_json(&changes)}))
            }
            "github" => {
                let file = format!("{}/v{b}.rs", desc.registry.module_dir);
                let source = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
                let line_of = |c: &hookwire::diff::Change| {
                    let field = c.path.rsplit('/').next().unwrap_or("");
                    let quoted = format!("\"{field}\"");
                    source.lines().position(|l| l.contains(&quoted)).map_or(1, |i| i + 1)
                };
                let text = hookwire::diff::to_github(&changes, &file, line_of);
                if !text.is_empty() {
                    out(text.trim_end());
                }
            }
            _ => out(&format!(
                "{label} → v{b}:\n{}",
                hookwire::diff::to_text(&changes).trim_end()
            )),
        }
    }
    if format == "json" {
        // Two versions of this build: the bare list; against a revision: one entry per pair.
        let answer = match (from, to) {
            (Some(_), Some(_)) => all.pop().map_or(Value::Array(vec![]), |mut p| p["changes"].take()),
            _ => Value::Array(all),
        };
        out(&canonical::to_string(&answer));
    }
    ExitCode::SUCCESS
}

/// `hookwire new-version`: scaffold, then say what was written and what comes next.
fn new_version(desc: &'static FamilyDesc, root: &std::path::Path) -> ExitCode {
    match evolve::new_version(desc, root) {
        Ok(s) => {
            out(&format!(
                "{}: version {} scaffolded from version {}",
                s.family, s.to, s.from
            ));
            s.created.iter().for_each(|p| out(&format!("  created {p}")));
            s.changed.iter().for_each(|p| out(&format!("  changed {p}")));
            s.renamed
                .iter()
                .for_each(|(a, b)| out(&format!("  moved   {a} → {b} (a newer-version probe)")));
            out("next:");
            evolve::next_steps(&s).iter().for_each(|l| out(&format!("  {l}")));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hookwire: new-version: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `hookwire ship`: each family's newest unshipped version, or "nothing to ship".
fn ship(families: Vec<&'static FamilyDesc>, root: &std::path::Path) -> ExitCode {
    let mut failed = false;
    for f in families {
        match evolve::ship(f, root) {
            Ok(None) => out(&format!(
                "{}: nothing to ship: versions 1 … {} have all shipped",
                f.name(),
                f.registry.current
            )),
            Ok(Some(s)) => {
                let versions: Vec<String> = s.versions.iter().map(u32::to_string).collect();
                out(&format!("{}: shipped version {}", s.family, versions.join(", ")));
                s.locked.iter().for_each(|p| out(&format!("  locked {p}")));
                if s.manifest {
                    out(&format!("  wrote {}", evolve::MANIFEST));
                }
            }
            Err(lines) => {
                lines.iter().for_each(|l| eprintln!("error[Ship]: {l}"));
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `hookwire manifest [--compare OLD.json]`.
fn manifest(compare: Option<&std::path::Path>) -> ExitCode {
    let now = evolve::manifest(FAMILIES);
    let Some(path) = compare else {
        out(evolve::manifest_text(&now).trim_end());
        return ExitCode::SUCCESS;
    };
    let old = std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string()));
    let verdict = old.and_then(|old| evolve::compare_manifests(&old, &now));
    match verdict {
        Ok(problems) if problems.is_empty() => {
            out("compatible");
            ExitCode::SUCCESS
        }
        Ok(problems) => {
            for (rule, message) in problems {
                eprintln!("error[{rule}]: {message}");
            }
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("hookwire: manifest --compare {}: {e}", path.display());
            ExitCode::from(2)
        }
    }
}

/// The family asked for, or every family when none was named (maintainer commands).
fn selected(desc: &'static FamilyDesc, explicit: bool) -> Vec<&'static FamilyDesc> {
    if explicit {
        vec![desc]
    } else {
        FAMILIES.to_vec()
    }
}

fn decode_value(desc: &FamilyDesc, v: &Value) -> Result<Value, Answer> {
    Answer::from((desc.decode)(v)).ok()
}

/// Print a line on stdout. A reader that went away (a closed pipe: `hookwire demo | head`) stops
/// the program quietly; any other write error (a full disk) is an I/O failure, exit 2.
fn out(text: &str) {
    let mut stdout = io::stdout().lock();
    if let Err(e) = writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        if e.kind() == io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("hookwire: cannot write stdout: {e}");
        std::process::exit(2);
    }
}

fn fail(a: &Answer) -> ExitCode {
    eprintln!("error[{}]: {}", a.code().unwrap_or(""), a.message().unwrap_or_default());
    ExitCode::FAILURE
}

/// Parse one JSON text: any depth up to [`MAX_DEPTH`], duplicate keys last-wins, `1.0` a number
/// like any other (decode treats integral numbers as integers).
fn parse(bytes: &[u8]) -> Result<Value, Answer> {
    // Most texts nest far less than serde_json's own limit (128 levels): parsed with that limit
    // on, they need no depth scan first. Anything refused here, for whatever reason, is parsed
    // again the long way, which reports it exactly as before (the same parser, from the bytes).
    // The text checked as UTF-8 once, so the parser need not check each string again.
    if let Ok(text) = std::str::from_utf8(bytes) {
        let mut de = serde_json::Deserializer::from_str(text);
        if let Ok(v) = Value::deserialize(&mut de).and_then(|v| de.end().map(|()| v)) {
            return Ok(v);
        }
    }
    parse_deep(bytes)
}

/// [`parse`] without serde_json's depth limit: the depth checked first against [`MAX_DEPTH`].
#[cold]
fn parse_deep(bytes: &[u8]) -> Result<Value, Answer> {
    let depth = max_depth(bytes);
    if depth > MAX_DEPTH {
        return Err(Answer::transport(
            Transport::TooDeep,
            format!("input nests {depth} levels deep; the limit is {MAX_DEPTH}"),
        ));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let value = Value::deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    value.map_err(|e| {
        let text = e.to_string();
        let why = if text.contains("surrogate") {
            " (an unpaired UTF-16 surrogate escape such as \\ud800 cannot be held without altering it)"
        } else {
            ""
        };
        Answer::transport(
            Transport::InvalidJson,
            format!("input is not JSON this tool can read: {text}{why}"),
        )
    })
}

/// The deepest nesting of arrays and objects in a JSON text (strings skipped).
fn max_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut max, mut in_str, mut esc) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_str {
            match (esc, b) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

fn one(file: Option<PathBuf>, f: impl Fn(&Value) -> Result<Value, Answer>) -> ExitCode {
    let mut bytes = Vec::new();
    let file = file.filter(|p| p.as_os_str() != "-");
    let read = match &file {
        Some(path) => std::fs::File::open(path).and_then(|mut h| h.read_to_end(&mut bytes)),
        None => io::stdin().lock().read_to_end(&mut bytes),
    };
    if let Err(e) = read {
        let name = file
            .as_ref()
            .map_or_else(|| "stdin".into(), |p| p.display().to_string());
        eprintln!("hookwire: cannot read {name}: {e}");
        return ExitCode::from(2);
    }
    match parse(&bytes).and_then(|v| f(&v)) {
        Ok(v) => {
            out(&canonical::to_string(&v));
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}

fn result_line(r: Result<Value, Answer>) -> String {
    r.map_or_else(|a| a, Answer::Ok).to_text()
}

/// One `encode --lines` request line read: its command and its target (the current version,
/// `current`, when it names none), or the answer that refuses the line.
fn encode_request(current: u32, line: &[u8]) -> Result<(Value, Value), Answer> {
    let v = parse(line)?;
    let Value::Object(mut req) = v else {
        let message = "each line must be {\"command\": …, \"target\": …}";
        return Err(Answer::transport_at(Transport::InvalidRequest, message, ""));
    };
    let Some(command) = req.remove("command") else {
        let message = "the line has no \"command\"";
        return Err(Answer::transport_at(Transport::InvalidRequest, message, "/command"));
    };
    let target = req.remove("target").unwrap_or_else(|| json!({ "version": current }));
    Ok((command, target))
}

/// A reader that went away (a closed pipe) stops the stream quietly; any other write error (a
/// full disk) is an I/O failure: exit 2, so no caller takes a truncated answer for a whole one.
fn write_failed(e: &io::Error) -> ExitCode {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("hookwire: cannot write stdout: {e}");
    ExitCode::from(2)
}

/// What the reading thread hands the answering one: the lines of one batch, and whether the
/// input had no more bytes buffered after the last of them (the answers are flushed then); or the
/// read error that ended the input.
enum Batch<T> {
    Lines(Lines<T>, bool),
    Failed(io::Error),
}

/// A batch's lines: each made a value by the reader (`None`: longer than `--max-line-bytes`, not
/// read), or left as text for the answering thread to parse — one buffer of the lines' bodies and
/// where each is in it (`None` again for a line too long).
enum Lines<T> {
    Parsed(Vec<Option<T>>),
    Text(Vec<u8>, Vec<Option<Range<usize>>>),
}

/// A batch is handed over at the latest after this many lines, or this many bytes of them (and
/// whenever no more input is buffered): what the answering thread can fall behind by is bounded.
const BATCH_LINES: usize = 128;
const BATCH_BYTES: usize = 256 << 10;

/// Exactly one output line per input line; a bad line never stops the stream. Output is flushed
/// whenever no more input is buffered, so a producer can wait for each answer.
///
/// Answer each line of `file` (stdin when none, or `-`), one output line each, in two threads:
/// one reads the lines and `parse`s them (for `encode --lines`, about half the work: the JSON
/// text made a value, or the answer that refuses the line), the other `answer`s the values in
/// order, appending each answer to the buffer it is given (one buffer, reused), and writes. They hand lines over in batches through a channel
/// of two, so the reader is at most a few batches ahead. A batch the reader starts while the
/// answering thread waits for one is handed over as text, and that thread parses it itself: the
/// parsing is shared out by how busy each thread is, whatever a line costs to answer. An answered
/// batch the reader parsed goes back to it to be dropped: memory is freed by the thread that
/// allocated it, which costs the allocator far less than a free from another thread.
fn lines_with<T: Send + 'static, P: Fn(&[u8]) -> Result<T, Answer> + Clone + Send + 'static>(
    file: Option<PathBuf>,
    max_line_bytes: usize,
    parse: P,
    mut answer: impl FnMut(&T, &mut String),
) -> ExitCode {
    let file = file.filter(|p| p.as_os_str() != "-");
    let name = file
        .as_ref()
        .map_or_else(|| "stdin".into(), |p| p.display().to_string());
    let opened = match &file {
        Some(path) => match std::fs::File::open(path) {
            Ok(h) => Some(h),
            Err(e) => {
                eprintln!("hookwire: cannot read {name}: {e}");
                return ExitCode::from(2);
            }
        },
        None => None,
    };
    let (send, batches) = std::sync::mpsc::sync_channel::<Batch<Result<T, Answer>>>(2);
    let (give_back, answered) = std::sync::mpsc::channel::<Vec<Option<Result<T, Answer>>>>();
    let waiting = Arc::new(AtomicBool::new(false));
    // The reader parses deep JSON recursively, as the work thread does, so it has the same stack.
    // It is not joined: when the answers cannot be written the program ends while it may still
    // be waiting for input.
    let reader = {
        let (parse, waiting) = (parse.clone(), Arc::clone(&waiting));
        std::thread::Builder::new().stack_size(STACK).spawn(move || {
            let source: Box<dyn Read> = match opened {
                Some(h) => Box::new(h),
                None => Box::new(io::stdin().lock()),
            };
            read_batches(source, max_line_bytes, &parse, &send, &answered, &waiting);
        })
    };
    if let Err(e) = reader {
        eprintln!("hookwire: cannot start the reading thread: {e}");
        return ExitCode::from(2);
    }
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut text = String::new();
    let too_large = Answer::transport(
        Transport::TooLarge,
        format!("the line is longer than --max-line-bytes ({max_line_bytes} bytes); it was not read"),
    )
    .to_text();
    let mut write = |line: Option<&Result<T, Answer>>, out: &mut BufWriter<io::StdoutLock<'_>>| {
        text.clear();
        match line {
            Some(Ok(parsed)) => answer(parsed, &mut text),
            Some(Err(refused)) => text.push_str(&refused.clone().to_text()),
            None => text.push_str(&too_large),
        }
        text.push('\n');
        out.write_all(text.as_bytes())
    };
    loop {
        let batch = match batches.try_recv() {
            Ok(batch) => batch,
            Err(TryRecvError::Disconnected) => break,
            Err(TryRecvError::Empty) => {
                waiting.store(true, Ordering::Relaxed);
                let Ok(batch) = batches.recv() else { break };
                waiting.store(false, Ordering::Relaxed);
                batch
            }
        };
        let (lines, idle) = match batch {
            Batch::Lines(lines, idle) => (lines, idle),
            Batch::Failed(e) => {
                let _ = out.flush();
                eprintln!("hookwire: cannot read {name}: {e}");
                return ExitCode::from(2);
            }
        };
        let written = match lines {
            Lines::Parsed(lines) => {
                let written = lines.iter().try_for_each(|line| write(line.as_ref(), &mut out));
                let _ = give_back.send(lines);
                written
            }
            Lines::Text(bodies, at) => at
                .into_iter()
                .try_for_each(|range| write(range.map(|r| parse(&bodies[r])).as_ref(), &mut out)),
        };
        if let Err(e) = written.and_then(|()| if idle { out.flush() } else { Ok(()) }) {
            return write_failed(&e);
        }
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => write_failed(&e),
    }
}

/// The reading thread of [`lines_with`]: each line of `source`, its line ending taken off, sent
/// in batches, made a value by `parse` unless the answering thread was `waiting` when the batch
/// began; a read error is sent after the lines before it. It stops at the end of the input, or as
/// soon as the answering thread has gone. The batches it gets back answered are dropped here, and
/// their buffers reused.
fn read_batches<T>(
    source: impl Read,
    max_line_bytes: usize,
    parse: &impl Fn(&[u8]) -> T,
    send: &SyncSender<Batch<T>>,
    answered: &Receiver<Vec<Option<T>>>,
    waiting: &AtomicBool,
) {
    let mut input = io::BufReader::with_capacity(1 << 16, source);
    let mut line = Vec::new();
    let mut lines = Lines::Parsed(Vec::new());
    let (mut count, mut bytes) = (0, 0);
    loop {
        if count == 0 {
            lines = if waiting.swap(false, Ordering::Relaxed) {
                Lines::Text(Vec::new(), Vec::new())
            } else {
                let mut parsed = Vec::new();
                for mut done in answered.try_iter() {
                    done.clear();
                    parsed = done;
                }
                Lines::Parsed(parsed)
            };
        }
        line.clear();
        let fits = match read_line_within(&mut input, &mut line, max_line_bytes) {
            Ok(None) => break,
            Ok(Some(fits)) => fits,
            Err(e) => {
                if count > 0 && send.send(Batch::Lines(lines, true)).is_err() {
                    return;
                }
                let _ = send.send(Batch::Failed(e));
                return;
            }
        };
        let mut body: &[u8] = &line;
        if let Some(rest) = body.strip_suffix(b"\n") {
            body = rest.strip_suffix(b"\r").unwrap_or(rest);
        }
        match &mut lines {
            Lines::Parsed(parsed) => parsed.push(fits.then(|| parse(body))),
            Lines::Text(bodies, at) => {
                let start = bodies.len();
                bodies.extend_from_slice(if fits { body } else { b"" });
                at.push(fits.then_some(start..bodies.len()));
            }
        }
        count += 1;
        bytes += line.len();
        let idle = input.buffer().is_empty();
        if idle || count >= BATCH_LINES || bytes >= BATCH_BYTES {
            let batch = std::mem::replace(&mut lines, Lines::Parsed(Vec::new()));
            if send.send(Batch::Lines(batch, idle)).is_err() {
                return;
            }
            (count, bytes) = (0, 0);
        }
    }
    if count > 0 {
        let _ = send.send(Batch::Lines(lines, true));
    }
}

/// Read one line (with its newline) into `line`, keeping no more of it than `max` bytes and its
/// line ending: `Some(true)` when it fit, `Some(false)` when it was longer (the rest is skipped,
/// never kept), `None` at the end of the input.
fn read_line_within(input: &mut impl BufRead, line: &mut Vec<u8>, max: usize) -> io::Result<Option<bool>> {
    let content = |line: &[u8]| {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        body.strip_suffix(b"\r").unwrap_or(body).len()
    };
    let (mut read, mut fits) = (false, true);
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(read.then(|| fits && content(line) <= max));
        }
        read = true;
        let (n, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if fits && line.len() + n <= max.saturating_add(2) {
            line.extend_from_slice(&buf[..n]);
        } else {
            fits = false;
            line.clear();
        }
        input.consume(n);
        if done {
            return Ok(Some(fits && content(line) <= max));
        }
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn demo() {
    let say = out;
    let line = |v: &Value| canonical::to_string(v);
    say("hookwire demo — the session inbox wire contract, both sides, across versions 0 to 6\n");
    say("1. A version 6 producer encodes one `send` command for each kind of receiver it may meet:");
    let command = json!({
        "kind": "send",
        "payload": {"message": "Where is my order #1042?", "interaction": {"channel": "web"}},
        "delivery": {"channelKind": "web", "channelName": "support", "deliveryId": "d-1", "acceptedDeploymentId": "dpl-6"},
        "caller": {"callId": "call-1", "subagentName": "researcher", "replyTo": {"kind": "hook", "token": "reply-1"},
                   "activityObserver": {"sink": {"url": "https://observe.example/a", "version": 1}}},
        "requestId": "req-7"
    });
    say(&format!("   command: {}", line(&command)));
    for (name, why) in [
        (
            "v6",
            "a session of this build (metadata {sessionInboxWireVersion: 6}): nothing dropped",
        ),
        (
            "v3",
            "a session pinned to a version 3 build: it reads the observer (2) and acceptedDeploymentId (3)",
        ),
        (
            "v1",
            "a session pinned to a version 1 build: down steps 3 → 2 and 2 → 1 drop both",
        ),
        (
            "v0-send",
            "a markerless stable inbox (builds 0.30.5–0.31.0 read .payload); acceptedDeploymentId kept",
        ),
        (
            "v0-deliver",
            "a markerless continuation without a stable inbox (builds ≤ 0.30.4)",
        ),
    ] {
        let target = Target::from_name(name).unwrap_or(Target::CURRENT);
        match encode(&command, target) {
            Ok(wire) => {
                let back = session_inbox::decode(&wire).map(|d| line(&d));
                say(&format!(
                    "   → {name:<10} for {why}\n     wire:    {}\n     decoded: {}",
                    line(&wire),
                    show(back)
                ));
            }
            Err(e) => say(&format!("   → {name}: error[{}] {}", e.code.as_str(), e.message)),
        }
    }
    say("\n2. An older receiver that cannot carry an operation gets nothing, never a part of it:");
    let cancel = json!({"kind": "cancel", "turnId": "turn-3", "tasks": true});
    for name in ["v6", "v5"] {
        let target = Target::from_name(name).unwrap_or(Target::CURRENT);
        let answer = match encode(&cancel, target) {
            Ok(wire) => format!("wire {}", line(&wire)),
            Err(e) => format!(
                "error[{}] at {} (version {:?}): {}",
                e.code.as_str(),
                e.path,
                e.version.unwrap_or(0),
                e.message
            ),
        };
        say(&format!("   {} for {name}\n     → {answer}", line(&cancel)));
    }
    say("\n3. The encoder validates the complete value once; a bad command never reaches the wire:");
    let bad = json!({"kind": "deliver", "payloads": [{"message": [{"type": "text", "text": 42}]}]});
    match encode(&bad, Target::CURRENT) {
        Ok(_) => say("   (unexpectedly accepted)"),
        Err(e) => say(&format!(
            "   {}\n   → error[{}] at {}: expected {}",
            line(&bad),
            e.code.as_str(),
            e.path,
            e.expected
        )),
    }
    say("\n4. The decoder reads every cohort ever persisted, walking the steps up to version 6, and refuses");
    say("   what it cannot read:");
    let old_form = json!({"taskId": "task-1", "hookPayload": {"childContinuationToken": "child-1",
        "event": {"requests": [{"prompt": "Proceed?"}, {"prompt": "Which branch?"}], "sequence": 4, "stepIndex": 2, "turnId": "turn-7"}}});
    let cohorts = [
        (
            "legacy deliver envelope (≤ 0.30.4)",
            json!({"kind": "deliver", "payloads": [{"message": "hi"}], "requestId": "r-1"}),
        ),
        (
            "raw send command (0.30.5–0.31.0)",
            json!({"kind": "send", "payload": {"message": "hi"}, "delivery": {"channelKind": "web", "channelName": "c", "deliveryId": "d"}}),
        ),
        ("unversioned control", json!({"kind": "cancel", "taskId": "t-1"})),
        (
            "version 1 with its mirror",
            json!({"kind": "deliver", "version": 1, "payloads": [{"message": "hi"}], "payload": {"message": "hi"}}),
        ),
        (
            "version 3 with an old-form input request (rewritten by the 3 → 4 step)",
            json!({"kind": "deliver", "version": 3, "payloads": [{"task": {"inputRequests": [old_form]}}], "payload": {}}),
        ),
        (
            "version 6 cancelling a turn's tasks",
            json!({"kind": "cancel", "version": 6, "turnId": "turn-3", "tasks": true}),
        ),
        (
            "a newer deployment's value",
            json!({"kind": "deliver", "version": 7, "payloads": [], "payload": {}}),
        ),
        (
            "version 2 carrying task operations only version 4 has",
            json!({"kind": "deliver", "version": 2, "payloads": [{"task": {"agentRequests": []}}], "payload": {}}),
        ),
        (
            "an envelope that is not what version 6 declares",
            json!({"kind": "deliver", "version": 6, "payloads": [{}, "two"], "payload": {}}),
        ),
        ("a quoted version", json!({"kind": "clear", "version": "1"})),
        ("a raw send without payload", json!({"kind": "send"})),
        ("an unknown kind", json!({"kind": "explode", "version": 1})),
    ];
    for (label, value) in cohorts {
        let decoded = session_inbox::decode(&value).map(|d| line(&d));
        say(&format!(
            "   {label}\n     in:  {}\n     out: {}",
            line(&value),
            show(decoded)
        ));
    }
    say("\nA consumer that gets an error reports it through a recorded step and stays parked:");
    say("a lost delivery with an operator-visible signal, never a reinterpreted one.");
}

fn show(r: Result<String, DecodeError>) -> String {
    match r {
        Ok(s) => s,
        Err(e) if e.detail.at.is_some() => format!("error[{}] at {}: {e}", e.code.as_str(), e.path()),
        Err(e) => format!("error[{}] {e}", e.code.as_str()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of every batch `read_batches` sends for `input`, each as the parsed text (or
    /// `None`, too long), with whether the batch was left as text, and the flush flag.
    fn batches(input: &[u8], waiting: bool) -> Vec<(bool, Vec<Option<String>>, bool)> {
        let parse = |l: &[u8]| String::from_utf8_lossy(l).into_owned();
        let (send, received) = std::sync::mpsc::sync_channel(64);
        let (_give_back, answered) = std::sync::mpsc::channel();
        read_batches(input, 8, &parse, &send, &answered, &AtomicBool::new(waiting));
        drop(send);
        received
            .into_iter()
            .map(|b| match b {
                Batch::Lines(Lines::Parsed(lines), idle) => (false, lines, idle),
                Batch::Lines(Lines::Text(bodies, at), idle) => (
                    true,
                    at.into_iter().map(|r| r.map(|r| parse(&bodies[r]))).collect(),
                    idle,
                ),
                Batch::Failed(e) => panic!("{e}"),
            })
            .collect()
    }

    #[test]
    fn a_batch_is_the_same_lines_parsed_by_either_thread() {
        let input = b"one\r\ntoo long a line\n\ntwo";
        let lines = vec![Some("one".into()), None, Some(String::new()), Some("two".into())];
        // All of the input is buffered at once, so the one batch ends where the input does.
        assert_eq!(batches(input, false), vec![(false, lines.clone(), true)]);
        // The answering thread waiting when the batch begins: the same lines, left as text.
        assert_eq!(batches(input, true), vec![(true, lines, true)]);
        assert!(batches(b"", true).is_empty());
    }

    #[test]
    fn a_batch_ends_after_its_most_lines() {
        let input = "x\n".repeat(BATCH_LINES + 1);
        let sent = batches(input.as_bytes(), false);
        let sizes: Vec<(usize, bool)> = sent.iter().map(|(_, l, idle)| (l.len(), *idle)).collect();
        assert_eq!(sizes, [(BATCH_LINES, false), (1, true)]);
    }
}
