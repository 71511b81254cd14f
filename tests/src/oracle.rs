//! The decoder oracle of issue 31: what the current decoder (`pull::Decode`) makes of every
//! corpus message, in the form the old decoder's verdicts were recorded in
//! (`tests/fixtures/decoder-oracle/verdicts.jsonl`), so that `cargo test` compares the two
//! without the old decoder (`tests/tests/messages/decoder_oracle.rs`).
//!
//! The old decoder (the serde `Deserialize` impls generated before issue 31, commit
//! `fee2c83`) is not part of this workspace: `fuzz/oracle/old-decoder.sh` materializes it from
//! git history and the crate `fuzz/oracle` links it beside the current one. That crate compiles
//! this file as a module of its own (`#[path]`), so the records of both decoders are made by
//! the same code: the corpus ([`corpus`]), what is decoded as what ([`Kind`], [`outcomes`]),
//! an [`Outcome`] per decoder and its [`Outcome::token`], and the fixture's lines
//! ([`Line`]). What differs is one [`Side`] per decoder: [`New`] here, `Old` in
//! `fuzz/oracle/src/lib.rs`.
//!
//! A record holds, per input, revision and type, the verdict (accepted or refused), the JSON
//! pointer of a refusal, and for an accepted value a SHA-256 (64 bits) of its re-encoding.
//! Error texts are not recorded: they differ by design.

use std::collections::{BTreeMap, HashMap};
use std::fmt::{self, Debug};
use std::path::{Path, PathBuf};

use mcp_typed::DefinitionVisitor;
use mcp_typed::runtime::pull::{self, Decode};
use serde::Serialize;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

/// The revisions compared (`draft` is an alias of 2026-07-28 in both decoders).
pub const REVISIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// The fixture's path, from the workspace root.
pub const FIXTURE: &str = "tests/fixtures/decoder-oracle/verdicts.jsonl";

/// What an input is decoded as, in one revision.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `ClientMessage` (`from_json`: the value, or the error and the reply owed).
    Client,
    /// `ServerMessage` (`from_json`).
    Server,
    /// `JsonRpcMessage`.
    JsonRpc,
    /// The input's `result` member as the result type of request `method` (`result_as`).
    Result(String),
    /// The input as schema definition `name` (`with_definition`).
    Definition(String),
}

impl Kind {
    /// Its key in the fixture: `C`, `S`, `J`, `R:<method>`, `D:<definition>`.
    pub fn key(&self) -> String {
        match self {
            Kind::Client => "C".into(),
            Kind::Server => "S".into(),
            Kind::JsonRpc => "J".into(),
            Kind::Result(m) => format!("R:{m}"),
            Kind::Definition(d) => format!("D:{d}"),
        }
    }

    /// The kind of a fixture key.
    pub fn from_key(key: &str) -> Option<Kind> {
        Some(match key {
            "C" => Kind::Client,
            "S" => Kind::Server,
            "J" => Kind::JsonRpc,
            _ => match key.split_once(':')? {
                ("R", m) => Kind::Result(m.into()),
                ("D", d) => Kind::Definition(d.into()),
                _ => return None,
            },
        })
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Kind::Client => f.write_str("ClientMessage"),
            Kind::Server => f.write_str("ServerMessage"),
            Kind::JsonRpc => f.write_str("JsonRpcMessage"),
            Kind::Result(m) => write!(f, "result of {m}"),
            Kind::Definition(d) => f.write_str(d),
        }
    }
}

/// What one decoder made of one input as one type.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Decoded: the value's encoding (`serde_json::to_string`) and its `Debug`.
    Accepted {
        /// The re-encoding (or `"(does not encode: …)"`).
        json: String,
        /// `{:?}` of the value (the generated types are named alike in both decoders).
        debug: String,
    },
    /// Refused.
    Refused {
        /// The JSON pointer of the value at fault; `None` when the decoder's error has none
        /// (the old decoder's errors without a position).
        pointer: Option<String>,
        /// The error is about the text (not JSON), not its shape.
        syntax: bool,
        /// The error's message, without its position and pointer (not compared: the texts
        /// differ by design).
        message: String,
        /// For `from_json` (client and server messages): the reply owed, as JSON, with the
        /// error's `message` member taken out (its text is the error's).
        reply: Option<String>,
    },
}

