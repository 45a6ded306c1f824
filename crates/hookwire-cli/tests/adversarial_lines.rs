//! The `--lines` modes under adversarial input and timing: `decode`, `encode` and `negotiate`,
//! both families. Every stream must answer exactly one line per input line, in order, the same
//! answer as the line alone (or as the single-shot command) would get, whatever the line holds
//! (CRLF, no newline at the end, invalid UTF-8, a NUL byte, JSON that is not an object, deep
//! nesting, a line past `--max-line-bytes`) and however the input arrives (byte by byte, in odd
//! chunks, with pauses, one line at a time with each answer awaited before the next is written).
//! A reader that goes away ends the stream quietly.

#[path = "../../../tests/common/mod.rs"]
mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The deepest nesting the CLI reads (`MAX_DEPTH` in the CLI).
const MAX_DEPTH: usize = 131_072;

fn fixtures(family: &str, dir: &str) -> Vec<Value> {
    let path = common::root().join("fixtures").join(family).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

/// Every fixture of `family` under the folders named, as parsed files.
fn all_fixtures(family: &str) -> Vec<Value> {
    let base = common::root().join("fixtures").join(family);
    let mut dirs: Vec<String> = std::fs::read_dir(&base)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    dirs.iter().flat_map(|d| fixtures(family, d)).collect()
}

fn targets(family: &str) -> Vec<(&'static str, Value)> {
    match family {
        "turn-control" => vec![("v0", json!({"version": 0})), ("v1", json!({"version": 1}))],
        _ => {
            let mut t = vec![
                ("v0-deliver", json!({"version": 0, "variant": "deliver"})),
                ("v0-send", json!({"version": 0, "variant": "send"})),
            ];
            for (i, name) in ["v1", "v2", "v3", "v4", "v5", "v6"].into_iter().enumerate() {
                t.push((name, json!({ "version": i + 1 })));
            }
            t
        }
    }
}

/// Lines that every mode must answer one each, whatever they hold.
fn hostile_lines() -> Vec<Vec<u8>> {
    vec![
        b"".to_vec(),
        b"   ".to_vec(),
        b"[1]".to_vec(),
        b"\"text\"".to_vec(),
        b"null".to_vec(),
        b"42".to_vec(),
        b"{".to_vec(),
        b"{}".to_vec(),
        b"{\"a\":1}\x00".to_vec(),
        b"\x00".to_vec(),
        b"{\"kind\":\"cl\xffear\"}".to_vec(),
        b"\xef\xbb\xbf{}".to_vec(),
        b"{\"kind\":\"\\ud800\"}".to_vec(),
        format!("{}{}", "[".repeat(200), "]".repeat(200)).into_bytes(),
        format!("{}1{}", "{\"a\":".repeat(300), "}".repeat(300)).into_bytes(),
    ]
}

/// One pool of distinct lines per mode and family: the fixtures' requests and the hostile lines.
fn pool(family: &str, mode: &str) -> Vec<Vec<u8>> {
    let all = all_fixtures(family);
    let mut lines: Vec<Vec<u8>> = match mode {
        "decode" => all
            .iter()
            .filter_map(|f| f.get("input"))
            .map(|v| v.to_string().into_bytes())
            .collect(),
        "encode" => all
            .iter()
            .filter_map(|f| f.get("command"))
            .flat_map(|c| {
                targets(family)
                    .into_iter()
                    .map(move |(_, t)| json!({"command": c, "target": t}).to_string().into_bytes())
            })
            .collect(),
        _ => all
            .iter()
            .filter_map(|f| f.get("request"))
            .map(|v| v.to_string().into_bytes())
            .collect(),
    };
    assert!(!lines.is_empty(), "{family} {mode}: no fixtures");
    lines.extend(hostile_lines());
    lines
}

fn args<'a>(family: &'a str, mode: &'a str) -> Vec<&'a str> {
    vec!["--family", family, mode, "--lines"]
}

const MODES: [(&str, &str); 6] = [
    ("session-inbox", "decode"),
    ("session-inbox", "encode"),
    ("session-inbox", "negotiate"),
    ("turn-control", "decode"),
    ("turn-control", "encode"),
    ("turn-control", "negotiate"),
];

/// Each line of `lines` answered by a run of its own: the reference every stream is held to.
fn alone(args: &[&str], lines: &[Vec<u8>]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let mut input = l.clone();
            input.push(b'\n');
            let out = common::hookwire(args, &input);
            assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
            let text = String::from_utf8(out.stdout).unwrap();
            let answers: Vec<&str> = text.lines().collect();
            assert_eq!(answers.len(), 1, "one answer for {:?}", String::from_utf8_lossy(l));
            answers[0].to_string()
        })
        .collect()
}

