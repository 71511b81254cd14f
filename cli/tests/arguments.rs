//! `mcp_typed_cli::arguments`: every value `valid` makes is accepted by the `jsonschema`
//! validator, every object `invalid` makes is refused, for every captured tool list, per
//! keyword, and over generated schemas.

use std::path::{Path, PathBuf};

use mcp_typed_cli::arguments::{ArgumentsError, invalid, valid};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The validator the tests judge with, compiled apart from the module's own: formats
/// asserted; a document other than the schema is taken as refusing everything (none is
/// fetched).
fn validator(schema: &Value) -> jsonschema::Validator {
    struct Refuse;
    impl jsonschema::Retrieve for Refuse {
        fn retrieve(
            &self,
            _: &jsonschema::Uri<String>,
        ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
            Ok(Value::Bool(false))
        }
    }
    jsonschema::options()
        .should_validate_formats(true)
        .with_retriever(Refuse)
        .build(schema)
        .unwrap_or_else(|e| panic!("the test's validator cannot compile {schema}: {e}"))
}

fn accepted(schema: &Value, value: &Value) -> bool {
    validator(schema).is_valid(value)
}

#[track_caller]
fn assert_valid(schema: Value) -> Value {
    let value = valid(&schema).unwrap_or_else(|e| panic!("valid({schema}): {e}"));
    assert!(
        accepted(&schema, &value),
        "valid({schema}) = {value}, which the validator refuses"
    );
    value
}

#[track_caller]
fn assert_invalid(schema: Value) -> (Value, String) {
    let (value, why) = invalid(&schema).unwrap_or_else(|| panic!("invalid({schema}) = None"));
    assert!(
        !accepted(&schema, &value),
        "invalid({schema}) = {value} ({why}), which the validator accepts"
    );
    (value, why)
}

#[track_caller]
fn assert_error(schema: Value) -> ArgumentsError {
    match valid(&schema) {
        Ok(value) => panic!("valid({schema}) = {value}, expected an error"),
        Err(e) => e,
    }
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

/// (where, tool name, inputSchema) for every tool of every captured tool list and every
/// tools/list result in the real traffic, each distinct schema once.
fn captured_schemas() -> Vec<(String, String, Value)> {
    let mut out: Vec<(String, String, Value)> = Vec::new();
    let mut push = |file: &Path, result: &Value| {
        for tool in result["tools"].as_array().expect("tools is an array") {
            let schema = tool["inputSchema"].clone();
            if !out.iter().any(|(_, _, s)| *s == schema) {
                let name = tool["name"].as_str().unwrap_or("?").to_owned();
                let file = file.file_name().unwrap().to_string_lossy().into_owned();
                out.push((file, name, schema));
            }
        }
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures().join("tool-lists"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 8, "tool lists: {files:?}");
    for file in &files {
        let list: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        push(file, &list);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures().join("real-traffic"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "real traffic: {files:?}");
    for file in &files {
        for line in std::fs::read_to_string(file).unwrap().lines() {
            let line: Value = serde_json::from_str(line).unwrap();
            let result = &line["msg"]["result"];
            if line["dir"] == "s2c" && result.get("tools").is_some() {
                push(file, result);
            }
        }
    }
    out
}

/// Whether a schema accepts every object: no required member, no typed property, no
/// `additionalProperties: false` (so `invalid` may say `None`).
fn accepts_every_object(schema: &Value) -> bool {
    let required = schema["required"].as_array().is_some_and(|r| !r.is_empty());
    let typed = schema["properties"]
        .as_object()
        .is_some_and(|p| p.values().any(|s| s.get("type").is_some()));
    let closed = schema["additionalProperties"] == json!(false);
    let object = schema.get("type").is_none_or(|t| t == "object");
    object && !required && !typed && !closed
}

#[test]
fn every_captured_tool_schema() {
    let schemas = captured_schemas();
    let mut made = 0;
    let mut errors = Vec::new();
    let mut no_invalid = Vec::new();
    for (file, name, schema) in &schemas {
        match valid(schema) {
            Ok(value) => {
                assert!(
                    accepted(schema, &value),
                    "{file} {name}: valid() = {value}, refused by the validator"
                );
                println!("  {file} {name}: {value}");
                made += 1;
            }
            Err(e) => errors.push(format!("{file} {name}: {e}")),
        }
        match invalid(schema) {
            Some((value, why)) => assert!(
                !accepted(schema, &value),
                "{file} {name}: invalid() = {value} ({why}), accepted by the validator"
            ),
            None => {
                assert!(
                    accepts_every_object(schema),
                    "{file} {name}: invalid() = None, but {schema} refuses some objects"
                );
                no_invalid.push(format!("{file} {name}"));
            }
        }
    }
    println!(
        "{} distinct input schemas: {made} valid values, {} refused with an error, {} without an invalid object",
        schemas.len(),
        errors.len(),
        no_invalid.len()
    );
    for e in &errors {
        println!("  error: {e}");
    }
    for n in &no_invalid {
        println!("  accepts every object: {n}");
    }
    assert!(schemas.len() >= 40, "only {} schemas found", schemas.len());
    assert_eq!(errors, Vec::<String>::new(), "schemas with no valid value");
}

#[test]
fn pydantic_order_is_filled_from_defs() {
    let list: Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("tool-lists/python-pydantic.json")).unwrap(),
    )
    .unwrap();
    let schema = &list["tools"][0]["inputSchema"];
    let value = assert_valid(schema.clone());
    // Required members only; the contact's name honours minLength 1.
    assert_eq!(value["order"]["items"], json!(["a"]));
    assert_eq!(value["order"]["contact"], json!({"name": "a"}));
    assert!(value["order"].get("quantity").is_none());
}

// ---- one keyword at a time ----

#[test]
fn only_required_members() {
    let value = assert_valid(json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "required": ["b"]
    }));
    assert_eq!(value, json!({"b": 0}));
}

