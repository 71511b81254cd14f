//! `mcp_typed::session::Codec` on real traffic and on random forms:
//!
//! - every captured message of every handshake-era revision (`tests/fixtures/real-traffic`,
//!   2024-11-05 to 2025-11-25, both directions) is decoded by the receiving side's codec into
//!   the 2025-11-25 types and encoded back for its revision by the sending side's codec. The
//!   result equals the original, or differs only where a bridge says it translated, or where
//!   a member beyond the session's revision (which the peer sent anyway) was left out and
//!   listed in `Encoded::dropped`: never a silent drop.
//! - bridges: a 2025-06-18 form goes up and back down unchanged (older → newer → older is the
//!   identity); a 2025-11-25 form sent to a 2025-06-18 session reads, with the client model,
//!   as the same form (defaults aside: bridge `elicit-default-hint`).
//! - `schema/bridges.json` lists exactly the bridges the code has.

use std::collections::BTreeMap;

use mcp_typed::ProtocolVersion;
use mcp_typed::convert::ConversionError;
use mcp_typed::elicit::client::Form;
use mcp_typed::session::bridge::BRIDGES;
use mcp_typed::session::{Client, Codec, Refused, Server};
use mcp_typed::{Unknowns, v2025_06_18 as v06};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn real(file: &str) -> std::path::PathBuf {
    mcp_tests::workspace()
        .join("tests/fixtures/real-traffic")
        .join(file)
}

/// Where two JSON values differ: JSON Pointers of members or items added, removed or
/// changed (the deepest).
fn differences(a: &Value, b: &Value, at: String, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                match y.get(k) {
                    Some(w) => differences(v, w, p, out),
                    None => out.push(p),
                }
            }
            for k in y.keys().filter(|k| !x.contains_key(*k)) {
                out.push(format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")));
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                differences(v, w, format!("{at}/{i}"), out);
            }
        }
        _ if a == b => {}
        _ => out.push(at),
    }
}

/// Members of `line` beyond `version` (what its own types keep as unknown members).
fn beyond(line: &str, version: ProtocolVersion, to_server: bool) -> Vec<String> {
    macro_rules! unknowns {
        ($m:ident) => {{
            use mcp_typed::$m as wire;
            let unknowns: Vec<mcp_typed::Unknown> = if to_server {
                wire::ClientMessage::from_json(line)
                    .map(|m| m.unknowns())
                    .unwrap_or_default()
            } else {
                wire::ServerMessage::from_json(line)
                    .map(|m| m.unknowns())
                    .unwrap_or_default()
            };
            unknowns.into_iter().map(|u| u.pointer).collect::<Vec<_>>()
        }};
    }
    match version {
        ProtocolVersion::V2024_11_05 => unknowns!(v2024_11_05),
        ProtocolVersion::V2025_03_26 => unknowns!(v2025_03_26),
        ProtocolVersion::V2025_06_18 => unknowns!(v2025_06_18),
        _ => unknowns!(v2025_11_25),
    }
}

enum Failed {
    Decode(Refused),
    Encode(ConversionError),
}