/// A running `--lines` process whose answers are read by a thread, so a missing answer is a
/// timeout, not a hang.
struct Live {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    answers: mpsc::Receiver<String>,
}

impl Live {
    fn start(args: &[&str]) -> Live {
        let mut child = Command::new(common::bin())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (send, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Live { child, stdin, answers }
    }

    fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn answer(&self, what: &str) -> String {
        self.answers
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("no answer within 20 s for {what}"))
    }

    fn close(mut self) -> (Option<i32>, String, Vec<String>) {
        drop(self.stdin.take());
        let rest: Vec<String> = self.answers.iter().collect();
        let status = self.child.wait().unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(&mut self.child.stderr.take().unwrap(), &mut err).unwrap();
        (status.code(), err, rest)
    }
}

#[test]
fn an_interactive_producer_gets_each_answer_before_it_writes_the_next_line() {
    for (family, mode) in MODES {
        let args = args(family, mode);
        let mut lines = pool(family, mode);
        lines.truncate(12);
        lines.extend(hostile_lines());
        let want = alone(&args, &lines);
        let mut live = Live::start(&args);
        for (i, (line, want)) in lines.iter().zip(&want).enumerate() {
            // Line endings of every kind; a line written in two parts still gets one answer.
            let ending: &[u8] = if i % 3 == 0 { b"\r\n" } else { b"\n" };
            let (head, tail) = line.split_at(line.len() / 2);
            live.write(head);
            live.write(&[tail, ending].concat());
            let got = live.answer(&format!("{family} {mode} line {i}"));
            assert_eq!(
                &got,
                want,
                "{family} {mode}: line {i} {:?}",
                String::from_utf8_lossy(line)
            );
        }
        // The last line without a newline is answered once the input ends.
        live.write(&lines[0]);
        let (code, err, rest) = live.close();
        assert_eq!(code, Some(0), "{family} {mode}: {err}");
        assert!(err.is_empty(), "{family} {mode}: {err}");
        assert_eq!(rest, vec![want[0].clone()], "{family} {mode}: the last line");
    }
}