#[test]
fn default_const_enum_examples() {
    let v = assert_valid(json!({"type": "object", "properties": {
        "d": {"type": "integer", "default": 7},
        "bad_default": {"type": "integer", "minimum": 3, "default": 1},
        "c": {"const": "fixed"},
        "e": {"type": "string", "enum": ["x", "y"]},
        "e2": {"enum": [5, "five"], "type": "string"},
        "x": {"type": "string", "examples": ["Lyon"]},
        "bad_example": {"type": "string", "maxLength": 2, "examples": ["Lyon"]}
    }, "required": ["d", "bad_default", "c", "e", "e2", "x", "bad_example"]}));
    assert_eq!(
        v,
        json!({"d": 7, "bad_default": 3, "c": "fixed", "e": "x", "e2": "five", "x": "Lyon", "bad_example": "a"})
    );
}

#[test]
fn integer_and_number_bounds() {
    let v = assert_valid(json!({"type": "object", "properties": {
        "plain": {"type": "integer"},
        "min": {"type": "integer", "minimum": 5},
        "neg": {"type": "integer", "maximum": -3},
        "exmin": {"type": "integer", "exclusiveMinimum": 5},
        "exmax": {"type": "number", "exclusiveMaximum": 0},
        "mult": {"type": "integer", "minimum": 10, "multipleOf": 7},
        "frac": {"type": "number", "minimum": 0.1, "maximum": 0.2},
        "fracmult": {"type": "number", "exclusiveMinimum": 0, "maximum": 0.5, "multipleOf": 0.1},
        "intfrac": {"type": "integer", "minimum": 1, "multipleOf": 0.5}
    }, "required": ["plain", "min", "neg", "exmin", "exmax", "mult", "frac", "fracmult", "intfrac"]}));
    assert_eq!(v["plain"], json!(0));
    assert_eq!(v["min"], json!(5));
    assert_eq!(v["neg"], json!(-3));
    assert_eq!(v["exmin"], json!(6));
    assert_eq!(v["exmax"], json!(-1));
    assert_eq!(v["mult"], json!(14));
    assert!(v["frac"].as_f64().is_some_and(|x| (0.1..=0.2).contains(&x)));
    assert_eq!(v["fracmult"], json!(0.1));
    assert_eq!(v["intfrac"], json!(1));
    // Draft-04's boolean exclusiveMinimum.
    let v = assert_valid(json!({"$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object", "properties": {
        "n": {"type": "integer", "minimum": 5, "exclusiveMinimum": true},
        "x": {"type": "number", "maximum": -2, "exclusiveMaximum": true}
    }, "required": ["n", "x"]}));
    assert_eq!(v, json!({"n": 6, "x": -3}));
}