#[test]
fn real_traffic_goes_through_the_codec_and_back_unchanged_or_bridged() {
    let captures: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(real("captures.json")).unwrap()).unwrap();
    let mut counts: BTreeMap<String, (usize, usize, usize, usize, usize)> = BTreeMap::new();
    let mut bridged_ids: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for capture in &captures {
        let Ok(version) = capture["negotiated"]
            .as_str()
            .unwrap()
            .parse::<ProtocolVersion>()
        else {
            continue;
        };
        if version > ProtocolVersion::V2025_11_25
            || capture["file"].as_str().unwrap().contains("rejected")
        {
            continue;
        }
        let file = capture["file"].as_str().unwrap();
        let text = std::fs::read_to_string(real(file)).unwrap();
        let (mut server, mut client) =
            (Codec::<Server>::new(version), Codec::<Client>::new(version));
        let count = counts.entry(version.to_string()).or_default();
        for (n, entry) in text.lines().enumerate() {
            let entry: Value = serde_json::from_str(entry).unwrap();
            let original = &entry["msg"];
            let line = original.to_string();
            let to_server = entry["dir"] == "c2s";
            let encoded = if to_server {
                server
                    .decode(&line)
                    .map_err(Failed::Decode)
                    .and_then(|m| client.encode(&m).map_err(Failed::Encode))
            } else {
                client
                    .decode(&line)
                    .map_err(Failed::Decode)
                    .and_then(|m| server.encode(&m).map_err(Failed::Encode))
            };
            let beyond = beyond(&line, version, to_server);
            let encoded = match encoded {
                Ok(encoded) => encoded,
                // What the revision does not define (a method, a content or schema kind of a
                // newer one, which its own types keep as unknown) is not sent in it: refused,
                // naming where.
                Err(Failed::Encode(e)) if beyond.iter().any(|b| b.starts_with(&e.pointer)) => {
                    count.3 += 1;
                    continue;
                }
                // A line the revision's own decoder refuses (a URL-mode form in 2025-06-18):
                // the codec gives the error response owed, with the request's id.
                Err(Failed::Decode(refused)) => {
                    let reply: Value = serde_json::from_str(&refused.reply).unwrap();
                    let owed = original.get("method").is_some() && original.get("id").is_some();
                    if !owed || reply["id"] != original["id"] || !reply["error"]["code"].is_i64() {
                        failures.push(format!(
                            "{file}:{}: {}, replied {reply}\n  {line}",
                            n + 1,
                            refused.message
                        ));
                    }
                    count.4 += 1;
                    continue;
                }
                Err(Failed::Encode(e)) => {
                    failures.push(format!(
                        "{file}:{}: {e} (beyond: {beyond:?})\n  {line}",
                        n + 1
                    ));
                    continue;
                }
            };
            count.0 += 1;
            let back: Value = serde_json::from_str(&encoded.line).unwrap();
            let mut diff = Vec::new();
            differences(original, &back, String::new(), &mut diff);
            for d in &encoded.dropped {
                if !beyond.contains(d) {
                    failures.push(format!(
                        "{file}:{}: dropped {d}, which {version} defines\n  {line}",
                        n + 1
                    ));
                }
            }
            let covered = |p: &String| {
                encoded.dropped.iter().any(|d| p.starts_with(d.as_str()))
                    || encoded.bridged.iter().any(|b| {
                        let scope = b.pointer.rsplit_once('/').map_or("", |s| s.0);
                        p.starts_with(scope) && !scope.is_empty() || *p == b.pointer
                    })
            };
            let unexplained: Vec<&String> = diff.iter().filter(|p| !covered(p)).collect();
            if !unexplained.is_empty() {
                failures.push(format!(
                    "{file}:{}: changed at {unexplained:?} (bridged: {:?}, dropped: {:?})\n  {line}\n  {}",
                    n + 1,
                    encoded.bridged,
                    encoded.dropped,
                    encoded.line
                ));
            }
            if !diff.is_empty() {
                count.1 += 1;
            }
            count.2 += encoded.dropped.len();
            for b in &encoded.bridged {
                *bridged_ids.entry(b.id).or_default() += 1;
            }
        }
    }
    for (version, (messages, translated, dropped, refused, unreadable)) in &counts {
        eprintln!(
            "{version}: {messages} messages round-tripped, {translated} of them translated or trimmed, {dropped} members beyond the revision left out; {refused} messages beyond the revision refused to send; {unreadable} unreadable in the revision, answered with the error owed"
        );
    }
    eprintln!("bridges applied: {bridged_ids:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every handshake-era revision was exercised, and the form bridges met real forms.
    assert_eq!(counts.len(), 4, "{counts:?}");
    assert!(counts.values().all(|c| c.0 > 50), "{counts:?}");
    for id in [
        "elicit-form-mode",
        "elicit-titled-single-select",
        "elicit-default-hint",
    ] {
        assert!(
            bridged_ids.contains_key(id),
            "{id} never applied: {bridged_ids:?}"
        );
    }
}