impl Outcome {
    /// The outcome of a decoded value.
    pub fn accepted<T: Serialize + Debug>(value: &T) -> Outcome {
        Outcome::Accepted {
            json: serde_json::to_string(value)
                .unwrap_or_else(|e| format!("(does not encode: {e})")),
            debug: format!("{value:?}"),
        }
    }

    /// Whether the value was decoded.
    pub fn is_accepted(&self) -> bool {
        matches!(self, Outcome::Accepted { .. })
    }

    /// What the fixture records: `ok=` when the re-encoding is the decoded text itself,
    /// else `ok:<sha>` (the first 64 bits of the SHA-256 of the re-encoding, in hex);
    /// `err:<pointer>`, or `err` for an error without a pointer.
    pub fn token(&self, decoded: &[u8]) -> String {
        match self {
            Outcome::Accepted { json, .. } if json.as_bytes() == decoded => "ok=".into(),
            Outcome::Accepted { json, .. } => format!("ok:{}", sha64(json.as_bytes())),
            Outcome::Refused {
                pointer: Some(p), ..
            } => format!("err:{p}"),
            Outcome::Refused { pointer: None, .. } => "err".into(),
        }
    }
}

/// The first 64 bits of the SHA-256 of `data`, in hex.
pub fn sha64(data: &[u8]) -> String {
    Sha256::digest(data)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether token `new` of the current decoder agrees with the recorded token `old`: equal,
/// or both refusals when the recorded one has no pointer.
pub fn tokens_agree(old: &str, new: &str) -> bool {
    old == new || (old == "err" && (new == "err" || new.starts_with("err:")))
}

/// A reply as JSON without the error's `message` member.
pub fn reply_json<R: Serialize>(reply: &R) -> String {
    match serde_json::to_value(reply) {
        Ok(mut v) => {
            if let Some(error) = v.get_mut("error").and_then(|e| e.as_object_mut()) {
                error.remove("message");
            }
            v.to_string()
        }
        Err(e) => format!("(does not encode: {e})"),
    }
}

/// A decoder, as the oracle drives it: each function decodes `data` as one type of revision
/// `rev` (`None` when the revision has no such type).
pub trait Side {
    /// `ClientMessage`, `ServerMessage` or `JsonRpcMessage` (`kind` is one of those); with
    /// `replies`, a refusal of the first two has the reply `from_json` owes.
    fn message(rev: &str, kind: &Kind, data: &[u8], replies: bool) -> Outcome;
    /// `data` as the result type of request `method`.
    fn result(rev: &str, method: &str, data: &[u8]) -> Option<Outcome>;
    /// `data` as definition `name`.
    fn definition(rev: &str, name: &str, data: &[u8]) -> Option<Outcome>;
    /// The request methods of the revision (both directions).
    fn request_methods(rev: &str) -> &'static [&'static str];
}

/// `data` as `kind` of revision `rev` through decoder `S` (results: `data` is the message,
/// its `result` member is decoded); `None` when the revision has no such type or `data` has
/// no `result` member.
pub fn outcome<S: Side>(rev: &str, kind: &Kind, data: &[u8]) -> Option<Outcome> {
    outcome_with::<S>(rev, kind, data, true)
}

/// [`outcome`], with or without the replies of `from_json` (see [`Side::message`]).
pub fn outcome_with<S: Side>(
    rev: &str,
    kind: &Kind,
    data: &[u8],
    replies: bool,
) -> Option<Outcome> {
    match kind {
        Kind::Client | Kind::Server | Kind::JsonRpc => Some(S::message(rev, kind, data, replies)),
        Kind::Result(method) => {
            let result = result_member(data)?;
            S::result(rev, method, result.get().as_bytes())
        }
        Kind::Definition(name) => S::definition(rev, name, data),
    }
}