#[test]
fn impossible_bounds_are_an_error_naming_the_pointer() {
    let e = assert_error(json!({"type": "object", "properties": {
        "n": {"type": "integer", "minimum": 0.2, "maximum": 0.8}
    }, "required": ["n"]}));
    assert_eq!(e.pointer, "/properties/n");
    assert!(e.message.contains("integer"), "{e}");
}

#[test]
fn string_lengths() {
    let v = assert_valid(json!({"type": "object", "properties": {
        "plain": {"type": "string"},
        "min": {"type": "string", "minLength": 3},
        "empty": {"type": "string", "maxLength": 0}
    }, "required": ["plain", "min", "empty"]}));
    assert_eq!(v, json!({"plain": "a", "min": "aaa", "empty": ""}));
}

#[test]
fn string_formats() {
    let formats = [
        "email",
        "idn-email",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uri-template",
        "date",
        "date-time",
        "time",
        "duration",
        "uuid",
        "ipv4",
        "ipv6",
        "hostname",
        "idn-hostname",
        "json-pointer",
        "relative-json-pointer",
        "regex",
        "some-unknown-format",
    ];
    for format in formats {
        let schema = json!({"type": "object", "properties": {
            "s": {"type": "string", "format": format}
        }, "required": ["s"]});
        let v = assert_valid(schema);
        assert!(v["s"].is_string(), "{format}: {v}");
    }
    // Lengthened to minLength where the format allows.
    let v = assert_valid(json!({"type": "object", "properties": {
        "s": {"type": "string", "format": "email", "minLength": 30}
    }, "required": ["s"]}));
    assert!(v["s"].as_str().unwrap().len() >= 30);
    // Not where it does not.
    let e = assert_error(json!({"type": "object", "properties": {
        "s": {"type": "string", "format": "date", "minLength": 30}
    }, "required": ["s"]}));
    assert_eq!(e.pointer, "/properties/s/format");
}

#[test]
fn string_patterns() {
    let cases = [
        r"^[0-9]{5}$",
        r"^\d{3}-\d{4}$",
        r"^[A-Z][a-z]+$",
        r"^(foo|bar)baz$",
        r"^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$",
        r"^\w+$",
        r"abc",
        r"^#[0-9a-fA-F]{6}$",
        r"^https?://",
        r"^[^\s]+$",
        r"^(?:\+?1[-. ]?)?\(?[0-9]{3}\)?[-. ]?[0-9]{3}[-. ]?[0-9]{4}$",
        r"^[\u00e9]+$",
    ];
    for pattern in cases {
        let v = assert_valid(json!({"type": "object", "properties": {
            "s": {"type": "string", "pattern": pattern}
        }, "required": ["s"]}));
        assert!(v["s"].is_string(), "{pattern}: {v}");
    }
    // With lengths too.
    let v = assert_valid(json!({"type": "object", "properties": {
        "s": {"type": "string", "pattern": "^[a-c]+$", "minLength": 10, "maxLength": 12}
    }, "required": ["s"]}));
    let n = v["s"].as_str().unwrap().len();
    assert!((10..=12).contains(&n), "{v}");
    // Deterministic.
    let schema = json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^[a-z]{8}$"}}, "required": ["s"]});
    assert_eq!(valid(&schema).unwrap(), valid(&schema).unwrap());
}

