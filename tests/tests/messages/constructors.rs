//! Every struct of every revision built with `Type::new(…)` alone (see `tests/build.rs`, which
//! writes the expressions from the generator's model): the JSON it encodes to has exactly the
//! required members, validates against the definition (the official schema with the errata of
//! `schema/errata.json` applied), and decodes back to the same value.

use mcp_typed_codegen::load::errata::Errata;
use serde_json::Value;

struct Constructed {
    revision: &'static str,
    rust_name: &'static str,
    definition: Option<&'static str>,
    json: fn() -> Value,
    decodes: fn(&Value) -> Result<Value, String>,
}

const CONSTRUCTED: &[Constructed] = include!(concat!(env!("OUT_DIR"), "/constructed.rs"));

fn validator(revision: &str, definition: &str) -> jsonschema::Validator {
    let mut doc: Value =
        serde_json::from_str(&std::fs::read_to_string(mcp_tests::schema_path(revision)).unwrap())
            .unwrap();
    Errata::builtin().apply(&mut doc);
    let key = if doc.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    let wrapper = serde_json::json!({
        "$schema": doc["$schema"],
        "$ref": format!("#/{key}/{definition}"),
        key: doc[key],
    });
    // Formats are not the constructor's business: its strings are placeholders.
    jsonschema::options()
        .should_validate_formats(false)
        .build(&wrapper)
        .unwrap()
}

#[test]
fn every_constructor_encodes_a_valid_value_with_its_required_members() {
    let mut validated = 0;
    for c in CONSTRUCTED {
        let what = format!("{} {}::new", c.revision, c.rust_name);
        let json = (c.json)();
        // Decodes back to the same JSON: constants written, nothing invented.
        let again =
            (c.decodes)(&json).unwrap_or_else(|e| panic!("{what}: {json} does not decode: {e}"));
        assert_eq!(again, json, "{what}");
        let Some(def) = c.definition else {
            continue;
        };
        let v = validator(c.revision, def);
        let errors: Vec<String> = v
            .iter_errors(&json)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{what}: {json} is not a valid {def}: {errors:?}"
        );
        validated += 1;
    }
    // Every object definition of the six revisions (and the inline objects besides).
    assert_eq!(validated, 587);
    assert!(CONSTRUCTED.len() > validated);
}

/// The capabilities of `initialize` are held behind a `Box` (the generator's default
/// `--boxed`), so the message enums are not as large as a session's first message: 2025-11-25's
/// `ClientMessage` was 616 bytes with them inline (`ClientCapabilities` alone is 368), every
/// message moved at that size. The constructors still take the capabilities themselves.
#[test]
fn initialize_capabilities_are_boxed_so_messages_stay_small() {
    use mcp_typed::v2025_11_25 as r;
    use std::mem::size_of;
    let params = r::InitializeRequestParams::new(
        "2025-11-25",
        r::ClientCapabilities::new(),
        r::Implementation::new("c", "1"),
    );
    let result = r::InitializeResult::new(
        "2025-11-25",
        r::ServerCapabilities::new(),
        r::Implementation::new("s", "1"),
    );
    let _: &Box<r::ClientCapabilities> = &params.capabilities;
    let _: &Box<r::ServerCapabilities> = &result.capabilities;
    // Measured on the pinned toolchain: 256 and 352 (the largest variants are now
    // `InitializeRequest`, with its `Implementation` inline, and `CreateMessageRequest`).
    assert!(size_of::<r::ClientCapabilities>() > 256);
    assert!(
        size_of::<r::ClientMessage>() <= 256,
        "{}",
        size_of::<r::ClientMessage>()
    );
    assert!(
        size_of::<r::ServerMessage>() <= 352,
        "{}",
        size_of::<r::ServerMessage>()
    );
}
