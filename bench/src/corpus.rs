//! The two message corpora every codec is measured on.
//!
//! * [`real_traffic`]: every 2025-11-25 message two real SDK peers exchanged
//!   (`tests/fixtures/real-traffic/*-2025-11-25.jsonl`), byte for byte as they wrote it.
//! * [`synthetic`]: a large corpus of the shapes that dominate heavy sessions (a 1,000-tool
//!   list, a 1 MiB text and a 1 MiB blob resource, a 500-block tool result, 10,000 progress
//!   notifications), generated deterministically.
//!
//! Each message carries its direction and, for a response, the method of the request it
//! answers (paired by id when the corpus is loaded, not while timing), so that typed decoders
//! can type results the way a real client or server does: by the request it sent.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};

/// Who sent a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// Client to server.
    C2s,
    /// Server to client.
    S2c,
}

/// The request a response answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answers {
    /// Its `method`.
    pub method: String,
    /// Whether it was task-augmented (`params.task` on a request that takes it), so the
    /// result is a `CreateTaskResult` rather than the method's own result.
    pub task: bool,
}

/// One message on the wire.
#[derive(Debug, Clone)]
pub struct Message {
    /// Who sent it.
    pub dir: Dir,
    /// The exact text of the message.
    pub text: String,
    /// For a successful response: the request it answers (when that request is in the corpus).
    pub answers: Option<Answers>,
}

impl Message {
    /// What the message is, to group timings by: its method (`tools/call`), with
    /// ` (notification)` for a notification; `result of ` the method it answers (`(task)` when
    /// task-augmented), `result` when its request is not in the corpus; `error`. Parsed again
    /// here, for reports only: a field filled by `pair` would add an allocation per message
    /// to the corpus every benchmark holds, and that moved `malloc`'s own instruction count in
    /// the measured decode by 0.2 %.
    pub fn kind(&self) -> String {
        let v: Value = serde_json::from_str(&self.text).unwrap_or(Value::Null);
        match (v.get("method").and_then(Value::as_str), &self.answers) {
            (Some(m), _) if v.get("id").is_some() => m.to_owned(),
            (Some(m), _) => format!("{m} (notification)"),
            (None, Some(a)) if a.task => format!("result of {} (task)", a.method),
            (None, Some(a)) => format!("result of {}", a.method),
            (None, None) if v.get("result").is_some() => "result".to_owned(),
            (None, None) => "error".to_owned(),
        }
    }
}

/// A named list of messages.
#[derive(Debug, Clone)]
pub struct Corpus {
    /// Short name (`real`, `synthetic`).
    pub name: &'static str,
    /// The messages, in wire order.
    pub messages: Vec<Message>,
}

impl Corpus {
    /// Total size of the message texts in bytes.
    pub fn bytes(&self) -> usize {
        self.messages.iter().map(|m| m.text.len()).sum()
    }

    /// The corpus called `name` (`real` or `synthetic`).
    pub fn by_name(name: &str) -> anyhow::Result<Corpus> {
        match name {
            "real" => real_traffic(),
            "synthetic" => Ok(synthetic()),
            other => anyhow::bail!("unknown corpus `{other}` (expected `real` or `synthetic`)"),
        }
    }
}

/// Where the captured real traffic lives.
pub fn real_traffic_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/real-traffic")
}

#[derive(Deserialize)]
struct Line<'a> {
    dir: &'a str,
    #[serde(borrow)]
    msg: &'a RawValue,
}

/// Every 2025-11-25 message in `tests/fixtures/real-traffic`, file by file in name order.
pub fn real_traffic() -> anyhow::Result<Corpus> {
    let dir = real_traffic_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| anyhow::anyhow!("reading {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with("-2025-11-25.jsonl"))
        })
        .collect();
    files.sort();
    anyhow::ensure!(
        !files.is_empty(),
        "no *-2025-11-25.jsonl capture in {}",
        dir.display()
    );
    let mut messages = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| anyhow::anyhow!("reading {}: {e}", file.display()))?;
        let mut lines = Vec::new();
        for (n, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let line: Line = serde_json::from_str(line)
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", file.display(), n + 1))?;
            let dir = match line.dir {
                "c2s" => Dir::C2s,
                "s2c" => Dir::S2c,
                other => anyhow::bail!("{}:{}: unknown dir `{other}`", file.display(), n + 1),
            };
            lines.push((dir, line.msg.get().to_owned()));
        }
        messages.extend(pair(lines));
    }
    Ok(Corpus {
        name: "real",
        messages,
    })
}