#[test]
fn patterns_that_cannot_be_sampled_are_an_error() {
    // A backreference: regex-syntax does not parse it.
    let e = assert_error(json!({"type": "object", "properties": {
        "s": {"type": "string", "pattern": r"^(a)\1$"}
    }, "required": ["s"]}));
    assert_eq!(e.pointer, "/properties/s/pattern");
    assert!(e.message.contains("pattern"), "{e}");
    // Contradictory anchors: every sample is refused by the check.
    let e = assert_error(json!({"type": "object", "properties": {
        "s": {"type": "string", "pattern": r"a^b"}
    }, "required": ["s"]}));
    assert_eq!(e.pointer, "/properties/s/pattern");
    // An optional member with such a pattern is left out: no error.
    assert_valid(json!({"type": "object", "properties": {
        "s": {"type": "string", "pattern": r"^(a)\1$"}
    }}));
}

#[test]
fn booleans_null_and_type_arrays() {
    let v = assert_valid(json!({"type": "object", "properties": {
        "b": {"type": "boolean"},
        "n": {"type": "null"},
        "t": {"type": ["null", "integer"]},
        "u": {"type": ["string", "null"]},
        "any": {},
        "yes": true
    }, "required": ["b", "n", "t", "u", "any", "yes"]}));
    assert_eq!(
        v,
        json!({"b": false, "n": null, "t": 0, "u": "a", "any": null, "yes": null})
    );
}

#[test]
fn arrays() {
    let v = assert_valid(json!({"type": "object", "properties": {
        "empty": {"type": "array", "items": {"type": "string"}},
        "min": {"type": "array", "items": {"type": "integer", "minimum": 2}, "minItems": 2},
        "unique": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 3, "uniqueItems": true},
        "unique_strings": {"type": "array", "items": {"type": "string", "format": "email"}, "minItems": 2, "uniqueItems": true},
        "unique_enum": {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 2, "uniqueItems": true},
        "prefix": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}], "items": {"type": "null"}, "minItems": 3},
        "contains": {"type": "array", "items": {"type": "integer"}, "contains": {"minimum": 4}}
    }, "required": ["empty", "min", "unique", "unique_strings", "unique_enum", "prefix", "contains"]}));
    assert_eq!(v["empty"], json!([]));
    assert_eq!(v["min"], json!([2, 2]));
    assert_eq!(v["unique"], json!([0, 1, 2]));
    assert_eq!(v["unique_enum"], json!(["a", "b"]));
    assert_eq!(v["prefix"], json!(["a", false, null]));
    assert_eq!(v["contains"], json!([4]));
    // Draft-07 tuple form.
    let v = assert_valid(json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"t": {"type": "array", "items": [{"type": "integer"}, {"type": "string"}], "additionalItems": {"type": "boolean"}, "minItems": 3}},
        "required": ["t"]
    }));
    assert_eq!(v["t"], json!([0, "a", false]));
    // Too few distinct items.
    let e = assert_error(json!({"type": "object", "properties": {
        "u": {"type": "array", "items": {"type": "boolean"}, "minItems": 3, "uniqueItems": true}
    }, "required": ["u"]}));
    assert!(e.pointer.starts_with("/properties/u"), "{e}");
}

#[test]
fn nested_objects_and_min_properties() {
    let v = assert_valid(json!({"type": "object", "properties": {
        "inner": {"type": "object", "properties": {
            "x": {"type": "integer"}, "y": {"type": "string"}, "z": {"type": "boolean"}
        }, "required": ["y"], "minProperties": 2},
        "open": {"type": "object", "minProperties": 1, "additionalProperties": {"type": "integer"}},
        "dep": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"], "dependentRequired": {"a": ["b"]}}
    }, "required": ["inner", "open", "dep"]}));
    assert_eq!(v["inner"], json!({"y": "a", "x": 0}));
    assert_eq!(v["open"], json!({"property1": 0}));
    assert_eq!(v["dep"], json!({"a": "a", "b": 0}));
}