/// Every outcome of `input` through decoder `S`, by revision and kind, in the fixture's order.
pub fn outcomes<S: Side>(input: &Input) -> BTreeMap<(usize, Kind), Outcome> {
    let mut out = BTreeMap::new();
    for (i, rev) in REVISIONS.iter().enumerate() {
        for kind in input.kinds() {
            if let Some(o) = outcome::<S>(rev, &kind, &input.data) {
                out.insert((i, kind), o);
            }
        }
    }
    out
}

/// The tokens ([`Outcome::token`]) of outcomes of `input` ([`outcomes`]).
pub fn tokens(
    input: &Input,
    outcomes: &BTreeMap<(usize, Kind), Outcome>,
) -> BTreeMap<(usize, Kind), String> {
    let result = result_member(&input.data);
    outcomes
        .iter()
        .map(|(key, o)| {
            let decoded = match (&key.1, &result) {
                (Kind::Result(_), Some(r)) => r.get().as_bytes(),
                _ => &input.data[..],
            };
            (key.clone(), o.token(decoded))
        })
        .collect()
}

/// The `result` member of `data`, when `data` is a JSON object that has one (once).
pub fn result_member(data: &[u8]) -> Option<Box<RawValue>> {
    #[derive(serde::Deserialize)]
    struct Probe {
        result: Option<Box<RawValue>>,
    }
    serde_json::from_slice::<Probe>(data).ok()?.result
}

// ---------------------------------------------------------------------------------------------
// The current decoder

/// The current decoder (`pull::from_str`, `from_json`), through `mcp_typed`.
pub struct New;

/// `data` as `T` through the current decoder.
pub fn new_outcome<T: Decode + Serialize + Debug>(data: &[u8]) -> Outcome {
    let decoded = match std::str::from_utf8(data) {
        Ok(text) => pull::from_str::<T>(text),
        Err(_) => pull::from_slice::<T>(data),
    };
    match decoded {
        Ok(v) => Outcome::accepted(&v),
        Err(e) => Outcome::Refused {
            pointer: Some(e.pointer()),
            syntax: e.is_syntax(),
            message: e.message().to_owned(),
            reply: None,
        },
    }
}

struct NewVisit<'a>(&'a [u8]);

impl DefinitionVisitor for NewVisit<'_> {
    type Output = Outcome;
    fn visit<T>(self, _: &'static str) -> Outcome
    where
        T: Serialize
            + serde::de::DeserializeOwned
            + Debug
            + Clone
            + PartialEq
            + mcp_typed::Unknowns
            + Decode
            + 'static,
    {
        new_outcome::<T>(self.0)
    }
}

/// The pointers of the unknown members of the value `data` decodes to.
struct NewUnknowns<'a>(&'a [u8]);

impl DefinitionVisitor for NewUnknowns<'_> {
    type Output = Option<Vec<String>>;
    fn visit<T>(self, _: &'static str) -> Option<Vec<String>>
    where
        T: Serialize
            + serde::de::DeserializeOwned
            + Debug
            + Clone
            + PartialEq
            + mcp_typed::Unknowns
            + Decode
            + 'static,
    {
        unknown_members::<T>(self.0)
    }
}

fn unknown_members<T: Decode + mcp_typed::Unknowns>(data: &[u8]) -> Option<Vec<String>> {
    let v = pull::from_slice::<T>(data).ok()?;
    Some(
        v.unknowns()
            .into_iter()
            .filter(|u| u.kind == mcp_typed::UnknownKind::Member)
            .map(|u| u.pointer)
            .collect(),
    )
}