#[test]
fn chunked_and_paused_input_keeps_every_answer_in_its_place() {
    let mut rng = common::Rng(0x5eed);
    for (family, mode) in MODES {
        let args = args(family, mode);
        let mut lines = pool(family, mode);
        // One line past the batch's byte bound (256 KiB), so batches end by size as well.
        let big = match mode {
            "decode" => json!({"version": 1, "kind": "deliver", "payloads": [{"message": "x".repeat(300_000)}]}),
            "encode" => json!({"command": {"kind": "send", "payload": {"message": "x".repeat(300_000)}}}),
            _ => {
                json!({"capabilities": {"pad": "x".repeat(300_000)}, "command": {"kind": "clear"}, "destination": {"token": "c"}})
            }
        };
        lines.push(big.to_string().into_bytes());
        let want = alone(&args, &lines);
        for trial in 0..3 {
            // More lines than a batch holds (128), drawn from the pool.
            let picks: Vec<usize> = (0..[40, 700, 300][trial]).map(|_| rng.below(lines.len())).collect();
            let mut input = Vec::new();
            for &p in &picks {
                input.extend_from_slice(&lines[p]);
                input.extend_from_slice(if rng.below(4) == 0 { b"\r\n" } else { b"\n" });
            }
            let mut live = Live::start(&args);
            let mut at = 0;
            while at < input.len() {
                let n = [1, 3, 64, 4096, 65_536, 70_001, 400_000][rng.below(7)].min(input.len() - at);
                live.write(&input[at..at + n]);
                at += n;
                if rng.below(40) == 0 {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            let (code, err, got) = live.close();
            assert_eq!(code, Some(0), "{family} {mode}: {err}");
            assert!(err.is_empty(), "{family} {mode}: {err}");
            assert_eq!(got.len(), picks.len(), "{family} {mode}: one answer per line");
            for (k, (&p, answer)) in picks.iter().zip(&got).enumerate() {
                assert_eq!(
                    answer,
                    &want[p],
                    "{family} {mode}: answer {k} (trial {trial}) is not its line's: {:?}",
                    String::from_utf8_lossy(&lines[p][..lines[p].len().min(120)])
                );
            }
        }
    }
}

/// The single-shot answer as a `--lines` answer: `{"ok": value}`, or the code and message of
/// `error[CODE]: message` on stderr with exit 1.
fn single(args: &[&str], input: &[u8]) -> (bool, Value) {
    let out = common::hookwire(args, input);
    match out.status.code() {
        Some(0) => (true, serde_json::from_slice(&out.stdout).unwrap()),
        Some(1) => {
            let err = String::from_utf8(out.stderr).unwrap();
            let err = err.trim_end();
            let (code, message) = err
                .strip_prefix("error[")
                .and_then(|e| e.split_once("]: "))
                .unwrap_or_else(|| panic!("{err}"));
            (false, json!({"code": code, "message": message}))
        }
        other => panic!("{args:?}: exit {other:?}: {}", String::from_utf8_lossy(&out.stderr)),
    }
}

fn same(line_answer: &str, single: &(bool, Value)) -> bool {
    let a: Value = serde_json::from_str(line_answer).unwrap();
    match single {
        (true, v) => a.get("ok") == Some(v),
        (false, e) => a["error"]["code"] == e["code"] && a["error"]["message"] == e["message"],
    }
}

#[test]
fn every_line_answers_what_the_single_shot_command_answers() {
    let mut failures = Vec::new();
    for family in ["session-inbox", "turn-control"] {
        let all = all_fixtures(family);
        let mut values: Vec<Vec<u8>> = all
            .iter()
            .filter_map(|f| f.get("input"))
            .map(|v| v.to_string().into_bytes())
            .collect();
        values.extend(hostile_lines());
        let mut input = values.join(&b"\n"[..]);
        input.push(b'\n');
        let out = common::hookwire(&["--family", family, "decode", "--lines"], &input);
        let text = String::from_utf8(out.stdout).unwrap();
        let answers: Vec<&str> = text.lines().collect();
        assert_eq!(answers.len(), values.len(), "{family}: one answer per line");
        for (v, a) in values.iter().zip(&answers) {
            let s = single(&["--family", family, "decode"], v);
            if !same(a, &s) {
                failures.push(format!("{family} decode {}: {a} vs {s:?}", String::from_utf8_lossy(v)));
            }
        }
        // Each command for each target, against `encode --target`.
        let commands: Vec<&Value> = all.iter().filter_map(|f| f.get("command")).collect();
        for (name, target) in targets(family) {
            let lines: Vec<String> = commands
                .iter()
                .map(|c| json!({"command": c, "target": target}).to_string())
                .collect();
            let out = common::hookwire(
                &["--family", family, "encode", "--lines"],
                (lines.join("\n") + "\n").as_bytes(),
            );
            let text = String::from_utf8(out.stdout).unwrap();
            let answers: Vec<&str> = text.lines().collect();
            assert_eq!(answers.len(), commands.len(), "{family} {name}: one answer per line");
            for (c, a) in commands.iter().zip(&answers) {
                let s = single(
                    &["--family", family, "encode", "--target", name],
                    c.to_string().as_bytes(),
                );
                if !same(a, &s) {
                    failures.push(format!("{family} encode {name} {c}: {a} vs {s:?}"));
                }
            }
        }
    }
    common::report(failures);
}

#[test]
fn json_that_is_not_an_object_is_a_typed_answer_in_every_mode() {
    for (family, mode) in MODES {
        let args = args(family, mode);
        let input = b"[1]\n\"s\"\nnull\n7\ntrue\n[]\n";
        let out = common::hookwire(&args, input);
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8(out.stdout).unwrap();
        let answers: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(answers.len(), 6, "{family} {mode}");
        for a in &answers {
            let code = a["error"]["code"]
                .as_str()
                .unwrap_or_else(|| panic!("{family} {mode}: {a}"));
            let want = if mode == "decode" {
                "NOT_OBJECT"
            } else {
                "INVALID_REQUEST"
            };
            assert_eq!(code, want, "{family} {mode}: {a}");
            if mode != "decode" {
                // Contract §16: every INVALID_REQUEST of a --lines stream carries its path.
                assert_eq!(a["error"]["path"], json!(""), "{family} {mode}: {a}");
            }
        }
    }
}

#[test]
fn nesting_at_and_past_the_limit_is_answered_never_a_crash() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    for (family, mode) in MODES {
        let args = args(family, mode);
        // The value itself, and the same depth inside each request's own field.
        let wrap = |inner: &str| {
            match (family, mode) {
            (_, "decode") => inner.to_string(),
            ("session-inbox", "encode") => format!("{{\"command\":{{\"kind\":\"send\",\"payload\":{{\"message\":\"m\",\"x\":{inner}}}}}}}"),
            ("turn-control", "encode") => format!("{{\"command\":{{\"kind\":\"turn-result\",\"action\":{{\"kind\":\"k\",\"x\":{inner}}}}}}}"),
            ("session-inbox", _) => format!("{{\"command\":{{\"kind\":\"send\",\"payload\":{{\"message\":\"m\",\"x\":{inner}}}}},\"destination\":{{\"token\":\"eve:session:r:inbox\"}}}}"),
            _ => format!("{{\"capabilities\":{{\"x\":{inner}}}}}"),
        }
        };
        // Depth of the wrapper: the levels it adds around `inner`.
        let around = match (family, mode) {
            (_, "decode") => 0,
            ("turn-control", "negotiate") => 2,
            _ => 3,
        };
        let fits = wrap(&deep(MAX_DEPTH - around));
        let past = wrap(&deep(MAX_DEPTH - around + 1));
        let input = format!("{fits}\n{past}\n{{\n");
        let out = common::hookwire(&args, input.as_bytes());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{family} {mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{family} {mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let answers: Vec<&str> = text.lines().collect();
        assert_eq!(answers.len(), 3, "{family} {mode}");
        assert!(
            !answers[0].contains("TOO_DEEP"),
            "{family} {mode}: {}",
            &answers[0][..answers[0].len().min(200)]
        );
        assert!(
            answers[1].starts_with("{\"error\":{\"code\":\"TOO_DEEP\""),
            "{family} {mode}: {}",
            &answers[1][..answers[1].len().min(200)]
        );
        assert!(
            answers[2].starts_with("{\"error\":{\"code\":\"INVALID_JSON\""),
            "{family} {mode}: {}",
            answers[2]
        );
    }
}

#[test]
fn a_line_at_the_byte_limit_is_read_and_one_past_it_is_too_large() {
    let line = br#"{"version":6,"kind":"clear"}"#;
    let n = line.len();
    for (max, fits) in [(n - 1, false), (n, true), (n + 1, true)] {
        let max = max.to_string();
        let args = ["decode", "--lines", "--max-line-bytes", &max];
        for ending in [&b"\n"[..], b"\r\n", b""] {
            let input = [
                &line[..],
                ending,
                &line[..],
                ending,
                b"{\"version\":6,\"kind\":\"compact\"}",
            ]
            .concat();
            let out = common::hookwire(&args, &input);
            let text = String::from_utf8(out.stdout).unwrap();
            let answers: Vec<&str> = text.lines().collect();
            if ending.is_empty() {
                // No line ending: all of it one line, longer than the limit.
                assert_eq!(answers.len(), 1, "{max} {ending:?}");
                continue;
            }
            assert_eq!(answers.len(), 3, "{max} {ending:?}: {text}");
            for a in &answers[..2] {
                assert_eq!(a.contains("TOO_LARGE"), !fits, "{max} {ending:?}: {a}");
                assert_eq!(*a == r#"{"ok":{"kind":"clear"}}"#, fits, "{max} {ending:?}: {a}");
            }
        }
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_stream_quietly() {
    for (family, mode) in MODES {
        let args = args(family, mode);
        let line = &pool(family, mode)[0];
        let mut child = Command::new(common::bin())
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdin.write_all(&[&line[..], b"\n"].concat()).unwrap();
        stdin.flush().unwrap();
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        assert!(!first.is_empty());
        drop(stdout);
        // Keep writing until the process has gone (its answers can no longer be written).
        let chunk: Vec<u8> = std::iter::repeat_n([&line[..], b"\n"].concat(), 2000)
            .flatten()
            .collect();
        for _ in 0..2000 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
        drop(stdin);
        let status = child.wait().unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert_eq!(status.code(), Some(0), "{family} {mode}: {err}");
        assert!(err.is_empty(), "{family} {mode}: {err}");
    }
}

#[test]
fn input_that_ends_early_is_answered_as_far_as_it_goes() {
    for (family, mode) in MODES {
        let args = args(family, mode);
        let out = common::hookwire(&args, b"");
        assert_eq!(
            (out.status.code(), out.stdout.len(), out.stderr.len()),
            (Some(0), 0, 0),
            "{family} {mode}"
        );
        // A line cut off inside its JSON text: one answer, INVALID_JSON.
        let out = common::hookwire(&args, b"{\"command\":{\"kind\":");
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(text.lines().count(), 1, "{family} {mode}: {text}");
        assert!(
            text.starts_with("{\"error\":{\"code\":\"INVALID_JSON\""),
            "{family} {mode}: {text}"
        );
        // Lines of nothing but line endings: one answer each.
        let out = common::hookwire(&args, b"\n\r\n\n");
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), 3, "{family} {mode}: {text}");
    }
}
