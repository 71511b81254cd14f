//! The decoder oracle of issue 31: the old decoder (the serde `Deserialize` impls generated
//! at commit `fee2c83`, materialized from git history into `old/` by `old-decoder.sh`, linked
//! as `mcp_typed_types_old`) against the current one (`pull::Decode`, `mcp_typed`), in one
//! binary.
//!
//! - [`differential`]: the fuzz target's property. Bytes as `ClientMessage`, `ServerMessage`
//!   and `JsonRpcMessage` of every revision and, when they are an object with a `result`
//!   member, that member as the result of every request of every revision: both decoders
//!   give the same verdict; when both refuse, the same JSON pointer (where the old error has
//!   a position) and the same kind of error (syntax or shape); when both accept, values
//!   that encode to the same text and show the same `Debug`. A difference passes only when
//!   it is of a class of [`KNOWN_DIFFERENCES`]. (To keep executions cheap, the target types a
//!   result as one request's result per revision, picked by the input's length, and leaves
//!   out `from_json`'s replies; `record-verdicts` and `--probe` do both in full.)
//! - `record-verdicts` (a binary): the old decoder's verdicts on every corpus message,
//!   written as `tests/fixtures/decoder-oracle/verdicts.jsonl`, which
//!   `tests/tests/messages/decoder_oracle.rs` compares with the current decoder's in plain
//!   `cargo test`.
//!
//! The corpus, the current decoder's side and the fixture's format are
//! `tests/src/oracle.rs`, compiled here as [`oracle`] (the tests crate cannot depend on the
//! old crates: they exist only once the script has run).

use std::fmt::{self, Debug};
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

pub mod faults;
pub mod mutations;
#[path = "../../../tests/src/oracle.rs"]
pub mod oracle;

use oracle::{
    Kind, New, Outcome, REVISIONS, Side, offset_of, outcome_with, pointer_at, reply_json,
};

/// The workspace root (what `mcp_tests::workspace` is; `oracle` calls it).
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("fuzz/oracle is two levels down")
        .to_path_buf()
}

/// The folders searched for the official files (what `mcp_tests::spec_dirs` is).
pub fn spec_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("MCP_SCHEMA_DIR").filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d));
    }
    dirs.push(workspace().join("schema"));
    dirs.push(workspace().join("..").join("shared").join("mcp-spec"));
    dirs
}

// ---------------------------------------------------------------------------------------------
// The old decoder

/// The old decoder (`serde_json::from_str` on the serde impls of `fee2c83`, `from_json`).
pub struct Old;

/// `data` as `T` through the old decoder. Its error has no pointer: the pointer is read off
/// its position ([`pointer_at`]), as the old decoder's callers did; none when the error has
/// no position.
pub fn old_outcome<T: DeserializeOwned + Serialize + Debug>(data: &[u8]) -> Outcome {
    let decoded = match std::str::from_utf8(data) {
        Ok(text) => serde_json::from_str::<T>(text),
        Err(_) => serde_json::from_slice::<T>(data),
    };
    match decoded {
        Ok(v) => Outcome::accepted(&v),
        Err(e) => Outcome::Refused {
            pointer: (e.line() != 0)
                .then(|| pointer_at(data, offset_of(data, e.line(), e.column()))),
            syntax: matches!(
                e.classify(),
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof
            ),
            message: without_position(&e),
            reply: None,
        },
    }
}

/// serde_json's message without its " at line L column C".
fn without_position(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match message.strip_suffix(&suffix) {
        Some(bare) if e.line() != 0 => bare.to_owned(),
        _ => message,
    }
}

struct OldVisit<'a>(&'a [u8]);

impl mcp_typed_runtime_old::DefinitionVisitor for OldVisit<'_> {
    type Output = Outcome;
    fn visit<T>(self, _: &'static str) -> Outcome
    where
        T: Serialize
            + DeserializeOwned
            + Debug
            + Clone
            + PartialEq
            + mcp_typed_runtime_old::Unknowns
            + 'static,
    {
        old_outcome::<T>(self.0)
    }
}

