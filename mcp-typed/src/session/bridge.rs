//! Semantic bridges: where two revisions say the same thing in different shapes, a message
//! moved between them is translated instead of losing the meaning.
//!
//! Each bridge is listed in [`BRIDGES`] with the revisions it joins, and in
//! `schema/bridges.json` with its evidence (a test keeps the two lists equal). Bridges work on
//! a message's JSON before it is converted with [`crate::convert`], so what a bridge does not
//! cover is still dropped and listed, or refused, exactly as a conversion does.

use serde_json::{Map, Value};

use crate::ProtocolVersion;

/// One bridge: what it translates, and between which revisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bridge {
    /// Its name, as in `schema/bridges.json`.
    pub id: &'static str,
    /// What it does.
    pub summary: &'static str,
    /// The newest revision with the older shape …
    pub older: ProtocolVersion,
    /// … and the oldest with the newer one: a message moving between the two sides is
    /// translated.
    pub newer: ProtocolVersion,
}

/// A bridge applied to one message: which, and where (a JSON Pointer into the message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bridged {
    /// The bridge's [`Bridge::id`].
    pub id: &'static str,
    /// Where it applied.
    pub pointer: String,
}

/// Every bridge, in the order they apply.
pub const BRIDGES: &[Bridge] = &[
    Bridge {
        id: "elicit-form-mode",
        summary: "`mode: \"form\"` of an elicitation/create request is left out for 2025-06-18, \
                  where every elicitation is a form and `mode` does not exist",
        older: ProtocolVersion::V2025_06_18,
        newer: ProtocolVersion::V2025_11_25,
    },
    Bridge {
        id: "elicit-titled-single-select",
        summary: "a titled single-select (`oneOf` of `const`/`title`) becomes `enum` + \
                  `enumNames` for 2025-06-18, which says the same thing that way",
        older: ProtocolVersion::V2025_06_18,
        newer: ProtocolVersion::V2025_11_25,
    },
    Bridge {
        id: "elicit-default-hint",
        summary: "a `default` on a string, number or single-select field is left out for \
                  2025-06-18, which has defaults on booleans only: a default is a hint to the \
                  client, and a derived form applies it when it reads the answer",
        older: ProtocolVersion::V2025_06_18,
        newer: ProtocolVersion::V2025_11_25,
    },
    Bridge {
        id: "error-id-null",
        summary: "an error response without an `id` gets `\"id\": null` for revisions before \
                  2025-11-25, where the member is required",
        older: ProtocolVersion::V2025_06_18,
        newer: ProtocolVersion::V2025_11_25,
    },
    Bridge {
        id: "result-type",
        summary: "a result sent in 2026-07-28 says `resultType: \"complete\"`, which older \
                  revisions leave implicit (a client reads an absent one as complete)",
        older: ProtocolVersion::V2025_11_25,
        newer: ProtocolVersion::V2026_07_28,
    },
    Bridge {
        id: "cache-hints",
        summary: "a cacheable result (lists, resources/read, server/discover) sent in \
                  2026-07-28 carries `ttlMs` and `cacheScope`, from the server's `Info`",
        older: ProtocolVersion::V2025_11_25,
        newer: ProtocolVersion::V2026_07_28,
    },
    Bridge {
        id: "server-info-meta",
        summary: "2026-07-28 has no `initialize`: every result names the server in \
                  `_meta[\"io.modelcontextprotocol/serverInfo\"]`",
        older: ProtocolVersion::V2025_11_25,
        newer: ProtocolVersion::V2026_07_28,
    },
    Bridge {
        id: "input-required",
        summary: "a tool asking for a form sends `elicitation/create` and runs again with the \
                  answer up to 2025-11-25; in 2026-07-28 it returns an `InputRequiredResult` \
                  and the client's retry carries the answer in `inputResponses` (earlier \
                  answers of the same call ride in `requestState`)",
        older: ProtocolVersion::V2025_11_25,
        newer: ProtocolVersion::V2026_07_28,
    },
];

fn bridge(id: &str) -> &'static Bridge {
    BRIDGES
        .iter()
        .find(|b| b.id == id)
        .expect("every bridge applied is listed")
}