#[test]
fn refs_defs_definitions_and_cycles() {
    let v = assert_valid(json!({
        "type": "object",
        "properties": {"p": {"$ref": "#/$defs/P"}, "q": {"$ref": "#/definitions/Q"}},
        "required": ["p", "q"],
        "$defs": {"P": {"type": "object", "properties": {"n": {"$ref": "#/$defs/N"}}, "required": ["n"]},
                  "N": {"type": "integer", "minimum": 3}},
        "definitions": {"Q": {"type": "string", "enum": ["only"]}}
    }));
    assert_eq!(v, json!({"p": {"n": 3}, "q": "only"}));

    // A tree: the recursive member is optional, so there is a finite value.
    assert_valid(json!({
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "required": ["root"],
        "$defs": {"Node": {"type": "object", "properties": {
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            "name": {"type": "string"}
        }, "required": ["name", "children"]}}
    }));
    // A linked list ended by null through anyOf.
    let v = assert_valid(json!({
        "type": "object",
        "properties": {"list": {"$ref": "#/$defs/L"}},
        "required": ["list"],
        "$defs": {"L": {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/L"}, {"type": "null"}]}}, "required": ["next"]}}
    }));
    assert_eq!(v, json!({"list": {"next": null}}));
    // Every value goes round the cycle: an error, not a stack overflow.
    let e = assert_error(json!({
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "required": ["a"],
        "$defs": {"A": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"]}}
    }));
    assert!(e.message.contains("itself"), "{e}");
    // A ref into the properties (zod-to-json-schema writes these).
    let v = assert_valid(json!({
        "type": "object",
        "properties": {"a": {"type": "string", "minLength": 2}, "b": {"$ref": "#/properties/a"}},
        "required": ["b"]
    }));
    assert_eq!(v, json!({"b": "aa"}));
    // A ref to nothing.
    let e = assert_error(
        json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/none"}}, "required": ["a"]}),
    );
    assert!(
        e.message.contains("none") || e.message.contains("compile"),
        "{e}"
    );
}

#[test]
fn external_refs_are_not_fetched() {
    // Optional: the value does not depend on it.
    assert_valid(
        json!({"type": "object", "properties": {"w": {"$ref": "https://example.com/place.json"}}}),
    );
    // Required: an honest error.
    let e = assert_error(
        json!({"type": "object", "properties": {"w": {"$ref": "https://example.com/place.json"}}, "required": ["w"]}),
    );
    assert!(e.message.contains("another document"), "{e}");
}

#[test]
fn any_of_one_of_all_of_not() {
    let v = assert_valid(json!({"type": "object", "properties": {
        "any": {"anyOf": [{"type": "string", "pattern": r"^(a)\1$"}, {"type": "integer", "minimum": 4}]},
        "one": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 0}]},
        "all": {"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                          {"properties": {"b": {"type": "string"}}, "required": ["b"]},
                          {"properties": {"a": {"minimum": 9}}}]},
        "not": {"type": "integer", "not": {"const": 0}},
        "not_str": {"type": "string", "not": {"enum": ["a", "b"]}},
        "nullable": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
        "sibling": {"type": "object", "properties": {"k": {"type": "string"}}, "anyOf": [{"required": ["k"]}]}
    }, "required": ["any", "one", "all", "not", "not_str", "nullable", "sibling"]}));
    assert_eq!(v["any"], json!(4));
    // 0 is an integer and a number >= 0: both branches, so oneOf refuses it; -1 is one.
    assert_eq!(v["one"], json!(-1));
    assert_eq!(v["all"], json!({"a": 9, "b": "a"}));
    assert_eq!(v["not"], json!(1));
    assert_eq!(v["not_str"], json!("c"));
    assert_eq!(v["nullable"], json!("2024-01-01"));
    assert_eq!(v["sibling"], json!({"k": "a"}));
}

#[test]
fn if_then_else_is_met_by_trying() {
    assert_valid(json!({"type": "object", "properties": {
        "n": {"type": "integer", "if": {"minimum": 0}, "then": {"minimum": 10}}
    }, "required": ["n"]}));
}