macro_rules! old_revisions {
    ($($rev:literal => $m:ident),*) => {
        impl Side for Old {
            fn message(rev: &str, kind: &Kind, data: &[u8], replies: bool) -> Outcome {
                match rev {
                    $($rev => {
                        use mcp_typed_types_old::$m as m;
                        let mut o = match kind {
                            Kind::Client => old_outcome::<m::ClientMessage>(data),
                            Kind::Server => old_outcome::<m::ServerMessage>(data),
                            _ => return old_outcome::<m::JsonRpcMessage>(data),
                        };
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
                    $($rev => mcp_typed_types_old::$m::with_result_of(method, OldVisit(data)),)*
                    _ => panic!("no revision {rev}"),
                }
            }
            fn definition(rev: &str, name: &str, data: &[u8]) -> Option<Outcome> {
                match rev {
                    $($rev => mcp_typed_types_old::$m::with_definition(name, OldVisit(data)),)*
                    _ => panic!("no revision {rev}"),
                }
            }
            fn request_methods(rev: &str) -> &'static [&'static str] {
                match rev {
                    $($rev => mcp_typed_types_old::$m::REQUEST_METHODS,)*
                    _ => panic!("no revision {rev}"),
                }
            }
        }

        impl Old {
            /// The schema definitions of a revision.
            pub fn definitions(rev: &str) -> &'static [&'static str] {
                match rev {
                    $($rev => mcp_typed_types_old::$m::DEFINITIONS,)*
                    _ => panic!("no revision {rev}"),
                }
            }
        }
    };
}

old_revisions!(
    "2024-11-05" => v2024_11_05,
    "2025-03-26" => v2025_03_26,
    "2025-06-18" => v2025_06_18,
    "2025-11-25" => v2025_11_25,
    "2026-07-28" => v2026_07_28
);

// ---------------------------------------------------------------------------------------------
// Differences

/// How the two decoders disagree on one input as one kind in one revision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum What {
    /// One accepts, the other refuses.
    Verdict,
    /// Both accept; the values encode differently.
    Value,
    /// Both accept and encode alike; their `Debug` differs (another variant, say).
    Debug,
    /// Both refuse, at different JSON pointers (the old error has a position).
    Pointer,
    /// Both refuse; one says the text is not JSON, the other that its shape is wrong.
    Syntax,
    /// Both refuse in `from_json`; the replies owed differ (code or id).
    Reply,
    /// The type exists in one decoder only.
    Missing,
}

/// One disagreement.
#[derive(Debug, Clone)]
pub struct Difference {
    /// The revision.
    pub rev: &'static str,
    /// What the input was decoded as.
    pub kind: Kind,
    /// How they disagree.
    pub what: What,
    /// The old decoder's outcome (`None`: no such type).
    pub old: Option<Outcome>,
    /// The current decoder's outcome.
    pub new: Option<Outcome>,
}

impl Difference {
    /// The known class it belongs to ([`KNOWN_DIFFERENCES`]), if any.
    pub fn known(&self, data: &[u8]) -> Option<&'static KnownDifference> {
        KNOWN_DIFFERENCES.iter().find(|k| (k.is)(self, data))
    }
}

fn shown(o: &Option<Outcome>) -> String {
    let cut = |s: &str| -> String {
        if s.len() > 600 && std::env::var_os("MCP_ORACLE_FULL").is_none() {
            format!("{}… ({} bytes)", &s[..s.floor_char_boundary(600)], s.len())
        } else {
            s.to_owned()
        }
    };
    match o {
        None => "(no such type)".into(),
        Some(Outcome::Accepted { json, debug }) => {
            format!("accepted: {}\n           {}", cut(json), cut(debug))
        }
        Some(Outcome::Refused {
            pointer,
            syntax,
            message,
            reply,
        }) => format!(
            "refused{} at {:?}: {}{}",
            if *syntax { " (syntax)" } else { "" },
            pointer,
            message,
            reply
                .as_ref()
                .map_or(String::new(), |r| format!("\n           reply {r}"))
        ),
    }
}