macro_rules! new_revisions {
    ($($rev:literal => $m:ident),*) => {
        impl Side for New {
            fn message(rev: &str, kind: &Kind, data: &[u8], replies: bool) -> Outcome {
                match rev {
                    $($rev => {
                        use mcp_typed::$m as m;
                        let mut o = match kind {
                            Kind::Client => new_outcome::<m::ClientMessage>(data),
                            Kind::Server => new_outcome::<m::ServerMessage>(data),
                            _ => return new_outcome::<m::JsonRpcMessage>(data),
                        };
                        // `from_json`: the same verdict, and the reply owed.
                        if let (Outcome::Refused { reply, .. }, Ok(text), true) =
                            (&mut o, std::str::from_utf8(data), replies)
                        {
                            *reply = Some(match kind {
                                Kind::Client => match m::ClientMessage::from_json(text) {
                                    Ok(_) => "(from_json decodes it)".into(),
                                    Err(e) => reply_json(e.reply()),
                                },
                                _ => match m::ServerMessage::from_json(text) {
                                    Ok(_) => "(from_json decodes it)".into(),
                                    Err(e) => reply_json(e.reply()),
                                },
                            });
                        }
                        o
                    })*
                    _ => panic!("no revision {rev}"),
                }
            }
            fn result(rev: &str, method: &str, data: &[u8]) -> Option<Outcome> {
                match rev {
                    $($rev => mcp_typed::$m::with_result_of(method, NewVisit(data)),)*
                    _ => panic!("no revision {rev}"),
                }
            }
            fn definition(rev: &str, name: &str, data: &[u8]) -> Option<Outcome> {
                match rev {
                    $($rev => mcp_typed::$m::with_definition(name, NewVisit(data)),)*
                    _ => panic!("no revision {rev}"),
                }
            }
            fn request_methods(rev: &str) -> &'static [&'static str] {
                match rev {
                    $($rev => mcp_typed::$m::REQUEST_METHODS,)*
                    _ => panic!("no revision {rev}"),
                }
            }
        }

        impl New {
            /// The JSON pointers of the unknown members (kept in an `extra` map) of the value
            /// `data` decodes to as `kind` (results: `data` is the result); `None` when it
            /// does not decode.
            pub fn unknown_members(rev: &str, kind: &Kind, data: &[u8]) -> Option<Vec<String>> {
                match rev {
                    $($rev => {
                        use mcp_typed::$m as m;
                        match kind {
                            Kind::Client => unknown_members::<m::ClientMessage>(data),
                            Kind::Server => unknown_members::<m::ServerMessage>(data),
                            Kind::JsonRpc => unknown_members::<m::JsonRpcMessage>(data),
                            Kind::Result(method) => m::with_result_of(method, NewUnknowns(data))?,
                            Kind::Definition(name) => m::with_definition(name, NewUnknowns(data))?,
                        }
                    })*
                    _ => panic!("no revision {rev}"),
                }
            }
        }
    };
}

new_revisions!(
    "2024-11-05" => v2024_11_05,
    "2025-03-26" => v2025_03_26,
    "2025-06-18" => v2025_06_18,
    "2025-11-25" => v2025_11_25,
    "2026-07-28" => v2026_07_28
);

// ---------------------------------------------------------------------------------------------
// The old decoder's pointers

/// The byte offset of serde_json's error position (`line`, 1-based; `column`, the bytes of
/// that line before the position).
pub fn offset_of(text: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    (start + column).min(text.len())
}

