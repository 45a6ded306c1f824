//! `hookwire`: decode and encode session inbox values, render the frozen schema, run the
//! registry guard, list removable paths, and demonstrate the whole contract.

use hookwire::artifacts;
use hookwire::session_inbox::encode::{encode, encode_result, error_json, Target};
use hookwire::session_inbox::target::{self, Options};
use hookwire::session_inbox::{self, REGISTRY, WIRE_VERSION};
use hookwire::{canonical, guard, DecodeError, EncodeError};
use serde::Deserialize as _;
use serde_json::{json, Map, Value};
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Input nested deeper than this is refused with `TOO_DEEP` (it is far beyond any real payload,
/// and the work thread's stack is sized for it: about 2 KiB a level in a debug build).
const MAX_DEPTH: usize = 131_072;
/// The work thread's stack: deep JSON is parsed, cloned, written and dropped recursively.
const STACK: usize = 1 << 30;

const USAGE: &str = "\
hookwire — versioned wire contracts for durable workflow hook payloads (session inbox)

usage:
  hookwire decode [FILE]                  one JSON value (stdin without FILE) → decoded canonical JSON
  hookwire decode --lines                 NDJSON in → one {\"ok\":…} or {\"error\":…} line per line
  hookwire encode --target T [FILE]       one command → the wire value for T (v1 … v6, v0-deliver, v0-send)
  hookwire encode --lines                 NDJSON {\"command\":…,\"target\":…} in → one result line per line
  hookwire negotiate --lines [--write-at-most N]
                                          NDJSON {\"command\",\"destination\",\"hooks\",\"stableInboxToken\"?} in →
                                          one {\"ok\":{\"target\",\"lookups\",\"resume\"}} or {\"error\":…} line per line
  hookwire schema [--version N]           the canonical JSON Schema of version N (1 … 6; default: current)
  hookwire check [--root DIR]             the registry guard and the artifact lock
  hookwire lock [--root DIR]              add lock lines for shipped files not yet locked
  hookwire removable                      temporary compatibility paths and when they can go
  hookwire demo                           encode for every target and decode every historic cohort

exit: 0 ok; 1 the value could not be decoded/encoded (stderr: error[CODE]: message); 2 usage or I/O.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let worker = std::thread::Builder::new().stack_size(STACK).spawn(move || run(&args));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(2),
    }
}

fn run(args: &[String]) -> ExitCode {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let flag = |name: &str| {
        words
            .iter()
            .position(|w| *w == name)
            .and_then(|i| words.get(i + 1).copied())
    };
    let has = |name: &str| words.contains(&name);
    let file = || {
        let mut skip = false;
        words
            .iter()
            .skip(1)
            .find(|w| {
                let s = std::mem::take(&mut skip);
                if w.starts_with("--") {
                    skip = matches!(**w, "--target" | "--version" | "--root" | "--write-at-most");
                    return false;
                }
                !s
            })
            .copied()
    };
    let root = || PathBuf::from(flag("--root").unwrap_or("."));
    match words.first().copied() {
        Some("decode") if has("--lines") => lines(|l| result_line(decode_line(l))),
        Some("decode") => one(file(), |v| session_inbox::decode(v).map_err(|e| decode_error(&e))),
        Some("encode") if has("--lines") => lines(|l| match encode_line(l) {
            Ok(answer) => canonical::to_string(&answer),
            Err(f) => result_line(Err(f)),
        }),
        Some("encode") => {
            let target = match Target::from_name(flag("--target").unwrap_or("v1")) {
                Ok(t) => t,
                Err(e) => return fail(&encode_error(&e)),
            };
            one(file(), |v| encode(v, target).map_err(|e| encode_error(&e)))
        }
        Some("negotiate") if has("--lines") => {
            let ceiling = match flag("--write-at-most").map(|w| w.parse::<u32>()) {
                None => Ok(WIRE_VERSION),
                Some(Ok(n)) => Ok(n),
                Some(Err(_)) => Err(format!("{:?} is not a version", flag("--write-at-most").unwrap_or(""))),
            };
            match ceiling.and_then(|c| Options::default().with_write_ceiling(c)) {
                Ok(options) => lines_with(|l| negotiate_line(l, &options)),
                Err(e) => {
                    eprintln!("hookwire: --write-at-most: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some("schema") => {
            let version = flag("--version").map_or(Some(REGISTRY.current), |v| v.parse().ok());
            match version.filter(|v| (1..=WIRE_VERSION).contains(v)) {
                Some(v) => {
                    out(&pretty(&(session_inbox::producer_version(v).json_schema)()));
                    ExitCode::SUCCESS
                }
                None => {
                    eprintln!(
                        "hookwire: no schema for version {}: versions with a schema: 1 … {WIRE_VERSION}",
                        flag("--version").unwrap_or("")
                    );
                    ExitCode::from(2)
                }
            }
        }
        Some("check") => {
            let violations = guard::check(&root(), &REGISTRY);
            for v in &violations {
                eprintln!("error[{:?}]: {}", v.rule, v.message);
            }
            if violations.is_empty() {
                out(&format!(
                    "{}: registry, version modules, steps, tests and lock are consistent",
                    REGISTRY.name
                ));
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some("lock") => match artifacts::extend_lock(&root(), &REGISTRY) {
            Ok(added) => {
                added.iter().for_each(|p| out(&format!("locked {p}")));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("hookwire: {e}");
                ExitCode::from(2)
            }
        },
        Some("removable") => {
            for r in session_inbox::REMOVABLE {
                out(&format!("{}\n  at:   {}\n  when: {}\n", r.what, r.site, r.when));
            }
            ExitCode::SUCCESS
        }
        Some("demo") => {
            demo();
            ExitCode::SUCCESS
        }
        Some("help" | "--help" | "-h") => {
            out(USAGE);
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
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

/// An error as the CLI reports it: a code, a message, and the extra fields that apply.
struct Failure {
    code: &'static str,
    message: String,
    extra: Map<String, Value>,
}

fn decode_error(e: &DecodeError) -> Failure {
    let mut extra = Map::new();
    if let Some(v) = e.version {
        extra.insert("version".into(), hookwire::json::json_number(v));
    }
    if e.detail.at.is_some() {
        extra.insert("path".into(), json!(e.path()));
        extra.insert("expected".into(), json!(e.detail.text()));
    }
    Failure {
        code: e.code.as_str(),
        message: e.to_string(),
        extra,
    }
}

fn encode_error(e: &EncodeError) -> Failure {
    let mut extra = match error_json(e) {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    extra.remove("code");
    extra.remove("message");
    Failure {
        code: e.code.as_str(),
        message: e.message.clone(),
        extra,
    }
}

fn input_error(code: &'static str, message: String) -> Failure {
    Failure {
        code,
        message,
        extra: Map::new(),
    }
}

fn fail(f: &Failure) -> ExitCode {
    eprintln!("error[{}]: {}", f.code, f.message);
    ExitCode::FAILURE
}

/// Parse one JSON text: any depth up to [`MAX_DEPTH`], duplicate keys last-wins, `1.0` a number
/// like any other (decode treats integral numbers as integers).
fn parse(bytes: &[u8]) -> Result<Value, Failure> {
    let depth = max_depth(bytes);
    if depth > MAX_DEPTH {
        return Err(input_error(
            "TOO_DEEP",
            format!("input nests {depth} levels deep; the limit is {MAX_DEPTH}"),
        ));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let value = Value::deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    value.map_err(|e| {
        let text = e.to_string();
        let why = if text.contains("escape") {
            " (an unpaired UTF-16 surrogate escape such as \\ud800 cannot be held without altering it)"
        } else {
            ""
        };
        input_error(
            "INVALID_JSON",
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

fn one(file: Option<&str>, f: impl Fn(&Value) -> Result<Value, Failure>) -> ExitCode {
    let mut bytes = Vec::new();
    let read = match file {
        Some(path) => std::fs::File::open(path).and_then(|mut h| h.read_to_end(&mut bytes)),
        None => io::stdin().lock().read_to_end(&mut bytes),
    };
    if let Err(e) = read {
        eprintln!("hookwire: cannot read {}: {e}", file.unwrap_or("stdin"));
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

fn result_line(r: Result<Value, Failure>) -> String {
    match r {
        Ok(v) => format!("{{\"ok\":{}}}", canonical::to_string(&v)),
        Err(f) => {
            let mut err = f.extra;
            err.insert("code".into(), json!(f.code));
            err.insert("message".into(), json!(f.message));
            format!("{{\"error\":{}}}", canonical::to_string(&Value::Object(err)))
        }
    }
}

fn decode_line(line: &[u8]) -> Result<Value, Failure> {
    let v = parse(line)?;
    session_inbox::decode(&v).map_err(|e| decode_error(&e))
}

fn encode_line(line: &[u8]) -> Result<Value, Failure> {
    let v = parse(line)?;
    let Value::Object(mut req) = v else {
        return Err(input_error(
            "INVALID_REQUEST",
            "each line must be {\"command\": …, \"target\": …}".into(),
        ));
    };
    let Some(command) = req.remove("command") else {
        return Err(input_error("INVALID_REQUEST", "the line has no \"command\"".into()));
    };
    let target = req.remove("target").unwrap_or_else(|| Target::CURRENT.to_json());
    Ok(encode_result(command, &target))
}

/// One `negotiate --lines` line (contract §12), answered by the library's one owner of the rules.
fn negotiate_line(line: &[u8], options: &Options) -> String {
    match parse(line) {
        Ok(v) => canonical::to_string(&target::answer_request(&v, options)),
        Err(f) => result_line(Err(f)),
    }
}

/// Exactly one output line per input line; a bad line never stops the stream. Output is flushed
/// whenever no more input is buffered, so a producer can wait for each answer.
fn lines(answer: fn(&[u8]) -> String) -> ExitCode {
    lines_with(answer)
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

fn lines_with(answer: impl Fn(&[u8]) -> String) -> ExitCode {
    let mut input = io::BufReader::with_capacity(1 << 16, io::stdin().lock());
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                let _ = out.flush();
                eprintln!("hookwire: cannot read stdin: {e}");
                return ExitCode::from(2);
            }
        }
        let mut text: &[u8] = &line;
        if let Some(rest) = text.strip_suffix(b"\n") {
            text = rest.strip_suffix(b"\r").unwrap_or(rest);
        }
        let answer = answer(text);
        let written = out.write_all(answer.as_bytes()).and_then(|()| out.write_all(b"\n"));
        let flushed = written.and_then(|()| if input.buffer().is_empty() { out.flush() } else { Ok(()) });
        if let Err(e) = flushed {
            return write_failed(&e);
        }
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => write_failed(&e),
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