/// Where two texts first differ: the position and 80 characters of each from a little before.
fn first_difference(a: &str, b: &str) -> String {
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let from = |s: &str| {
        let start = s.floor_char_boundary(at.saturating_sub(40));
        let end = s.floor_char_boundary((at + 80).min(s.len()));
        s[start..end].to_owned()
    };
    format!(
        "at byte {at}:\n      old …{}…\n      new …{}…",
        from(a),
        from(b)
    )
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {:?}\n    old: {}\n    new: {}",
            self.rev,
            self.kind,
            self.what,
            shown(&self.old),
            shown(&self.new)
        )?;
        match (&self.old, &self.new) {
            (
                Some(Outcome::Accepted { json: a, debug: d }),
                Some(Outcome::Accepted { json: b, debug: e }),
            ) => {
                if a != b {
                    write!(f, "\n    encodings differ {}", first_difference(a, b))
                } else {
                    write!(f, "\n    Debug differs {}", first_difference(d, e))
                }
            }
            _ => Ok(()),
        }
    }
}

/// Compares the two outcomes of one input as one kind.
pub fn compare(
    rev: &'static str,
    kind: &Kind,
    old: Option<Outcome>,
    new: Option<Outcome>,
) -> Option<Difference> {
    let what = match (&old, &new) {
        (None, None) => return None,
        (None, _) | (_, None) => What::Missing,
        (Some(o), Some(n)) => match (o, n) {
            (Outcome::Accepted { json: a, debug: d }, Outcome::Accepted { json: b, debug: e }) => {
                if a != b {
                    What::Value
                } else if debug_shape(d) != debug_shape(e) {
                    What::Debug
                } else {
                    return None;
                }
            }
            (
                Outcome::Refused {
                    pointer: p,
                    syntax: s,
                    reply: r,
                    ..
                },
                Outcome::Refused {
                    pointer: q,
                    syntax: t,
                    reply: u,
                    ..
                },
            ) => {
                if s != t {
                    What::Syntax
                } else if p.is_some() && p != q {
                    What::Pointer
                } else if r != u {
                    What::Reply
                } else {
                    return None;
                }
            }
            _ => What::Verdict,
        },
    };
    Some(Difference {
        rev,
        kind: kind.clone(),
        what,
        old,
        new,
    })
}

/// A `Debug` text with the current decoder's names of types that only changed names: results
/// kept as their text are `RawJson` (issue 31), `RawValue` before (the same text inside).
/// Applied to both sides alike.
fn debug_shape(debug: &str) -> std::borrow::Cow<'_, str> {
    if debug.contains("RawJson(") {
        debug.replace("RawJson(", "RawValue(").into()
    } else {
        debug.into()
    }
}

/// A class of differences that is understood: a deliberate fix of the current decoder (or a
/// reported fault of one of the two), with the reason. Narrow: it names the kind of
/// difference, the types and the errors it covers.
pub struct KnownDifference {
    /// Its name (the fixture's `#class`).
    pub name: &'static str,
    /// Which decoder is right, and why.
    pub reason: &'static str,
    /// Whether a difference (on input `data`) is of the class.
    pub is: fn(&Difference, &[u8]) -> bool,
}

/// A refusal's pointer, message and kind (`None` for an acceptance or no such type).
fn refusal(o: &Option<Outcome>) -> Option<(Option<&str>, &str, bool)> {
    match o {
        Some(Outcome::Refused {
            pointer,
            message,
            syntax,
            ..
        }) => Some((pointer.as_deref(), message.as_str(), *syntax)),
        _ => None,
    }
}

/// What was decoded: `data`, or for a result its `result` member.
fn decoded(d: &Difference, data: &[u8]) -> Option<faults::Json> {
    match d.kind {
        Kind::Result(_) => faults::Json::read(oracle::result_member(data)?.get().as_bytes()),
        _ => faults::Json::read(data),
    }
}