/// The JSON pointer of the value at byte `offset` of `text`, as the old decoder's callers
/// read it off its error's position (`mcp_typed_runtime::convert::pointer_at` at `fee2c83`,
/// there for one-line text: `offset` was the column): the innermost member or element being
/// read there, or the object or array that closed just before it (where "missing field" is
/// reported). Whitespace between a key and its `:` is allowed here.
pub fn pointer_at(text: &[u8], offset: usize) -> String {
    enum Frame {
        Object(Option<String>),
        Array(usize),
    }
    fn path(stack: &[Frame]) -> String {
        let mut p = String::new();
        for f in stack {
            match f {
                Frame::Object(Some(k)) => {
                    p.push('/');
                    p.push_str(&k.replace('~', "~0").replace('/', "~1"));
                }
                Frame::Array(n) => {
                    p.push('/');
                    p.push_str(&n.to_string());
                }
                Frame::Object(None) => {}
            }
        }
        p
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut closed: Option<(usize, String)> = None;
    let mut i = 0;
    while i < text.len() && i < offset {
        match text[i] {
            b'{' => stack.push(Frame::Object(None)),
            b'[' => stack.push(Frame::Array(0)),
            b'}' | b']' => {
                stack.pop();
                closed = Some((i, path(&stack)));
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object(k)) => *k = None,
                None => {}
            },
            b'"' => {
                // The string's end, past escapes.
                let mut j = i + 1;
                while j < text.len() && text[j] != b'"' {
                    j += if text[j] == b'\\' { 2 } else { 1 };
                }
                let after = text
                    .get(j + 1..)
                    .and_then(|rest| rest.iter().find(|b| !b.is_ascii_whitespace()));
                if let (Some(b':'), Some(Frame::Object(k @ None))) = (after, stack.last_mut()) {
                    *k = serde_json::from_slice(&text[i..=j.min(text.len() - 1)]).ok();
                }
                i = j + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    match closed {
        Some((at, p)) if at + 1 >= offset => p,
        _ => path(&stack),
    }
}

// ---------------------------------------------------------------------------------------------
// The corpus

/// One corpus input.
#[derive(Debug, Clone)]
pub struct Input {
    /// Where it comes from: a file of the workspace (`tests/fixtures/…`, `fuzz/corpus/…`),
    /// with `:<line>` for a line of a traffic file, or `spec:<revision>/examples/…` for an
    /// official example.
    pub name: String,
    /// The bytes (a traffic line's message as written in it).
    pub data: Vec<u8>,
    /// The method of the request a response answers, when the traffic file has it.
    pub answers: Option<String>,
    /// The definition an official example is an example of.
    pub definition: Option<String>,
}

impl Input {
    /// What it is decoded as, in every revision: the three message types; the result of the
    /// request it answers; the definition it is an example of.
    pub fn kinds(&self) -> Vec<Kind> {
        let mut kinds = vec![Kind::Client, Kind::Server, Kind::JsonRpc];
        if let Some(m) = &self.answers {
            kinds.push(Kind::Result(m.clone()));
        }
        if let Some(d) = &self.definition {
            kinds.push(Kind::Definition(d.clone()));
        }
        kinds
    }
}

/// The files of `dir` (not `README.md`), sorted; none when it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("read a corpus folder").path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    files.sort();
    files
}

/// The messages of a traffic file: a line `{"dir":…,"msg":<message>}` gives the message as
/// written in it, any other line (a bare message, a line that is not JSON) is itself the
/// input. A response gets the method of the request with its id sent the other way before.
fn traffic(root: &Path, path: &Path, out: &mut Vec<Input>) {
    #[derive(serde::Deserialize)]
    struct Line<'a> {
        dir: Option<&'a str>,
        #[serde(borrow)]
        msg: &'a RawValue,
    }
    #[derive(serde::Deserialize)]
    struct Head<'a> {
        #[serde(borrow)]
        id: Option<&'a RawValue>,
        method: Option<String>,
    }
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path
        .strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string();
    let mut requests: HashMap<(String, String), String> = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (dir, msg) = match serde_json::from_str::<Line<'_>>(line) {
            Ok(l) => (l.dir.unwrap_or(""), l.msg.get()),
            Err(_) => ("", line),
        };
        let mut answers = None;
        if let Ok(head) = serde_json::from_str::<Head<'_>>(msg)
            && let Some(id) = head.id
        {
            let id = id.get().to_owned();
            match head.method {
                Some(m) => {
                    requests.insert((dir.to_owned(), id), m);
                }
                None => {
                    let other = match dir {
                        "c2s" => "s2c",
                        "s2c" => "c2s",
                        _ => "",
                    };
                    answers = requests.get(&(other.to_owned(), id)).cloned();
                }
            }
        }
        out.push(Input {
            name: format!("{name}:{}", n + 1),
            data: msg.as_bytes().to_vec(),
            answers,
            definition: None,
        });
    }
}

