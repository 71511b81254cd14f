//! A schema may use any name, including ones Rust reserves: the generated code still parses
//! and keeps every item. `self` as a definition, a property, an enum value or a union member
//! (found by the `codegen_load` fuzz target: a definition named `self` became the type
//! `Self`, and the formatter refused the output).

use mcp_typed_codegen::Builder;
use serde_json::json;

#[test]
fn self_everywhere_generates_code_that_parses() {
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "self": {
                "type": "object",
                "properties": {
                    "self": {
                        "type": "object",
                        "properties": { "a": { "type": "string" } }
                    },
                    "kind": { "type": "string", "enum": ["self", "other"] }
                },
                "required": ["kind"]
            },
            "Holder": {
                "anyOf": [{ "$ref": "#/$defs/self" }, { "type": "string" }]
            }
        }
    });
    let generated = Builder::new()
        .schema_json(schema.to_string())
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let code = generated.code();
    // The definition, its enum value and the union member are named `SelfValue`; the
    // property is the field `self_`; nothing is named `Self`.
    assert!(code.contains("pub struct SelfValue {"), "{code}");
    assert!(code.contains("pub self_: Option<"), "{code}");
    assert!(code.contains("SelfValue(SelfValue)"), "{code}");
    // The enum value keeps its JSON spelling both ways.
    assert!(
        code.contains("SelfValueKind::SelfValue => \"self\""),
        "{code}"
    );
    // Decoded by its place in the value table, which is `ALL`'s order.
    assert!(
        code.contains(
            "pub const ALL: &'static [SelfValueKind] = &[\n        SelfValueKind::SelfValue,\n        SelfValueKind::Other,"
        ),
        "{code}"
    );
    assert!(
        code.contains("Self::ALL[pull::one_of(p, &[\"self\", \"other\"]"),
        "{code}"
    );
    syn::parse_file(code).expect("the generated code parses");
}