#[test]
fn odd_roots() {
    assert_eq!(assert_valid(json!({})), json!({}));
    assert_eq!(assert_valid(json!({"type": "object"})), json!({}));
    assert_eq!(assert_valid(json!(true)), json!(null));
    assert_eq!(assert_valid(json!({"type": "string"})), json!("a"));
    let e = assert_error(json!(false));
    assert_eq!(e.pointer, "");
    // Not a schema at all: an error, never a panic.
    for junk in [
        json!(1),
        json!("x"),
        json!([1]),
        json!({"type": 5}),
        json!({"type": "wat"}),
        json!({"properties": 3, "required": "a"}),
        json!({"enum": 3}),
        json!({"anyOf": {}}),
        json!({"allOf": [1]}),
        json!({"$ref": 3}),
        json!({"type": "object", "required": ["x"], "properties": {"x": {"pattern": "("}}}),
    ] {
        let _ = valid(&junk);
        let _ = invalid(&junk);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut schema = json!({"type": "integer"});
    for _ in 0..200 {
        schema = json!({"type": "object", "properties": {"x": schema}, "required": ["x"]});
    }
    let e = assert_error(schema);
    assert!(e.message.contains("too deep"), "{e}");
    let mut schema = json!({"type": "integer"});
    for _ in 0..200 {
        schema = json!({"allOf": [schema]});
    }
    let _ = valid(&schema);
    let _ = invalid(&schema);
    // Twenty levels are fine.
    let mut schema = json!({"type": "integer", "minimum": 1});
    for _ in 0..20 {
        schema = json!({"type": "object", "properties": {"x": schema}, "required": ["x"]});
    }
    assert_valid(schema);
}

#[test]
fn errors_name_the_validator_when_it_refuses() {
    // The generator does not read `propertyNames`: the check refuses the members it makes,
    // and the error comes from the validator.
    let e = assert_error(
        json!({"type": "object", "minProperties": 1, "propertyNames": {"pattern": "^z"}}),
    );
    assert!(!e.message.is_empty());
    assert!(e.to_string().contains("schema at"), "{e}");
}

#[test]
fn invalid_drops_the_first_required_member() {
    let (v, why) = assert_invalid(json!({"type": "object", "properties": {
        "city": {"type": "string"}, "days": {"type": "integer"}
    }, "required": ["city", "days"]}));
    assert_eq!(v, json!({"days": 0}));
    assert_eq!(why, "missing required `city`");
}

#[test]
fn invalid_gives_a_typed_property_the_wrong_type() {
    let (v, why) = assert_invalid(json!({"type": "object", "properties": {
        "note": {"description": "untyped"},
        "count": {"type": "integer"}
    }}));
    assert_eq!(v, json!({"count": "x"}));
    assert_eq!(why, "`count` is a string, not an integer");
    let (v, why) = assert_invalid(
        json!({"type": "object", "properties": {"name": {"type": ["string", "null"]}}}),
    );
    assert_eq!(v, json!({"name": 0}));
    assert_eq!(why, "`name` is an integer, not a string or null");
    // Through a $ref.
    let (_, why) = assert_invalid(
        json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}},
        "$defs": {"P": {"type": "boolean"}}}),
    );
    assert_eq!(why, "`p` is a string, not a boolean");
}

#[test]
fn invalid_other_cases() {
    let (v, why) = assert_invalid(
        json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}),
    );
    assert_eq!(v, json!({"unexpected": true}));
    assert_eq!(why, "unexpected member `unexpected`");
    let (v, _) = assert_invalid(json!({"type": "string"}));
    assert_eq!(v, json!({}));
    assert_eq!(invalid(&json!({"type": "object"})), None);
    assert_eq!(
        invalid(&json!({"type": "object", "properties": {"a": {}}})),
        None
    );
    assert_eq!(invalid(&json!({})), None);
    assert_eq!(invalid(&json!(true)), None);
}

// ---- generated schemas ----