/// The folder of the official examples of `revision`, if any (beside the schema files).
pub fn examples_dir(revision: &str) -> Option<PathBuf> {
    crate::spec_dirs()
        .into_iter()
        .map(|d| d.join(revision).join("examples"))
        .find(|p| p.is_dir())
}

/// The corpus of the oracle, in a fixed order: the captured traffic
/// (`tests/fixtures/real-traffic`, `tests/fixtures/traffic`), the committed fuzz corpora of
/// the message targets (`fuzz/corpus/{messages,differential}`) and their crash inputs
/// (`tests/fixtures/fuzz-regressions/{messages,differential}`), and the official examples of
/// `draft` and 2026-07-28 when they are beside the schema files (each also as its
/// definition).
pub fn corpus() -> Vec<Input> {
    let root = crate::workspace();
    let mut out = Vec::new();
    for dir in ["tests/fixtures/real-traffic", "tests/fixtures/traffic"] {
        for f in files(&root.join(dir)) {
            if f.extension().is_some_and(|e| e == "jsonl") {
                traffic(&root, &f, &mut out);
            }
        }
    }
    for dir in [
        "fuzz/corpus/messages",
        "fuzz/corpus/differential",
        "tests/fixtures/fuzz-regressions/messages",
        "tests/fixtures/fuzz-regressions/differential",
    ] {
        for f in files(&root.join(dir)) {
            out.push(Input {
                name: f.strip_prefix(&root).unwrap().display().to_string(),
                data: std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display())),
                answers: None,
                definition: None,
            });
        }
    }
    for revision in ["draft", "2026-07-28"] {
        let Some(dir) = examples_dir(revision) else {
            continue;
        };
        let mut defs: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("read the examples")
            .map(|e| e.expect("read the examples").path())
            .filter(|p| p.is_dir())
            .collect();
        defs.sort();
        for def in defs {
            let definition = def.file_name().unwrap().to_string_lossy().into_owned();
            for f in files(&def) {
                out.push(Input {
                    name: format!(
                        "spec:{revision}/examples/{definition}/{}",
                        f.file_name().unwrap().to_string_lossy()
                    ),
                    data: std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display())),
                    answers: None,
                    definition: Some(definition.clone()),
                });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The fixture

/// What the fixture says of one input as one kind in one revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// The old decoder's token ([`Outcome::token`]).
    pub old: String,
    /// For a known difference: the current decoder's token, and the class (a name of the
    /// oracle's list of known differences, `fuzz/oracle/src/lib.rs`).
    pub new: Option<(String, String)>,
}

impl Expected {
    /// As written in the fixture: the old token, or `old => new #class`.
    pub fn write(&self) -> String {
        match &self.new {
            None => self.old.clone(),
            Some((new, class)) => format!("{} => {new} #{class}", self.old),
        }
    }

    /// Read back from [`Expected::write`].
    pub fn read(s: &str) -> Expected {
        match s.split_once(" => ") {
            None => Expected {
                old: s.to_owned(),
                new: None,
            },
            Some((old, rest)) => {
                let (new, class) = rest.rsplit_once(" #").unwrap_or((rest, ""));
                Expected {
                    old: old.to_owned(),
                    new: Some((new.to_owned(), class.to_owned())),
                }
            }
        }
    }

    /// Whether the current decoder's token `new` is what the fixture expects.
    pub fn admits(&self, new: &str) -> bool {
        match &self.new {
            None => tokens_agree(&self.old, new),
            Some((expected, _)) => expected == new,
        }
    }
}