/// A pointer difference of two shape errors, each checked against the input
/// ([`faults::holds`]).
struct Checked<'a> {
    /// The pointer read off the old error's position, and its message.
    old_at: &'a str,
    old: &'a str,
    /// The current decoder's pointer and message.
    new_at: &'a str,
    /// Whether the old error holds at `old_at`, the new one at `new_at`.
    old_holds: bool,
    new_holds: bool,
}

fn checked<'a>(d: &'a Difference, data: &[u8]) -> Option<Checked<'a>> {
    if d.what != What::Pointer {
        return None;
    }
    let (Some((Some(old_at), old, false)), Some((Some(new_at), new, false))) =
        (refusal(&d.old), refusal(&d.new))
    else {
        return None;
    };
    let input = decoded(d, data)?;
    Some(Checked {
        old_at,
        old,
        new_at,
        old_holds: faults::holds(&input, old, old_at)?,
        new_holds: faults::holds(&input, new, new_at)?,
    })
}

/// The member an old error names (`invalid value for `K``, `duplicate field `K``).
fn member_named(old: &str) -> Option<&str> {
    let rest = old
        .strip_prefix("invalid value for `")
        .or_else(|| old.strip_prefix("duplicate field `"))?;
    rest.split('`').next()
}

/// Whether pointer `inner` is strictly inside pointer `outer`.
fn inside(inner: &str, outer: &str) -> bool {
    inner.len() > outer.len() && inner.starts_with(outer) && inner.as_bytes()[outer.len()] == b'/'
}