/// Attaches to each successful response the request (same id, other direction) it answers.
fn pair(lines: Vec<(Dir, String)>) -> Vec<Message> {
    let mut pending: HashMap<(bool, String), Answers> = HashMap::new();
    lines
        .into_iter()
        .map(|(dir, text)| {
            let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
            let id = v.get("id").map(|id| id.to_string());
            let from_client = dir == Dir::C2s;
            let mut answers = None;
            if let (Some(method), Some(id)) = (v.get("method").and_then(Value::as_str), &id) {
                // Only these requests take `task` (2025-11-25 `TaskAugmentedRequestParams`);
                // the Python SDK also sends it on `tasks/get`, where it means nothing.
                let task = v.pointer("/params/task").is_some()
                    && matches!(
                        method,
                        "tools/call" | "sampling/createMessage" | "elicitation/create"
                    );
                pending.insert(
                    (from_client, id.clone()),
                    Answers {
                        method: method.to_owned(),
                        task,
                    },
                );
            } else if let Some(id) = &id {
                // A response answers a request that went the other way.
                let request = pending.remove(&(!from_client, id.clone()));
                if v.get("result").is_some() {
                    answers = request;
                }
            }
            Message { dir, text, answers }
        })
        .collect()
}

/// The large synthetic corpus (about 4.7 MB), the same on every run.
pub fn synthetic() -> Corpus {
    let mut lines: Vec<(Dir, String)> = Vec::new();
    let mut push = |dir: Dir, v: Value| lines.push((dir, v.to_string()));

    // 1. A 1,000-tool list.
    push(
        Dir::C2s,
        json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}),
    );
    let tools: Vec<Value> = (0..1000)
        .map(|i| {
            json!({
                "name": format!("tool_{i:04}"),
                "title": format!("Tool number {i}"),
                "description": format!("Looks up record {i} in the inventory and returns it as text; \
                    fails when the record is archived. Second sentence with a \"quote\" and a tab\t."),
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string", "description": "Record id"},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                        "verbose": {"type": "boolean", "default": false}
                    },
                    "required": ["id"]
                },
                "annotations": {"readOnlyHint": i % 2 == 0, "openWorldHint": false}
            })
        })
        .collect();
    push(
        Dir::S2c,
        json!({"jsonrpc":"2.0","id":1,"result":{"tools": tools, "nextCursor": "page-2"}}),
    );

    // 2. A 1 MiB text resource and a 1 MiB (base64) blob resource.
    let mut text = String::with_capacity(1 << 20);
    let mut i = 0u32;
    while text.len() < (1 << 20) {
        let _ = writeln!(
            text,
            "line {i}: the quick brown fox jumps over the lazy dog \u{e9}\u{2014} \"quoted\"\t{}",
            i.wrapping_mul(2_654_435_761)
        );
        i += 1;
    }
    let blob = base64_of_len(1 << 20);
    push(
        Dir::C2s,
        json!({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///big.txt"}}),
    );
    push(
        Dir::S2c,
        json!({"jsonrpc":"2.0","id":2,"result":{"contents":[
            {"uri":"file:///big.txt","mimeType":"text/plain","text": text}]}}),
    );
    push(
        Dir::C2s,
        json!({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file:///big.bin"}}),
    );
    push(
        Dir::S2c,
        json!({"jsonrpc":"2.0","id":3,"result":{"contents":[
            {"uri":"file:///big.bin","mimeType":"application/octet-stream","blob": blob}]}}),
    );

    // 3. A tool result of 500 content blocks of every kind.
    push(
        Dir::C2s,
        json!({"jsonrpc":"2.0","id":4,"method":"tools/call",
               "params":{"name":"tool_0001","arguments":{"id":"r-1","limit":50}}}),
    );
    let small_png = base64_of_len(96);
    let content: Vec<Value> = (0..500)
        .map(|i| match i % 5 {
            0 | 1 => json!({"type":"text","text": format!("Block {i}: result row with some text.")}),
            2 => json!({"type":"image","data": small_png,"mimeType":"image/png",
                        "annotations":{"audience":["user"],"priority":0.5}}),
            3 => json!({"type":"resource_link","uri": format!("file:///r/{i}"),"name": format!("r{i}"),
                        "mimeType":"text/plain"}),
            _ => json!({"type":"resource","resource":{"uri": format!("file:///e/{i}"),
                        "mimeType":"text/plain","text":"embedded text"}}),
        })
        .collect();
    push(
        Dir::S2c,
        json!({"jsonrpc":"2.0","id":4,"result":{"content": content,"isError": false}}),
    );

    // 4. 10,000 progress notifications.
    for i in 0..10_000u32 {
        push(
            Dir::S2c,
            json!({"jsonrpc":"2.0","method":"notifications/progress",
                   "params":{"progressToken":"op-17","progress":i,"total":10_000,
                             "message": format!("step {i} of 10000")}}),
        );
    }
    Corpus {
        name: "synthetic",
        messages: pair(lines),
    }
}

/// Deterministic base64 text of exactly `len` characters (a multiple of 4).
fn base64_of_len(len: usize) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ALPHABET[(state % 64) as usize] as char
        })
        .collect()
}