/// One line of the fixture: an input (its name and the SHA-256 of its bytes) and, per
/// revision, per kind key, what is expected:
/// `{"in":…,"sha":…,"v":[{"C":"ok:…","J":"ok=","S":"err:/params"},"=",…]}`, one element
/// of `v` per revision of [`REVISIONS`], in order; `"="` when the revision's records are
/// those of the revision before it.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// [`Input::name`].
    pub input: String,
    /// [`sha64`] of the input's bytes.
    pub sha: String,
    /// Per revision (index into [`REVISIONS`]), per [`Kind::key`].
    pub records: BTreeMap<usize, BTreeMap<String, Expected>>,
}

impl Line {
    /// As a line of JSON (see [`Line`]).
    pub fn write(&self) -> String {
        let mut out = serde_json::Map::new();
        out.insert("in".into(), self.input.clone().into());
        out.insert("sha".into(), self.sha.clone().into());
        let mut revisions = Vec::new();
        let mut before: Option<&BTreeMap<String, Expected>> = None;
        for i in 0..REVISIONS.len() {
            let records = self.records.get(&i);
            revisions.push(match records {
                None => serde_json::Value::Null,
                Some(r) if before == Some(r) => "=".into(),
                Some(r) => r
                    .iter()
                    .map(|(k, e)| (k.clone(), e.write().into()))
                    .collect::<serde_json::Map<String, serde_json::Value>>()
                    .into(),
            });
            before = records;
        }
        out.insert("v".into(), revisions.into());
        serde_json::Value::Object(out).to_string()
    }

    /// Read back from [`Line::write`].
    pub fn read(line: &str) -> Result<Line, String> {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let field = |k: &str| {
            v.get(k)
                .and_then(|s| s.as_str())
                .map(str::to_owned)
                .ok_or_else(|| format!("no `{k}`"))
        };
        let (input, sha) = (field("in")?, field("sha")?);
        let revisions = v
            .get("v")
            .and_then(|r| r.as_array())
            .filter(|r| r.len() == REVISIONS.len())
            .ok_or("no `v` of one element per revision")?;
        let mut records = BTreeMap::new();
        let mut before: Option<BTreeMap<String, Expected>> = None;
        for (i, r) in revisions.iter().enumerate() {
            let these = match r {
                serde_json::Value::Null => None,
                serde_json::Value::String(s) if s == "=" => {
                    Some(before.clone().ok_or("`=` after no records")?)
                }
                serde_json::Value::Object(m) => Some(
                    m.iter()
                        .map(|(k, e)| {
                            let e = e.as_str().ok_or("a record that is not a string")?;
                            Ok((k.clone(), Expected::read(e)))
                        })
                        .collect::<Result<_, String>>()?,
                ),
                other => return Err(format!("{}: {other}", REVISIONS[i])),
            };
            if let Some(t) = &these {
                records.insert(i, t.clone());
            }
            before = these;
        }
        Ok(Line {
            input,
            sha,
            records,
        })
    }
}

/// The fixture's line for `input`: every record expected as the old decoder's token says,
/// except the known differences (`known(rev, kind)`: the class, when the current decoder
/// differs by a known class; then the current decoder's token too).
pub fn line_of(
    input: &Input,
    old: &BTreeMap<(usize, Kind), String>,
    new: &BTreeMap<(usize, Kind), String>,
    known: impl Fn(usize, &Kind) -> Option<String>,
) -> Line {
    let mut records: BTreeMap<usize, BTreeMap<String, Expected>> = BTreeMap::new();
    for ((i, kind), token) in old {
        let new = known(*i, kind).map(|c| {
            let got = new.get(&(*i, kind.clone())).cloned();
            (got.unwrap_or_else(|| "none".into()), c)
        });
        records.entry(*i).or_default().insert(
            kind.key(),
            Expected {
                old: token.clone(),
                new,
            },
        );
    }
    Line {
        input: input.name.clone(),
        sha: sha64(&input.data),
        records,
    }
}