/// The known classes; see fuzz/README.md.
pub static KNOWN_DIFFERENCES: &[KnownDifference] = &[
    KnownDifference {
        name: "repeated-member-refused",
        reason: "the current decoder is right (a deliberate fix): a member named twice in one \
                 object is refused wherever it is (which of the two values is meant is not \
                 said); the old decoder refused it in typed objects but kept the last value \
                 where it had buffered the object as a serde_json Value (JsonRpcMessage's \
                 `params` and `_meta` before 2025-11-25, open objects). The new error must \
                 hold: the object at its pointer has the member twice.",
        is: |d, data| {
            let (Some(Outcome::Accepted { .. }), Some((Some(at), message, false))) =
                (&d.old, refusal(&d.new))
            else {
                return false;
            };
            d.what == What::Verdict
                && message.starts_with("duplicate member `")
                && decoded(d, data).and_then(|input| faults::holds(&input, message, at))
                    == Some(true)
        },
    },
    KnownDifference {
        name: "syntax-error-pointer",
        reason: "by design: text that is not JSON is refused by both with a syntax error \
                 (the same -32700 reply); the pointer of a syntax error is where reading \
                 broke off, not a value at fault. The old one is read off the old \
                 decoder's position (the innermost member open there); the current \
                 decoder's is empty when the message envelope was reading (it reads a \
                 message's members before typing them), else the value being typed when the \
                 text broke (often the object or array around the member the old one \
                 names).",
        is: |d, _| {
            d.what == What::Pointer
                && matches!(refusal(&d.old), Some((_, _, true)))
                && matches!(refusal(&d.new), Some((_, _, true)))
        },
    },
    KnownDifference {
        name: "not-json-read-in-another-order",
        reason: "both are right: the text is not JSON (not UTF-8, or not JSON's grammar \
                 somewhere) and both refuse it, with `from_json`'s reply -32700 in both (it \
                 looks at the text); which fault each meets first depends on the order it \
                 reads in: the old decoder decoded members as it read them, the current \
                 one reads a message's members (its envelope) to the end before typing \
                 them and types a union's member from its mark. So one may report the \
                 syntax error and the other a fault of shape met before it, or both faults \
                 of shape at different pointers. (Where the text is JSON, pointers are \
                 compared and checked: the classes below.)",
        is: |d, data| {
            matches!(d.what, What::Syntax | What::Pointer)
                && (std::str::from_utf8(data).is_err()
                    || serde_json::from_slice::<serde::de::IgnoredAny>(data).is_err())
        },
    },
    KnownDifference {
        name: "old-position-elsewhere",
        reason: "the current decoder is right: its error holds at its pointer (the value \
                 there is what the message says), the old one does not hold at the pointer \
                 read off its position, which fell elsewhere: after a member buffered \
                 before its union's tag or its message's `method`, at the end of an object \
                 whose constant (`jsonrpc`) or repeated member was checked last, or at a \
                 union whose members were tried in turn.",
        is: |d, data| checked(d, data).is_some_and(|c| c.new_holds && !c.old_holds),
    },
    KnownDifference {
        name: "member-not-its-object",
        reason: "the same fault, and the current decoder names it better: the member itself \
                 (`/jsonrpc` whose value is not \"2.0\", `/k` named twice), where the old \
                 decoder checked it when its object ended and its position names the \
                 object. Both errors hold; the new pointer is the old one and the member \
                 the old message names.",
        is: |d, data| {
            checked(d, data).is_some_and(|c| {
                c.new_holds
                    && c.old_holds
                    && member_named(c.old).is_some_and(|k| {
                        c.new_at
                            == format!("{}/{}", c.old_at, k.replace('~', "~0").replace('/', "~1"))
                    })
            })
        },
    },
    KnownDifference {
        name: "union-not-its-member",
        reason: "the current decoder names the fault better: the old decoder tried a \
                 union's members in turn and, none fitting, said so of the whole object \
                 (\"no member of X matches this object\"); the current one picks the member \
                 the object's members point to and names the value at fault inside it. \
                 The new error holds, at a pointer inside the old one.",
        is: |d, data| {
            checked(d, data).is_some_and(|c| {
                c.new_holds && c.old.starts_with("no member of ") && inside(c.new_at, c.old_at)
            })
        },
    },
    KnownDifference {
        name: "union-member-the-old-missed",
        reason: "the current decoder is right: the old one refused a union told apart by \
                 members (\"… (closest: X)\", \"no member of X matches\") whose value its \
                 own decoder of one member type accepts; the current one decodes it as that \
                 member. Checked: the value at the old error's pointer decodes, in the old \
                 decoder, as a definition D the current value holds (`D {` in its Debug). \
                 Minimal: InputResponse (2026-07-28) {\"role\":\"assistant\",\"content\":\
                 {\"type\":\"t=xt\",\"text\":\"Hi\"},\"model\":\"m\",\"stopReason\":\"endTurn\"} \
                 (a CreateMessageResult whose content is of a type the revision does not \
                 define, kept whole).",
        is: |d, data| {
            let (Some((Some(at), message, false)), Some(Outcome::Accepted { debug, .. })) =
                (refusal(&d.old), &d.new)
            else {
                return false;
            };
            if d.what != What::Verdict
                || !(message.contains("(closest: ") || message.starts_with("no member of "))
            {
                return false;
            }
            let Some(input) = decoded(d, data) else {
                return false;
            };
            let Some(value) = input.at(at).last().map(|v| v.value().to_string()) else {
                return false;
            };
            Old::definitions(d.rev).iter().any(|def| {
                debug.contains(&format!("{def} {{"))
                    && matches!(
                        oracle::outcome::<Old>(
                            d.rev,
                            &Kind::Definition((*def).to_owned()),
                            value.as_bytes()
                        ),
                        Some(Outcome::Accepted { .. })
                    )
            })
        },
    },
    KnownDifference {
        name: "union-falls-back",
        reason: "the current decoder is right, by design (CHANGELOG: \"unions told apart by \
                 members no longer commit early\"): the old decoder committed to the union \
                 member that fit the object best and refused the object when that member \
                 failed further down; the current one falls back to the next member that \
                 fits, which keeps the part it cannot type as an unknown member (a \
                 schema-valid object: e.g. a string field whose malformed `oneOf` is kept \
                 whole). Checked: the value has an unknown member without which the old \
                 decoder accepts the input too, or unknown members without all of which it \
                 does (so nothing else is in dispute); or, where a \
                 map names a key twice (both decoders keep the last value), the old decoder \
                 accepts the last values as the same value (members the old decoder moved \
                 aside, the current one keeps in the input's order) or, falling back too, \
                 without such members, and the first values without such members. Minimal: \
                 PrimitiveSchemaDefinition (2025-11-25) {\"type\":\"string\",\"oneOf\":\
                 [{\"const\":\"b\"}]}: a StringSchema with an unknown `oneOf`, not a \
                 TitledSingleSelectEnumSchema lacking an item's `title`.",
        is: |d, data| {
            if d.what != What::Verdict
                || !matches!(refusal(&d.old), Some((_, _, false)))
                || !matches!(d.new, Some(Outcome::Accepted { .. }))
            {
                return false;
            }
            let decoded_text = match &d.kind {
                Kind::Result(_) => match oracle::result_member(data) {
                    Some(r) => r.get().as_bytes().to_vec(),
                    None => return false,
                },
                _ => data.to_vec(),
            };
            let (Some(input), Some(unknown)) = (
                faults::Json::read(&decoded_text),
                New::unknown_members(d.rev, &d.kind, &decoded_text),
            ) else {
                return false;
            };
            let as_old = |text: &str| match &d.kind {
                Kind::Result(m) => Old::result(d.rev, m, text.as_bytes()),
                k => oracle::outcome::<Old>(d.rev, k, text.as_bytes()),
            };
            // Without one of the unknown members, or (several unions falling back in one
            // message) without all of them at once.
            let falls_back = |input: &faults::Json, unknown: &[String]| {
                let accepted =
                    |j: &faults::Json| matches!(as_old(&j.text()), Some(Outcome::Accepted { .. }));
                unknown.iter().any(|u| accepted(&input.without(u)))
                    || unknown.split_first().is_some_and(|(first, rest)| {
                        accepted(&rest.iter().fold(input.without(first), |j, u| j.without(u)))
                    })
            };
            if falls_back(&input, &unknown) {
                return true;
            }
            // A member named twice in a map (both keep the last value) whose first value is
            // what falls back: the old decoder accepts the input with the first values only,
            // without unknown members, and with the last values only, as the same value or
            // (when they fall back too) without unknown members.
            if !input.repeats() {
                return false;
            }
            let first = input.first_values();
            let last = input.value().to_string();
            let lasts = match (as_old(&last), &d.new) {
                (
                    Some(Outcome::Accepted { json, .. }),
                    Some(Outcome::Accepted { json: new, .. }),
                ) => {
                    // The same value; where the two order an object's members differently,
                    // the current one in the input's order (`old-reordered-members`).
                    let read = |t: &str| serde_json::from_str::<serde_json::Value>(t).ok();
                    match (read(&json), read(new)) {
                        (Some(a), Some(b)) => a == b && faults::keeps_input_order(&input, &a, &b),
                        _ => false,
                    }
                }
                _ => faults::Json::read(last.as_bytes())
                    .zip(New::unknown_members(d.rev, &d.kind, last.as_bytes()))
                    .is_some_and(|(last, unknown)| falls_back(&last, &unknown)),
            };
            lasts
                && New::unknown_members(d.rev, &d.kind, first.text().as_bytes())
                    .is_some_and(|unknown| falls_back(&first, &unknown))
        },
    },
    KnownDifference {
        name: "open-object-as-received",
        reason: "the current decoder is right, by design (CHANGELOG: \"open objects are \
                 `JsonObject`s, kept as their text until read\"): both accept the input with \
                 the same value, and the current decoder re-encodes an open object (`_meta`, \
                 `arguments`, a schema's members) as it came — numbers and escapes as \
                 written, a repeated key kept — where the old one wrote the `Value` it built. \
                 Checked: serde_json reads both re-encodings as the same `Value`, members in \
                 the same order (a repeated key: its last value at its first place, as the \
                 old decoder kept it).",
        is: |d, _| {
            let (Some(Outcome::Accepted { json: a, .. }), Some(Outcome::Accepted { json: b, .. })) =
                (&d.old, &d.new)
            else {
                return false;
            };
            let read =
                |t: &str| serde_json::from_str::<serde_json::Value>(t).map(|v| v.to_string());
            d.what == What::Value && matches!((read(a), read(b)), (Ok(a), Ok(b)) if a == b)
        },
    },
    KnownDifference {
        name: "old-reordered-members",
        reason: "the current decoder is right: the two values are equal but for the order \
                 of some object's members; wherever the two order a pair of members \
                 differently, the current one has them in the input's order (checked), \
                 where the old one had moved a member buffered by a union (a tag fed first, \
                 a member another variant declares) in an object kept whole or among \
                 unknown members.",
        is: |d, data| {
            let (Some(Outcome::Accepted { json: a, .. }), Some(Outcome::Accepted { json: b, .. })) =
                (&d.old, &d.new)
            else {
                return false;
            };
            let (Ok(a), Ok(b)) = (
                serde_json::from_str::<serde_json::Value>(a),
                serde_json::from_str::<serde_json::Value>(b),
            ) else {
                return false;
            };
            d.what == What::Value
                && decoded(d, data).is_some_and(|input| faults::keeps_input_order(&input, &a, &b))
        },
    },
    KnownDifference {
        name: "another-fault-first",
        reason: "both are right: the input has (at least) two faults and each decoder's \
                 error holds at its own pointer; the current decoder checks in another \
                 order (the envelope's `jsonrpc` and `id`, a union's tag, a member's type \
                 before the members its object misses).",
        is: |d, data| checked(d, data).is_some_and(|c| c.new_holds && c.old_holds),
    },
];

