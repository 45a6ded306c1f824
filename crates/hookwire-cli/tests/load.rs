//! Load: a million lines through `decode --lines` and `encode --lines` — one answer per line,
//! bad lines answered and passed, and resident memory that stays flat (sampled from /proc while
//! the stream runs). Memory, not time, is asserted.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const LINES: usize = 1_000_000;

fn decode_line(i: usize) -> String {
    match i % 5 {
        _ if i % 97 == 0 => "not json".into(),
        0 => format!(
            r#"{{"kind":"send","payload":{{"message":"m{i}"}},"delivery":{{"channelKind":"c","channelName":"n","deliveryId":"d{i}"}}}}"#
        ),
        1 => r#"{"kind":"deliver","version":1,"payloads":[{"message":"x"}],"payload":{"message":"x"}}"#.into(),
        2 => format!(
            r#"{{"kind":"clear","version":{}}}"#,
            hookwire::session_inbox::WIRE_VERSION + 1
        ),
        3 => format!(r#"{{"kind":"deliver","payloads":[{{"message":"legacy {i}"}}]}}"#),
        _ => r#"{"kind":"reset","reason":"r"}"#.into(),
    }
}

fn encode_line(i: usize) -> String {
    match i % 4 {
        _ if i % 89 == 0 => "{\"command\":".into(),
        0 => format!(r#"{{"command":{{"kind":"send","payload":{{"message":"m{i}"}}}},"target":{{"version":1}}}}"#),
        1 => r#"{"command":{"kind":"deliver","payloads":[{"message":"a"},{"message":"b"}]},"target":{"version":0,"variant":"send"}}"#.into(),
        2 => r#"{"command":{"kind":"deliver","payloads":[{"message":1}]},"target":{"version":1}}"#.into(),
        _ => r#"{"command":{"kind":"cancel","taskId":"t"},"target":{"version":0,"variant":"deliver"}}"#.into(),
    }
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Stream LINES lines through `mode --lines`; returns (answers, errors, rss after 10 %, rss at the end).
fn stream(mode: &str, line: fn(usize) -> String) -> (usize, usize, u64, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hookwire"))
        .args([mode, "--lines"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut buf = std::io::BufWriter::new(&mut stdin);
        for i in 0..LINES {
            writeln!(buf, "{}", line(i)).unwrap();
        }
    });
    let (mut answers, mut errors, mut early, mut late) = (0, 0, 0, 0);
    for answer in BufReader::new(child.stdout.take().unwrap()).lines() {
        let answer = answer.unwrap();
        answers += 1;
        errors += usize::from(answer.starts_with("{\"error\""));
        if answers == LINES / 10 {
            early = rss_kib(pid);
        }
        if answers == LINES - 1000 {
            late = rss_kib(pid);
        }
    }
    writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    (answers, errors, early, late)
}

#[test]
fn a_million_lines_decode_with_flat_memory() {
    let (answers, errors, early, late) = stream("decode", decode_line);
    assert_eq!(answers, LINES);
    let expected_errors = (0..LINES).filter(|i| i % 97 == 0 || i % 5 == 2).count();
    assert_eq!(errors, expected_errors);
    assert!(early > 0 && late > 0, "no /proc sample");
    assert!(
        late <= early + 4096,
        "resident memory grew from {early} KiB to {late} KiB"
    );
}

#[test]
fn a_million_lines_encode_with_flat_memory() {
    let (answers, errors, early, late) = stream("encode", encode_line);
    assert_eq!(answers, LINES);
    let expected_errors = (0..LINES).filter(|i| i % 89 == 0 || i % 4 == 2).count();
    assert_eq!(errors, expected_errors);
    assert!(
        late <= early + 4096,
        "resident memory grew from {early} KiB to {late} KiB"
    );
}