/// Translates `message` (a JSON-RPC message of a revision newer than `to`) into `to`'s shapes
/// where a bridge says how, and lists what it did. What no bridge covers is left as it is.
pub fn down(message: &mut Value, to: ProtocolVersion) -> Vec<Bridged> {
    let mut done = Vec::new();
    let Value::Object(object) = message else {
        return done;
    };
    let applies = |id: &str| to <= bridge(id).older;
    if applies("error-id-null") && object.contains_key("error") && !object.contains_key("id") {
        // After `jsonrpc`, as an error response is written.
        let mut with_id = Map::new();
        for (k, v) in std::mem::take(object) {
            let first = k == "jsonrpc";
            with_id.insert(k, v);
            if first {
                with_id.insert("id".to_owned(), Value::Null);
            }
        }
        if !with_id.contains_key("id") {
            with_id.insert("id".to_owned(), Value::Null);
        }
        *object = with_id;
        done.push(Bridged {
            id: "error-id-null",
            pointer: "/id".to_owned(),
        });
    }
    if object.get("method").and_then(Value::as_str) != Some("elicitation/create") {
        return done;
    }
    let Some(Value::Object(params)) = object.get_mut("params") else {
        return done;
    };
    if applies("elicit-form-mode") && params.get("mode").and_then(Value::as_str) == Some("form") {
        params.shift_remove("mode");
        done.push(Bridged {
            id: "elicit-form-mode",
            pointer: "/params/mode".to_owned(),
        });
    }
    let Some(Value::Object(properties)) = params
        .get_mut("requestedSchema")
        .and_then(|s| s.get_mut("properties"))
    else {
        return done;
    };
    for (name, property) in properties.iter_mut() {
        let Value::Object(property) = property else {
            continue;
        };
        let at = format!(
            "/params/requestedSchema/properties/{}",
            name.replace('~', "~0").replace('/', "~1")
        );
        if applies("elicit-titled-single-select")
            && property.get("type").and_then(Value::as_str) == Some("string")
            && let Some(Value::Array(one_of)) = property.get("oneOf")
            && let Some((values, titles)) = titled_options(one_of)
        {
            let mut translated = Map::new();
            for (k, v) in std::mem::take(property) {
                if k == "oneOf" {
                    translated.insert("enum".to_owned(), Value::from(values.clone()));
                    translated.insert("enumNames".to_owned(), Value::from(titles.clone()));
                } else {
                    translated.insert(k, v);
                }
            }
            *property = translated;
            done.push(Bridged {
                id: "elicit-titled-single-select",
                pointer: format!("{at}/oneOf"),
            });
        }
        let boolean = property.get("type").and_then(Value::as_str) == Some("boolean");
        if applies("elicit-default-hint") && !boolean && property.contains_key("default") {
            // A multi-select's default goes with the field, which 2025-06-18 refuses anyway.
            if property.get("type").and_then(Value::as_str) != Some("array") {
                property.shift_remove("default");
                done.push(Bridged {
                    id: "elicit-default-hint",
                    pointer: format!("{at}/default"),
                });
            }
        }
    }
    done
}

/// `oneOf: [{const, title}…]` as (values, titles); `None` for any other shape.
fn titled_options(one_of: &[Value]) -> Option<(Vec<String>, Vec<String>)> {
    let mut values = Vec::with_capacity(one_of.len());
    let mut titles = Vec::with_capacity(one_of.len());
    for option in one_of {
        let option = option.as_object()?;
        if option.keys().any(|k| k != "const" && k != "title") {
            return None;
        }
        let value = option.get("const")?.as_str()?;
        values.push(value.to_owned());
        titles.push(
            option
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or(value)
                .to_owned(),
        );
    }
    (!values.is_empty()).then_some((values, titles))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_2025_11_25_form_becomes_its_2025_06_18_twin() {
        let mut m = json!({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {
        "mode": "form", "message": "Pick",
        "requestedSchema": {"type": "object", "properties": {
            "hero": {"type": "string", "title": "Hero", "oneOf": [
                {"const": "h1", "title": "Superman"}, {"const": "h2"}], "default": "h1"},
            "agree": {"type": "boolean", "default": true},
            "n": {"type": "integer", "default": 3}
        }}}});
        let done = down(&mut m, ProtocolVersion::V2025_06_18);
        assert_eq!(
            m["params"],
            json!({"message": "Pick", "requestedSchema": {"type": "object", "properties": {
                "hero": {"type": "string", "title": "Hero", "enum": ["h1", "h2"],
                         "enumNames": ["Superman", "h2"]},
                "agree": {"type": "boolean", "default": true},
                "n": {"type": "integer"}
            }}})
        );
        let ids: Vec<(&str, &str)> = done.iter().map(|b| (b.id, b.pointer.as_str())).collect();
        assert_eq!(
            ids,
            [
                ("elicit-form-mode", "/params/mode"),
                (
                    "elicit-titled-single-select",
                    "/params/requestedSchema/properties/hero/oneOf"
                ),
                (
                    "elicit-default-hint",
                    "/params/requestedSchema/properties/hero/default"
                ),
                (
                    "elicit-default-hint",
                    "/params/requestedSchema/properties/n/default"
                ),
            ]
        );
    }

    #[test]
    fn nothing_changes_for_the_same_or_a_newer_revision() {
        let m = json!({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {
            "mode": "form", "message": "Pick", "requestedSchema": {"type": "object",
            "properties": {"hero": {"type": "string", "oneOf": [{"const": "h1", "title": "S"}]}}}}});
        for to in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
            let mut same = m.clone();
            assert!(down(&mut same, to).is_empty());
            assert_eq!(same, m);
        }
    }

    #[test]
    fn an_error_without_id_gets_null_before_2025_11_25() {
        let mut e = json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "x"}});
        let done = down(&mut e, ProtocolVersion::V2025_03_26);
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}"#
        );
        assert_eq!(done[0].id, "error-id-null");
        let mut e = json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "x"}});
        assert!(down(&mut e, ProtocolVersion::V2025_11_25).is_empty());
    }
}
