//! The checker's capability tables (`mcp_typed::check::capabilities`) against each revision's
//! schema: every capability a table names is one of the revision's `ClientCapabilities` or
//! `ServerCapabilities` (its holder's), and every capability the schema defines gates a
//! message in the table (itself or one of its sub-capabilities), or is in `GATE_NOTHING`.

use std::collections::BTreeSet;

use mcp_typed::ProtocolVersion;
use mcp_typed::check::capabilities::{GATE_NOTHING, Holder, table};
use serde_json::Value;

/// The dotted paths of a capabilities definition's members, nested ones too.
fn paths(definition: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    let Some(Value::Object(members)) = definition.get("properties") else {
        return;
    };
    for (name, member) in members {
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}.{name}")
        };
        paths(member, &path, out);
        out.insert(path);
    }
}

#[test]
fn each_table_covers_its_schema_s_capabilities_and_names_no_other() {
    let revisions = [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
        "draft",
    ];
    let mut failures = Vec::new();
    for revision in revisions {
        let schema = mcp_tests::schema(revision);
        let defs = schema
            .get("definitions")
            .or_else(|| schema.get("$defs"))
            .expect("schema definitions");
        let version: ProtocolVersion = match revision {
            "draft" => ProtocolVersion::V2026_07_28,
            r => r.parse().unwrap(),
        };
        for (holder, definition) in [
            (Holder::Client, "ClientCapabilities"),
            (Holder::Server, "ServerCapabilities"),
        ] {
            let mut in_schema = BTreeSet::new();
            paths(&defs[definition], "", &mut in_schema);
            assert!(!in_schema.is_empty(), "{revision}: no {definition}");
            let named: BTreeSet<&str> = table(version)
                .iter()
                .flat_map(|group| group.iter())
                .filter(|r| r.holder == holder || r.holder == Holder::Receiver)
                .map(|r| r.capability)
                .collect();
            for capability in &named {
                if !in_schema.contains(*capability) {
                    failures.push(format!(
                        "{revision}: the table names {definition}.{capability}, which the schema lacks"
                    ));
                }
            }
            for capability in &in_schema {
                let covered = named
                    .iter()
                    .any(|n| *n == capability || n.starts_with(&format!("{capability}.")));
                let exempt = GATE_NOTHING
                    .iter()
                    .any(|(r, c)| (*r == "*" || *r == revision) && c == capability);
                if !covered && !exempt {
                    failures.push(format!(
                        "{revision}: {definition}.{capability} gates nothing in the table"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