#[test]
fn the_list_of_bridges_is_the_code_s() {
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(mcp_tests::workspace().join("schema/bridges.json")).unwrap(),
    )
    .unwrap();
    let listed: Vec<(String, String, String)> = file["bridges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            assert!(
                b["evidence"].as_array().is_some_and(|e| !e.is_empty()),
                "{b}: no evidence"
            );
            (
                b["id"].as_str().unwrap().to_owned(),
                b["older"].as_str().unwrap().to_owned(),
                b["newer"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let code: Vec<(String, String, String)> = BRIDGES
        .iter()
        .map(|b| (b.id.to_owned(), b.older.to_string(), b.newer.to_string()))
        .collect();
    assert_eq!(listed, code);
}

/// A 2025-06-18 form field: a string (with a format), a number, an integer, a boolean (with
/// or without default), an untitled or a titled (`enumNames`) enum.
fn field_06() -> impl Strategy<Value = Value> {
    prop_oneof![
        proptest::option::of(proptest::sample::select(vec![
            "email",
            "uri",
            "date",
            "date-time"
        ]))
        .prop_map(|f| match f {
            Some(f) => json!({"type": "string", "format": f, "minLength": 1}),
            None => json!({"type": "string", "title": "Text", "maxLength": 9}),
        }),
        (0i64..10).prop_map(|n| json!({"type": "integer", "minimum": n, "maximum": n + 5})),
        Just(json!({"type": "number", "description": "A number"})),
        proptest::option::of(any::<bool>()).prop_map(|d| match d {
            Some(d) => json!({"type": "boolean", "default": d}),
            None => json!({"type": "boolean"}),
        }),
        (1usize..4, any::<bool>()).prop_map(|(n, titled)| {
            let values: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
            let mut e = json!({"type": "string", "enum": values});
            if titled {
                e["enumNames"] = json!((0..n).map(|i| format!("Value {i}")).collect::<Vec<_>>());
            }
            e
        }),
    ]
}

/// A 2025-11-25 field the bridges translate: a titled single-select with a default, or a
/// string / number with a default.
fn field_11() -> impl Strategy<Value = Value> {
    prop_oneof![
        (1usize..4).prop_map(|n| {
            let options: Vec<Value> = (0..n)
                .map(|i| json!({"const": format!("v{i}"), "title": format!("Value {i}")}))
                .collect();
            json!({"type": "string", "title": "Pick", "oneOf": options, "default": "v0"})
        }),
        Just(json!({"type": "string", "default": "x"})),
        Just(json!({"type": "number", "default": 1.5})),
        field_06(),
    ]
}

fn form(fields: Vec<Value>, required: Vec<bool>) -> Value {
    let mut properties = Map::new();
    let mut names = Vec::new();
    for (i, (f, r)) in fields.into_iter().zip(required).enumerate() {
        let name = format!("f{i}");
        if r {
            names.push(name.clone());
        }
        properties.insert(name, f);
    }
    json!({"type": "object", "properties": properties, "required": names})
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_2025_06_18_form_goes_up_and_back_down_unchanged(
        fields in proptest::collection::vec(field_06(), 1..6),
        required in proptest::collection::vec(any::<bool>(), 6),
    ) {
        let original = json!({"jsonrpc": "2.0", "id": 3, "method": "elicitation/create",
            "params": {"message": "Please", "requestedSchema": form(fields, required)}});
        let v06 = ProtocolVersion::V2025_06_18;
        let up = Codec::<Client>::new(v06).decode(&original.to_string()).unwrap();
        let down = Codec::<Server>::new(v06).encode(&up).unwrap();
        prop_assert!(down.dropped.is_empty(), "{:?}", down.dropped);
        let back: Value = serde_json::from_str(&down.line).unwrap();
        prop_assert_eq!(back, original);
    }

    #[test]
    fn a_2025_11_25_form_reads_the_same_in_2025_06_18(
        fields in proptest::collection::vec(field_11(), 1..6),
        required in proptest::collection::vec(any::<bool>(), 6),
    ) {
        let params = json!({"mode": "form", "message": "Please",
            "requestedSchema": form(fields, required)});
        let request = json!({"jsonrpc": "2.0", "id": 3, "method": "elicitation/create",
            "params": params});
        let message: mcp_typed::v2025_11_25::ServerMessage =
            serde_json::from_value(request).unwrap();
        let down = Codec::<Server>::new(ProtocolVersion::V2025_06_18).encode(&message).unwrap();
        prop_assert!(down.dropped.is_empty(), "{:?}", down.dropped);
        // What a 2025-06-18 peer reads: its own types, with nothing unknown.
        let sent = v06::ServerMessage::from_json(&down.line).unwrap();
        prop_assert!(sent.unknowns().is_empty(), "{:?}", sent.unknowns());
        let sent: Value = serde_json::from_str(&down.line).unwrap();
        let new = Form::from_params(&params, ProtocolVersion::V2025_11_25).unwrap();
        let old = Form::from_params(&sent["params"], ProtocolVersion::V2025_06_18).unwrap();
        prop_assert_eq!(new.fields().len(), old.fields().len());
        for (n, o) in new.fields().iter().zip(old.fields()) {
            prop_assert_eq!(&n.name, &o.name);
            prop_assert_eq!(n.required, o.required);
            prop_assert_eq!(&n.title, &o.title);
            prop_assert_eq!(n.kind.json_type(), o.kind.json_type());
            let options = |f: &mcp_typed::elicit::client::Field| {
                f.kind.options().map(|o| o.iter().map(|c| (c.value.clone(), c.label().to_owned())).collect::<Vec<_>>())
            };
            prop_assert_eq!(options(n), options(o));
            // A default survives where 2025-06-18 has one (booleans); elsewhere it is a hint
            // left out (`elicit-default-hint`).
            if n.kind.json_type() == "boolean" {
                prop_assert_eq!(&n.default, &o.default);
            } else {
                prop_assert_eq!(&o.default, &None);
            }
        }
    }
}