/// A small schema for one property: typed, with bounds, enums, nested objects, arrays.
fn property_schema() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        (
            any::<bool>(),
            -50i64..50,
            0i64..30,
            proptest::option::of(1i64..6),
            any::<bool>()
        )
            .prop_map(|(integer, low, width, multiple, exclusive)| {
                let mut s = json!({"type": if integer { "integer" } else { "number" }});
                if exclusive {
                    s["exclusiveMinimum"] = json!(low);
                    s["exclusiveMaximum"] = json!(low + width + 2);
                } else {
                    s["minimum"] = json!(low);
                    s["maximum"] = json!(low + width);
                }
                if let Some(m) = multiple {
                    // Keep a multiple inside the range.
                    if width + 2 >= m * 2 {
                        s["multipleOf"] = json!(m);
                    }
                }
                s
            }),
        (
            0u64..5,
            0u64..6,
            proptest::option::of(prop_oneof![
                Just("email"),
                Just("uri"),
                Just("date"),
                Just("date-time"),
                Just("uuid"),
                Just("ipv4"),
                Just("hostname")
            ])
        )
            .prop_map(|(min, extra, format)| {
                let mut s = json!({"type": "string", "minLength": min, "maxLength": min + extra});
                if let Some(f) = format {
                    s = json!({"type": "string", "format": f});
                }
                s
            }),
        prop_oneof![
            Just(r"^[a-z]{2,5}$"),
            Just(r"^\d+$"),
            Just(r"^[A-F0-9]{4}-[a-z]?$"),
            Just("x+y")
        ]
        .prop_map(|p| json!({"type": "string", "pattern": p})),
        Just(json!({"type": "boolean"})),
        Just(json!({"type": "null"})),
        proptest::collection::vec(
            prop_oneof![
                Just(json!("a")),
                Just(json!(1)),
                Just(json!(null)),
                Just(json!("b"))
            ],
            1..4
        )
        .prop_map(|e| json!({"enum": e})),
        (any::<bool>(), -5i64..5).prop_map(|(with_type, c)| if with_type {
            json!({"type": "integer", "const": c})
        } else {
            json!({"const": c})
        }),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (inner.clone(), 0u64..4, any::<bool>()).prop_map(|(items, min, unique)| {
                json!({"type": "array", "items": items, "minItems": min, "maxItems": min + 3, "uniqueItems": unique})
            }),
            object_schema(inner.clone()),
            proptest::collection::vec(inner, 1..3).prop_map(|branches| json!({"anyOf": branches})),
        ]
    })
}

fn object_schema(property: impl Strategy<Value = Value>) -> impl Strategy<Value = Value> {
    proptest::collection::vec((property, any::<bool>()), 0..5).prop_map(|props| {
        let mut properties = serde_json::Map::new();
        let mut required = Vec::new();
        for (i, (schema, req)) in props.into_iter().enumerate() {
            let name = format!("p{i}");
            if req {
                required.push(json!(name));
            }
            properties.insert(name, schema);
        }
        json!({"type": "object", "properties": properties, "required": required})
    })
}

fn root_schema() -> impl Strategy<Value = Value> {
    (
        object_schema(property_schema()),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(mut schema, closed, draft7, by_ref)| {
            if closed {
                schema["additionalProperties"] = json!(false);
            }
            let defs = if draft7 { "definitions" } else { "$defs" };
            if draft7 {
                schema["$schema"] = json!("http://json-schema.org/draft-07/schema#");
            }
            // The first property's schema moved under $defs / definitions, and referred to.
            if by_ref && let Some(first) = schema["properties"].get("p0").cloned() {
                schema[defs] = json!({"P0": first});
                schema["properties"]["p0"] = json!({"$ref": format!("#/{defs}/P0")});
            }
            schema
        })
}

proptest! {
    // 256 cases; PROPTEST_CASES sets another number.
    #[test]
    fn generated_schemas(schema in root_schema()) {
        let validator = validator(&schema);
        match valid(&schema) {
            Ok(value) => prop_assert!(validator.is_valid(&value), "valid({}) = {} is refused", schema, value),
            // A uniqueItems array of a one-value enum or of booleans can be impossible;
            // anything else must give a value.
            Err(e) => prop_assert!(
                e.message.contains("distinct"),
                "valid({}) failed: {}", schema, e
            ),
        }
        match invalid(&schema) {
            Some((value, why)) => prop_assert!(!validator.is_valid(&value), "invalid({}) = {} ({}) is accepted", schema, value, why),
            None => prop_assert!(accepts_every_object(&schema), "invalid({}) = None", schema),
        }
    }
}