// ---------------------------------------------------------------------------------------------
// The property

/// Both decoders on `data` as the three message types of every revision and, when `data` is
/// an object with a `result` member, that member as the result of requests of every
/// revision (`methods`: which ones); the differences, known or not. With `replies`, the
/// replies `from_json` owes are compared too.
pub fn differences_with(data: &[u8], methods: Methods, replies: bool) -> Vec<Difference> {
    let mut out = Vec::new();
    let has_result = oracle::result_member(data).is_some();
    for (r, rev) in REVISIONS.into_iter().enumerate() {
        let mut kinds = vec![Kind::Client, Kind::Server, Kind::JsonRpc];
        if has_result {
            let mut all: Vec<&str> = New::request_methods(rev).to_vec();
            for m in Old::request_methods(rev) {
                if !all.contains(m) {
                    all.push(m);
                }
            }
            match methods {
                Methods::All => kinds.extend(all.into_iter().map(|m| Kind::Result(m.to_owned()))),
                Methods::ByLength => {
                    let m = all[(data.len() + r) % all.len()];
                    kinds.push(Kind::Result(m.to_owned()));
                }
            }
        }
        for kind in &kinds {
            let old = outcome_with::<Old>(rev, kind, data, replies);
            let new = outcome_with::<New>(rev, kind, data, replies);
            out.extend(compare(rev, kind, old, new));
        }
    }
    out
}

/// The requests a result is typed as, in [`differences_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Methods {
    /// Every request of the revision.
    All,
    /// One per revision, picked by the input's length (the fuzz target: a fifteenth of the
    /// work per input, and every request's result still reached as lengths vary).
    ByLength,
}

/// [`differences_with`] every request and the replies (`record-verdicts --probe`).
pub fn differences(data: &[u8]) -> Vec<Difference> {
    differences_with(data, Methods::All, true)
}

/// The fuzz target's property: no difference outside the known classes.
pub fn differential(data: &[u8]) {
    let unknown: Vec<String> = differences_with(data, Methods::ByLength, false)
        .into_iter()
        .filter(|d| d.known(data).is_none())
        .map(|d| d.to_string())
        .collect();
    if !unknown.is_empty() {
        panic!(
            "the old and the current decoder disagree {} time(s) on {:?}:\n{}",
            unknown.len(),
            String::from_utf8_lossy(data),
            unknown.join("\n")
        );
    }
}
