//! The failure modes measured on today's Rust MCP type libraries
//! (`/work/shared/anchor-pitfalls.md`), each pinned as a test against the generated types.
//!
//! Test names say which pitfall they pin. Inputs are small self-written messages; where the
//! pitfall was measured on the official examples, those are read in place (`mcp_tests`).
//! Everything decodes from JSON text, as a transport would hand it over.

use std::fmt::Debug;

use mcp_tests::{schema, spec_examples};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Helpers

/// Decodes `json` (from its text) as `T`.
fn decode<T: DeserializeOwned>(json: &Value) -> Result<T, String> {
    serde_json::from_str(&json.to_string()).map_err(|e| e.to_string())
}

/// Decodes `json` as `T`, panicking with the error and the input.
fn must_decode<T: DeserializeOwned>(what: &str, json: &Value) -> T {
    decode(json).unwrap_or_else(|e| {
        panic!(
            "{what}: does not decode as {}: {e}\n  input: {json}",
            std::any::type_name::<T>()
        )
    })
}

/// The decoding error of `json` as `T`, panicking if it decodes.
fn must_reject<T: DeserializeOwned + Debug>(what: &str, json: &Value) -> String {
    match decode::<T>(json) {
        Ok(v) => panic!(
            "{what}: decoded as {} although it must be rejected: {v:?}\n  input: {json}",
            std::any::type_name::<T>()
        ),
        Err(e) => e,
    }
}

/// Encodes a value as JSON.
fn encode<T: Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("generated types always encode")
}

/// Asserts that re-encoding `decoded` gives back exactly `input`: same members, and numbers
/// equal including integer-vs-float (`serde_json::Value`'s own equality).
fn assert_reencodes_exactly<T: Serialize>(what: &str, input: &Value, decoded: &T) {
    let out = encode(decoded);
    assert!(
        &out == input,
        "{what}: the re-encoded JSON differs from the input\n  in:  {input}\n  out: {out}"
    );
}

/// Decodes and asserts an exact round trip; returns the decoded value.
fn round_trip<T: DeserializeOwned + Serialize>(what: &str, input: &Value) -> T {
    let decoded: T = must_decode(what, input);
    assert_reencodes_exactly(what, input, &decoded);
    decoded
}

/// Asserts that an error message contains every needle.
fn assert_error_names(what: &str, error: &str, needles: &[&str]) {
    for needle in needles {
        // A member is named as `name`, or as the last step of the error's pointer (`/a/name`).
        let as_pointer = needle.strip_prefix('`').map(|rest| format!("/{rest}"));
        assert!(
            error.contains(needle) || as_pointer.is_some_and(|p| error.contains(&p)),
            "{what}: the error does not name {needle}: {error:?}"
        );
    }
}

/// Where a schema keeps its definitions: `$defs` (2020-12) or `definitions` (draft-07).
fn defs_key(schema: &Value) -> &'static str {
    match schema.get("$defs") {
        Some(_) => "$defs",
        None => "definitions",
    }
}

/// The `$defs`/`definitions` of a revision's official schema.
fn definitions(revision: &str) -> serde_json::Map<String, Value> {
    let mut s = schema(revision);
    let key = defs_key(&s);
    match s[key].take() {
        Value::Object(d) => d,
        _ => panic!("{revision}: schema has no definitions"),
    }
}

/// The definitions an `anyOf` union is made of, by name.
fn union_members(revision: &str, union: &str) -> Vec<String> {
    let defs = definitions(revision);
    let members = defs[union]["anyOf"]
        .as_array()
        .unwrap_or_else(|| panic!("{revision}: {union} is not an anyOf union"));
    members
        .iter()
        .map(|m| {
            let r = m["$ref"].as_str().expect("union members are $refs");
            r.rsplit('/').next().unwrap().to_owned()
        })
        .collect()
}

/// Whether the official schema of `revision` accepts `instance` as its definition `name`.
fn schema_accepts(revision: &str, name: &str, instance: &Value) -> bool {
    let mut root = schema(revision);
    let key = defs_key(&root);
    assert!(
        root[key].get(name).is_some(),
        "{revision} has no definition {name}"
    );
    root["$ref"] = json!(format!("#/{key}/{name}"));
    jsonschema::validator_for(&root)
        .unwrap_or_else(|e| panic!("{revision}/{name}: {e}"))
        .is_valid(instance)
}

// ---------------------------------------------------------------------------------------------
// typify: `const` ignored (`method`, `type`, `jsonrpc` as plain strings)

macro_rules! bogus_method_is_not_this_request {
    ($m:ident, $request:ident) => {{
        let what = concat!(stringify!($m), "::", stringify!($request));
        let e = must_reject::<mcp_typed::$m::$request>(
            what,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "bogus"}),
        );
        assert_error_names(what, &e, &["`method`", "\"bogus\""]);
    }};
}

#[test]
fn const_ignored_bogus_method_is_not_a_ping_request() {
    bogus_method_is_not_this_request!(v2024_11_05, PingRequest);
    bogus_method_is_not_this_request!(v2025_03_26, PingRequest);
    bogus_method_is_not_this_request!(v2025_06_18, PingRequest);
    bogus_method_is_not_this_request!(v2025_11_25, PingRequest);
    // 2026-07-28 and the draft have no `ping`; the same holds for their requests.
    bogus_method_is_not_this_request!(v2026_07_28, DiscoverRequest);
    bogus_method_is_not_this_request!(draft, DiscoverRequest);
    bogus_method_is_not_this_request!(draft, ListRootsRequest);
}

macro_rules! audio_is_not_image {
    ($m:ident) => {{
        let what = concat!(stringify!($m), "::ImageContent");
        let audio = json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"});
        let e = must_reject::<mcp_typed::$m::ImageContent>(what, &audio);
        assert_error_names(what, &e, &["`type`", "\"audio\"", "\"image\""]);
    }};
}

#[test]
fn const_ignored_audio_content_is_not_image_content() {
    audio_is_not_image!(v2024_11_05);
    audio_is_not_image!(v2025_03_26);
    audio_is_not_image!(v2025_06_18);
    audio_is_not_image!(v2025_11_25);
    audio_is_not_image!(v2026_07_28);
    audio_is_not_image!(draft);
}

macro_rules! audio_block_is_audio {
    ($m:ident) => {{
        use mcp_typed::$m as m;
        let what = concat!(stringify!($m), "::ContentBlock");
        let audio = json!({"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"});
        let block: m::ContentBlock = round_trip(what, &audio);
        assert!(
            matches!(block, m::ContentBlock::Audio(_)),
            "{what}: audio content decoded as {block:?}"
        );
    }};
}

#[test]
fn const_ignored_audio_content_block_decodes_as_audio() {
    // `ContentBlock` exists from 2025-06-18 on.
    audio_block_is_audio!(v2025_06_18);
    audio_block_is_audio!(v2025_11_25);
    audio_block_is_audio!(v2026_07_28);
    audio_block_is_audio!(draft);
}

macro_rules! wrong_jsonrpc_is_rejected {
    ($m:ident) => {{
        let what = concat!(stringify!($m), "::CallToolRequest");
        let e = must_reject::<mcp_typed::$m::CallToolRequest>(
            what,
            &json!({"jsonrpc": "1.0", "id": 1, "method": "tools/call", "params": {"name": "t"}}),
        );
        assert_error_names(what, &e, &["`jsonrpc`", "\"1.0\"", "\"2.0\""]);
    }};
}

#[test]
fn const_ignored_wrong_jsonrpc_version_is_rejected_naming_jsonrpc() {
    // Before 2025-11-25 `jsonrpc` is declared on the JSON-RPC envelope types only.
    wrong_jsonrpc_is_rejected!(v2025_11_25);
    wrong_jsonrpc_is_rejected!(v2026_07_28);
    wrong_jsonrpc_is_rejected!(draft);
}

macro_rules! wrong_jsonrpc_in_envelope {
    ($m:ident) => {{
        let what = concat!(stringify!($m), "::JsonRpcMessage");
        let e = must_reject::<mcp_typed::$m::JsonRpcMessage>(
            what,
            &json!({"jsonrpc": "1.0", "id": 1, "method": "ping"}),
        );
        // The object has every member a request needs; the error must say what is wrong with
        // it (the version), not only list the members each kind of message needs.
        assert_error_names(what, &e, &["\"1.0\""]);
    }};
}

#[test]
fn const_ignored_wrong_jsonrpc_version_in_a_message_names_the_value() {
    wrong_jsonrpc_in_envelope!(v2024_11_05);
    wrong_jsonrpc_in_envelope!(v2025_03_26);
    wrong_jsonrpc_in_envelope!(v2025_06_18);
    wrong_jsonrpc_in_envelope!(v2025_11_25);
    wrong_jsonrpc_in_envelope!(v2026_07_28);
    wrong_jsonrpc_in_envelope!(draft);
}

// ---------------------------------------------------------------------------------------------
// typify: every union `untagged`, first fit wins

macro_rules! draft_client_request_type {
    ($m:ident) => {
        |r: &mcp_typed::$m::ClientRequest| -> &'static str {
            use mcp_typed::$m::ClientRequest as C;
            match r {
                C::Discover(_) => "DiscoverRequest",
                C::ListResources(_) => "ListResourcesRequest",
                C::ListResourceTemplates(_) => "ListResourceTemplatesRequest",
                C::ReadResource(_) => "ReadResourceRequest",
                C::SubscriptionsListen(_) => "SubscriptionsListenRequest",
                C::ListPrompts(_) => "ListPromptsRequest",
                C::GetPrompt(_) => "GetPromptRequest",
                C::ListTools(_) => "ListToolsRequest",
                C::CallTool(_) => "CallToolRequest",
                C::Complete(_) => "CompleteRequest",
                C::Custom(_) => "Custom",
            }
        }
    };
}

macro_rules! draft_server_notification_type {
    ($m:ident) => {
        |n: &mcp_typed::$m::ServerNotification| -> &'static str {
            use mcp_typed::$m::ServerNotification as N;
            match n {
                N::Cancelled(_) => "CancelledNotification",
                N::Progress(_) => "ProgressNotification",
                N::ResourceListChanged(_) => "ResourceListChangedNotification",
                N::SubscriptionsAcknowledged(_) => "SubscriptionsAcknowledgedNotification",
                N::ResourceUpdated(_) => "ResourceUpdatedNotification",
                N::PromptListChanged(_) => "PromptListChangedNotification",
                N::ToolListChanged(_) => "ToolListChangedNotification",
                N::LoggingMessage(_) => "LoggingMessageNotification",
                N::Custom(_) => "Custom",
            }
        }
    };
}

/// Decodes the official examples of every member of `union` through the union and checks
/// that each lands in its own variant.
fn each_member_decodes_as_itself<U: DeserializeOwned + Serialize>(
    revision: &str,
    union: &str,
    variant_type: impl Fn(&U) -> &'static str,
) {
    let members = union_members(revision, union);
    assert!(members.len() > 1, "{revision} {union}: members {members:?}");
    let all = spec_examples(revision);
    let mut failures = Vec::new();
    for member in &members {
        let mine: Vec<_> = all.iter().filter(|(d, _, _)| d == member).collect();
        if mine.is_empty() {
            failures.push(format!("{member}: no official example to check"));
        }
        for (_, file, value) in mine {
            let what = format!("{revision} {member}/{file} as {union}");
            match decode::<U>(value) {
                Ok(u) if variant_type(&u) == member => assert_reencodes_exactly(&what, value, &u),
                Ok(u) => failures.push(format!("{what}: decoded as {}", variant_type(&u))),
                Err(e) => failures.push(format!("{what}: {e}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{revision} {union} ({} members): {}",
        members.len(),
        failures.join("\n")
    );
}

#[test]
fn untagged_first_fit_each_draft_client_request_decodes_as_its_own_variant_not_discover() {
    each_member_decodes_as_itself("draft", "ClientRequest", draft_client_request_type!(draft));
    each_member_decodes_as_itself(
        "2026-07-28",
        "ClientRequest",
        draft_client_request_type!(v2026_07_28),
    );
    each_member_decodes_as_itself(
        "draft",
        "ServerNotification",
        draft_server_notification_type!(draft),
    );
}

#[test]
fn untagged_first_fit_elicit_request_inside_input_request_decodes_as_elicit_not_list_roots() {
    use mcp_typed::draft::{InputRequest, InputRequiredResult};
    let form = json!({
        "method": "elicitation/create",
        "params": {
            "message": "Your name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
        }
    });
    let r: InputRequest = round_trip("draft ElicitRequest as InputRequest", &form);
    assert!(
        matches!(&r, InputRequest::Elicit(_)),
        "elicitation/create decoded as {r:?}"
    );

    let result = json!({
        "resultType": "input_required",
        "inputRequests": {
            "ask": form,
            "roots": {"method": "roots/list"},
            "llm": {
                "method": "sampling/createMessage",
                "params": {
                    "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
                    "maxTokens": 5
                }
            },
            "vendor": {"method": "vendor.example/ask", "params": {"q": 1}}
        }
    });
    let decoded: InputRequiredResult = round_trip("draft InputRequiredResult", &result);
    let requests = decoded.input_requests.expect("inputRequests kept");
    let kinds: Vec<(&str, &str)> = requests
        .iter()
        .map(|(k, r)| {
            let kind = match r {
                InputRequest::CreateMessage(_) => "CreateMessage",
                InputRequest::ListRoots(_) => "ListRoots",
                InputRequest::Elicit(_) => "Elicit",
                InputRequest::Custom(_) => "Custom",
            };
            (k.as_str(), kind)
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("ask", "Elicit"),
            ("roots", "ListRoots"),
            ("llm", "CreateMessage"),
            ("vendor", "Custom")
        ]
    );

    // The official example with an elicitation and a sampling request.
    each_input_request_example_is_typed();
}

fn each_input_request_example_is_typed() {
    use mcp_typed::draft::{InputRequest, InputRequiredResult};
    let all = spec_examples("draft");
    let found: Vec<_> = all
        .iter()
        .filter(|(d, _, v)| d == "InputRequiredResult" && v.get("inputRequests").is_some())
        .collect();
    assert!(
        !found.is_empty(),
        "no official InputRequiredResult example with inputRequests"
    );
    for (_, file, value) in found {
        let decoded: InputRequiredResult = round_trip(file, value);
        for (key, request) in decoded.input_requests.as_deref().into_iter().flatten() {
            let method = value["inputRequests"][key]["method"].as_str().unwrap();
            let ok = matches!(
                (method, request),
                ("elicitation/create", InputRequest::Elicit(_))
                    | ("sampling/createMessage", InputRequest::CreateMessage(_))
                    | ("roots/list", InputRequest::ListRoots(_))
            );
            assert!(
                ok,
                "{file}: inputRequests.{key} ({method}) decoded as {request:?}"
            );
        }
    }
}

#[test]
fn untagged_first_fit_discriminator_after_other_members_still_dispatches() {
    // Transports do not promise member order; the tag may come last.
    use mcp_typed::v2025_11_25 as m;
    let request = json!({"params": {"name": "t", "arguments": {"x": 1.0}}, "id": 3,
                         "jsonrpc": "2.0", "method": "tools/call"});
    let r: m::ClientRequest = round_trip("ClientRequest, method last", &request);
    assert!(
        matches!(r, m::ClientRequest::CallTool(ref c) if c.params.name == "t"),
        "{r:?}"
    );
    let block = json!({"annotations": {"priority": 1}, "data": "AA==", "mimeType": "audio/wav",
                       "type": "audio"});
    let b: m::ContentBlock = round_trip("ContentBlock, type last", &block);
    assert!(matches!(b, m::ContentBlock::Audio(_)), "{b:?}");
}

// ---------------------------------------------------------------------------------------------
// typify: overlapping `anyOf` flattened into a struct of `Option`s;
// rust-mcp-schema: `StringSchema` first, enum schemas decoded as plain strings

macro_rules! number_schema_keeps_bounds {
    ($m:ident) => {{
        use mcp_typed::$m::PrimitiveSchemaDefinition as P;
        let what = concat!(stringify!($m), "::PrimitiveSchemaDefinition");
        for input in [
            json!({"type": "number", "title": "Ratio", "minimum": 0, "maximum": 1.5}),
            json!({"type": "integer", "minimum": -3, "description": "offset"}),
        ] {
            let p: P = round_trip(what, &input);
            match &p {
                P::Number(n) => assert_eq!(
                    n.minimum.as_ref().map(|m| m.to_string()),
                    Some(input["minimum"].to_string()),
                    "{what}: minimum"
                ),
                other => panic!("{what}: {input} decoded as {other:?}"),
            }
        }
    }};
}

#[test]
fn flattened_anyof_number_schema_keeps_minimum() {
    number_schema_keeps_bounds!(v2025_06_18);
    number_schema_keeps_bounds!(v2025_11_25);
    number_schema_keeps_bounds!(v2026_07_28);
    number_schema_keeps_bounds!(draft);
}

macro_rules! enum_schemas_keep_their_variant {
    ($m:ident) => {{
        use mcp_typed::$m::PrimitiveSchemaDefinition as P;
        let what = concat!(stringify!($m), "::PrimitiveSchemaDefinition");
        let untitled = json!({"type": "string", "title": "Size", "enum": ["s", "m", "l"], "default": "m"});
        match round_trip::<P>(what, &untitled) {
            P::UntitledSingleSelectEnum(s) => assert_eq!(s.r#enum, ["s", "m", "l"]),
            other => panic!("{what}: untitled single-select decoded as {other:?}"),
        }
        let titled = json!({"type": "string", "oneOf": [
            {"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}
        ]});
        match round_trip::<P>(what, &titled) {
            P::TitledSingleSelectEnum(s) => {
                let pairs: Vec<_> = s.one_of.iter().map(|o| (o.r#const.as_str(), o.title.as_str())).collect();
                assert_eq!(pairs, [("s", "Small"), ("l", "Large")]);
            }
            other => panic!("{what}: titled single-select decoded as {other:?}"),
        }
        let legacy = json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]});
        match round_trip::<P>(what, &legacy) {
            P::LegacyTitledEnum(s) => assert_eq!(s.r#enum, ["a", "b"]),
            other => panic!("{what}: legacy titled enum decoded as {other:?}"),
        }
        let multi = json!({"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "minItems": 1});
        match round_trip::<P>(what, &multi) {
            P::UntitledMultiSelectEnum(_) => {}
            other => panic!("{what}: untitled multi-select decoded as {other:?}"),
        }
        let multi_titled = json!({"type": "array", "items": {"anyOf": [{"const": "x", "title": "X"}]}});
        match round_trip::<P>(what, &multi_titled) {
            P::TitledMultiSelectEnum(_) => {}
            other => panic!("{what}: titled multi-select decoded as {other:?}"),
        }
        let plain = json!({"type": "string", "format": "email", "maxLength": 64});
        match round_trip::<P>(what, &plain) {
            P::String(_) => {}
            other => panic!("{what}: plain string schema decoded as {other:?}"),
        }
    }};
}

#[test]
fn string_schema_first_single_select_enum_schemas_keep_enum_and_one_of() {
    enum_schemas_keep_their_variant!(v2025_11_25);
    enum_schemas_keep_their_variant!(v2026_07_28);
    enum_schemas_keep_their_variant!(draft);

    // 2025-06-18 has one `EnumSchema` (enum + optional enumNames).
    use mcp_typed::v2025_06_18::PrimitiveSchemaDefinition as P;
    let what = "v2025_06_18::PrimitiveSchemaDefinition";
    let e = json!({"type": "string", "enum": ["a", "b"], "enumNames": ["A", "B"]});
    match round_trip::<P>(what, &e) {
        P::Enum(s) => assert_eq!(s.r#enum, ["a", "b"]),
        other => panic!("{what}: enum schema decoded as {other:?}"),
    }
    match round_trip::<P>(what, &json!({"type": "string", "minLength": 1})) {
        P::String(_) => {}
        other => panic!("{what}: string schema decoded as {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// typify: optional objects skipped when empty (`"roots": {}` vanishes)

macro_rules! empty_capabilities_survive {
    ($m:ident) => {{
        use mcp_typed::$m as m;
        let what = concat!(stringify!($m), "::ClientCapabilities");
        let caps: m::ClientCapabilities = round_trip(what, &json!({"roots": {}, "sampling": {}}));
        assert!(caps.roots.is_some(), "{what}: roots lost");
        assert!(caps.sampling.is_some(), "{what}: sampling lost");
        let what = concat!(stringify!($m), "::ServerCapabilities");
        let caps: m::ServerCapabilities =
            round_trip(what, &json!({"logging": {}, "tools": {}, "prompts": {}}));
        assert!(caps.logging.is_some() && caps.tools.is_some() && caps.prompts.is_some());
        // Absent stays absent: nothing is filled in.
        let caps: m::ClientCapabilities = round_trip(what, &json!({}));
        assert!(caps.roots.is_none());
    }};
}

#[test]
fn skip_if_empty_empty_roots_capability_survives_reencode() {
    empty_capabilities_survive!(v2024_11_05);
    empty_capabilities_survive!(v2025_03_26);
    empty_capabilities_survive!(v2025_06_18);
    empty_capabilities_survive!(v2025_11_25);
    empty_capabilities_survive!(v2026_07_28);
    empty_capabilities_survive!(draft);

    // Inside a whole message.
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"roots": {}},
            "clientInfo": {"name": "c", "version": "1"}
        }
    });
    round_trip::<mcp_typed::v2025_11_25::ClientRequest>("v2025_11_25 initialize", &init);
    round_trip::<mcp_typed::v2025_11_25::JsonRpcMessage>("v2025_11_25 initialize", &init);
}

// ---------------------------------------------------------------------------------------------
// typify: `number` → f64 (`50` → `50.0`); rmcp: f32 fields widen (`0.8` → `0.800000011920929`)

macro_rules! progress_numbers_keep_their_form {
    ($m:ident) => {{
        use mcp_typed::$m as m;
        let what = concat!(stringify!($m), "::ServerNotification progress");
        for (progress, total) in [(json!(50), json!(100)), (json!(0.8), json!(1)), (json!(0), json!(2.5))] {
            let input = json!({
                "jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": "t", "progress": progress, "total": total}
            });
            let n: m::ServerNotification = round_trip(what, &input);
            let m::ServerNotification::Progress(p) = &n else {
                panic!("{what}: decoded as {n:?}");
            };
            // The typed field itself keeps the written form, not only the re-encoding.
            assert_eq!(p.params.progress.to_string(), progress.to_string(), "{what}");
            let back = encode(&n);
            assert_eq!(back["params"]["progress"].to_string(), progress.to_string(), "{what}");
            assert_eq!(back["params"]["total"].to_string(), total.to_string(), "{what}");
        }
    }};
}

#[test]
fn number_as_f64_progress_50_stays_50_and_0_8_stays_0_8() {
    progress_numbers_keep_their_form!(v2024_11_05);
    progress_numbers_keep_their_form!(v2025_03_26);
    progress_numbers_keep_their_form!(v2025_06_18);
    progress_numbers_keep_their_form!(v2025_11_25);
    progress_numbers_keep_their_form!(v2026_07_28);
    progress_numbers_keep_their_form!(draft);
}

macro_rules! fractions_do_not_widen {
    ($m:ident) => {{
        use mcp_typed::$m as m;
        let what = concat!(stringify!($m), "::ModelPreferences / TextContent.annotations");
        let prefs = json!({"costPriority": 0.8, "speedPriority": 0.3, "intelligencePriority": 1});
        let p: m::ModelPreferences = round_trip(what, &prefs);
        assert_eq!(p.cost_priority.map(|n| n.to_string()).as_deref(), Some("0.8"));
        let text = json!({"type": "text", "text": "x", "annotations": {"priority": 0.8, "audience": ["user"]}});
        round_trip::<m::TextContent>(what, &text);
    }};
}

#[test]
fn f32_widening_fractional_priorities_stay_exact() {
    fractions_do_not_widen!(v2024_11_05);
    fractions_do_not_widen!(v2025_03_26);
    fractions_do_not_widen!(v2025_06_18);
    fractions_do_not_widen!(v2025_11_25);
    fractions_do_not_widen!(v2026_07_28);
    fractions_do_not_widen!(draft);
}

// ---------------------------------------------------------------------------------------------
// typify: unknown fields dropped (vendor `_meta` keys lost)

/// A `tools/call` with vendor members at every level; valid in every revision (the draft
/// requires the two `io.modelcontextprotocol/…` keys, older revisions keep them as unknown).
fn vendor_call() -> Value {
    json!({
        "jsonrpc": "2.0", "id": "c-1", "method": "tools/call",
        "params": {
            "name": "search",
            "arguments": {"q": "rust", "limit": 10, "boost": 1.5},
            "_meta": {
                "progressToken": 5,
                "io.modelcontextprotocol/protocolVersion": "DRAFT-2026-v1",
                "io.modelcontextprotocol/clientCapabilities": {},
                "com.example/trace": {"span": [1, 2.5, null], "sampled": true}
            },
            "x-vendor-param": {"nested": {}}
        },
        "x-vendor-envelope": 1
    })
}

fn vendor_result() -> Value {
    json!({
        "resultType": "complete",
        "content": [{"type": "text", "text": "ok", "_meta": {"com.example/line": 3}, "x-extra": []}],
        "_meta": {"com.example/cost": 0.25, "io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}},
        "x-vendor-result": "kept"
    })
}

macro_rules! vendor_members_survive {
    ($m:ident) => {{
        use mcp_typed::$m as m;
        let what = concat!(stringify!($m), " vendor members");
        let call = vendor_call();
        let request: m::ClientRequest = round_trip(what, &call);
        let m::ClientRequest::CallTool(c) = &request else {
            panic!("{what}: decoded as {request:?}");
        };
        assert!(c.extra.contains_key("x-vendor-envelope"), "{what}: {c:?}");
        round_trip::<m::JsonRpcMessage>(what, &call);
        round_trip::<m::CallToolResult>(what, &vendor_result());
    }};
}

#[test]
fn unknown_fields_dropped_vendor_meta_keys_survive() {
    vendor_members_survive!(v2024_11_05);
    vendor_members_survive!(v2025_03_26);
    vendor_members_survive!(v2025_06_18);
    vendor_members_survive!(v2025_11_25);
    vendor_members_survive!(v2026_07_28);
    vendor_members_survive!(draft);
}

// ---------------------------------------------------------------------------------------------
// typify: `pub struct Result` shadows `std::result::Result` after a glob import

macro_rules! glob_import_keeps_prelude {
    ($test:ident, $m:ident) => {
        mod $test {
            use mcp_typed::$m::*;

            fn parse(s: &str) -> Result<u8, String> {
                s.parse::<u8>().map_err(|e| e.to_string())
            }

            #[test]
            fn glob_import_prelude_names_are_not_shadowed() {
                // Generated types are in scope...
                let id: RequestId = serde_json::from_str("7").unwrap();
                let _: Option<RequestId> = Some(id);
                // ...and the prelude names still mean the std types.
                let ok: Result<(), String> = Ok(());
                let some: Option<Box<Vec<String>>> = Some(Box::new(vec![String::from("x")]));
                assert_eq!(parse("7"), Ok(7));
                assert!(parse("x").is_err());
                assert!(ok.is_ok() && some.is_some());
                assert_eq!(
                    std::any::type_name::<Result<Option<String>, Box<Vec<u8>>>>(),
                    std::any::type_name::<
                        std::result::Result<
                            std::option::Option<std::string::String>,
                            std::boxed::Box<std::vec::Vec<u8>>,
                        >,
                    >()
                );
            }
        }
    };
}

glob_import_keeps_prelude!(glob_v2024_11_05, v2024_11_05);
glob_import_keeps_prelude!(glob_v2025_03_26, v2025_03_26);
glob_import_keeps_prelude!(glob_v2025_06_18, v2025_06_18);
glob_import_keeps_prelude!(glob_v2025_11_25, v2025_11_25);
glob_import_keeps_prelude!(glob_v2026_07_28, v2026_07_28);
glob_import_keeps_prelude!(glob_draft, draft);

// ---------------------------------------------------------------------------------------------
// rust-mcp-schema: two revision features together fail to compile

#[test]
fn features_exclusive_all_revisions_compile_and_work_in_one_build() {
    // This crate enables every revision feature of `mcp-typed`; that it compiles is half the
    // test. The other half: each module decodes with its own types, side by side.
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t"}});
    assert!(matches!(
        must_decode::<mcp_typed::v2024_11_05::ClientRequest>("2024-11-05", &call),
        mcp_typed::v2024_11_05::ClientRequest::CallTool(_)
    ));
    assert!(matches!(
        must_decode::<mcp_typed::v2025_03_26::ClientRequest>("2025-03-26", &call),
        mcp_typed::v2025_03_26::ClientRequest::CallTool(_)
    ));
    assert!(matches!(
        must_decode::<mcp_typed::v2025_06_18::ClientRequest>("2025-06-18", &call),
        mcp_typed::v2025_06_18::ClientRequest::CallTool(_)
    ));
    assert!(matches!(
        must_decode::<mcp_typed::v2025_11_25::ClientRequest>("2025-11-25", &call),
        mcp_typed::v2025_11_25::ClientRequest::CallTool(_)
    ));
    // The draft requires `_meta` on requests: the same message is not a draft request.
    let e = must_reject::<mcp_typed::draft::ClientRequest>("draft", &call);
    assert_error_names("draft", &e, &["`_meta`"]);
    let e = must_reject::<mcp_typed::v2026_07_28::ClientRequest>("2026-07-28", &call);
    assert_error_names("2026-07-28", &e, &["`_meta`"]);
    assert_eq!(
        std::any::type_name::<mcp_typed::latest::CallToolRequest>(),
        std::any::type_name::<mcp_typed::v2026_07_28::CallToolRequest>()
    );
}

// ---------------------------------------------------------------------------------------------
// rust-mcp-schema: response `result` tries `InputRequiredResult` first (content lost);
// rmcp: a `CallToolResult` with `_meta` swallowed an `InputRequiredResult`

/// The variant of a `…ResultResponseResult`, as the name of its type.
macro_rules! response_result_type {
    ($m:ident, $union:ident, $complete:ident, $name:literal) => {
        |r: &mcp_typed::$m::$union| -> &'static str {
            match r {
                mcp_typed::$m::$union::InputRequired(_) => "InputRequiredResult",
                mcp_typed::$m::$union::$complete(_) => $name,
            }
        }
    };
}

macro_rules! complete_results_keep_content {
    ($m:ident, $revision:literal) => {{
        use mcp_typed::$m as m;
        let call = response_result_type!($m, CallToolResultResponseResult, CallTool, "CallToolResult");
        let prompt = response_result_type!($m, GetPromptResultResponseResult, GetPrompt, "GetPromptResult");
        let read = response_result_type!($m, ReadResourceResultResponseResult, ReadResource, "ReadResourceResult");
        let mut checked = 0;
        for (definition, file, value) in spec_examples($revision) {
            let what = format!("{} {definition}/{file}", $revision);
            let (variant, content) = match definition.as_str() {
                "CallToolResultResponse" => {
                    let r: m::CallToolResultResponse = must_decode(&what, &value);
                    assert_reencodes_exactly(&what, &value, &r);
                    (call(&r.result), "content")
                }
                "GetPromptResultResponse" => {
                    let r: m::GetPromptResultResponse = must_decode(&what, &value);
                    assert_reencodes_exactly(&what, &value, &r);
                    (prompt(&r.result), "messages")
                }
                // The one without `ttlMs`/`cacheScope` is rejected (see the quirk test).
                "ReadResourceResultResponse" if value["result"].get("ttlMs").is_some() => {
                    let r: m::ReadResourceResultResponse = must_decode(&what, &value);
                    assert_reencodes_exactly(&what, &value, &r);
                    (read(&r.result), "contents")
                }
                _ => continue,
            };
            checked += 1;
            let expected = definition.trim_end_matches("Response");
            assert_eq!(variant, expected, "{what}: complete result decoded as {variant}");
            assert!(
                !value["result"][content].as_array().unwrap().is_empty(),
                "{what}: the example has {content}"
            );
        }
        assert_eq!(checked, 3, "{}: official complete-result examples checked", $revision);

        // Self-written: `_meta` on a complete result, a result without `resultType`, and an
        // input-required result with `_meta` (which must not become a CallToolResult).
        for (input, expected) in [
            (json!({"resultType": "complete", "_meta": {"com.example/x": 1},
                    "content": [{"type": "text", "text": "done"}]}), "CallToolResult"),
            (json!({"content": [], "structuredContent": {"n": 1}, "resultType": "complete"}), "CallToolResult"),
            (json!({"resultType": "input_required", "_meta": {"com.example/x": 1},
                    "requestState": "s"}), "InputRequiredResult"),
            (json!({"resultType": "input_required",
                    "inputRequests": {"r": {"method": "roots/list"}}}), "InputRequiredResult"),
        ] {
            let what = format!("{} result {input}", $revision);
            let r: m::CallToolResultResponseResult = round_trip(&what, &input);
            assert_eq!(call(&r), expected, "{what}");
        }
    }};
}

#[test]
fn input_required_first_complete_results_decode_with_content_kept() {
    complete_results_keep_content!(draft, "draft");
    complete_results_keep_content!(v2026_07_28, "2026-07-28");
}

#[test]
fn untagged_result_call_tool_result_through_server_result_is_not_a_bare_result() {
    use mcp_typed::draft::ServerResult;
    let what = "draft ServerResult";
    let input = json!({"resultType": "complete", "_meta": {"com.example/x": 1},
                       "content": [{"type": "text", "text": "hi"}]});
    let r: ServerResult = round_trip(what, &input);
    assert!(
        matches!(r, ServerResult::CallTool(ref c) if c.content.len() == 1),
        "{what}: decoded as {r:?}"
    );
    let input = json!({"resultType": "input_required", "requestState": "abc"});
    let r: ServerResult = round_trip(what, &input);
    assert!(
        matches!(r, ServerResult::InputRequired(_)),
        "{what}: decoded as {r:?}"
    );
}

#[test]
fn variant_order_decides_member_property_of_another_member_does_not_reject_a_valid_object() {
    // Valid as JSONRPCRequest (members beyond `id`/`method`/`params` are allowed), yet the
    // envelope decodes `result` as the result-response's `Result` first and fails.
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": "vendor/x", "result": "r"});
    assert!(schema_accepts("2025-11-25", "JSONRPCRequest", &message));
    let m: mcp_typed::v2025_11_25::JsonRpcMessage =
        round_trip("2025-11-25 JSONRPCMessage", &message);
    assert!(matches!(
        m,
        mcp_typed::v2025_11_25::JsonRpcMessage::Request(_)
    ));

    // Valid as ListToolsResult and as Result, yet `content` is decoded as CallToolResult's.
    let result = json!({"resultType": "complete", "tools": [], "ttlMs": 1,
                        "cacheScope": "public", "content": "x"});
    assert!(schema_accepts("draft", "ServerResult", &result));
    let r: mcp_typed::draft::ServerResult = round_trip("draft ServerResult", &result);
    assert!(
        matches!(r, mcp_typed::draft::ServerResult::ListTools(_)),
        "{r:?}"
    );

    // Valid as ElicitResult and as Result, yet `model` is decoded as CreateMessageResult's.
    let result = json!({"action": "accept", "content": {"name": "x"}, "model": 5});
    assert!(schema_accepts("2025-11-25", "ClientResult", &result));
    round_trip::<mcp_typed::v2025_11_25::ClientResult>("2025-11-25 ClientResult", &result);
}

#[test]
fn unknown_role_turned_result_custom_bad_annotation_role_is_an_error_naming_it() {
    // The result of `tools/call` is a CallToolResult or an InputRequiredResult: an invalid
    // role inside the content is an error there, never a different kind of result.
    // (`ServerResult` is another matter: its schema includes the open `Result`, which any
    // object with a `resultType` satisfies.)
    let what = "draft CallToolResultResponseResult";
    let input = json!({"resultType": "complete", "content": [
        {"type": "text", "text": "hi", "annotations": {"audience": ["robot"]}}
    ]});
    assert!(!schema_accepts("draft", "CallToolResult", &input));
    let e = must_reject::<mcp_typed::draft::CallToolResultResponseResult>(what, &input);
    assert_error_names(what, &e, &["`robot`", "`user`"]);
    let response = json!({"jsonrpc": "2.0", "id": 1, "result": input});
    let e = must_reject::<mcp_typed::draft::CallToolResultResponse>(what, &response);
    assert_error_names(what, &e, &["`robot`"]);
}

// ---------------------------------------------------------------------------------------------
// rmcp: `elicitationId: ""` written where the revision has no such field; `mode: "form"` added

macro_rules! url_params_without_elicitation_id {
    ($m:ident) => {{
        use mcp_typed::$m::ElicitRequestParams as P;
        let what = concat!(stringify!($m), "::ElicitRequestParams (url)");
        let input = json!({"mode": "url", "message": "Sign in", "url": "https://auth.example/x"});
        let p: P = round_trip(what, &input);
        assert!(matches!(p, P::Url(_)), "{what}: decoded as {p:?}");
        assert!(encode(&p).get("elicitationId").is_none());
    }};
}

macro_rules! form_params_without_mode {
    ($m:ident, $input:expr) => {{
        use mcp_typed::$m::ElicitRequestParams as P;
        let what = concat!(stringify!($m), "::ElicitRequestParams (form, no mode)");
        let input = $input;
        let p: P = round_trip(what, &input);
        assert!(matches!(p, P::Form(_)), "{what}: decoded as {p:?}");
        assert!(encode(&p).get("mode").is_none(), "{what}: `mode` added");
        // And when the sender writes it, it stays.
        let mut with_mode = input.clone();
        with_mode["mode"] = json!("form");
        round_trip::<P>(what, &with_mode);
    }};
}

fn form_params() -> Value {
    json!({
        "message": "Pick a size",
        "requestedSchema": {"type": "object", "properties": {"size": {"type": "string", "enum": ["s", "l"]}}}
    })
}

#[test]
fn stray_elicitation_id_url_mode_params_get_no_elicitation_id() {
    url_params_without_elicitation_id!(v2026_07_28);
    url_params_without_elicitation_id!(draft);

    // 2025-11-25 does declare (and require) `elicitationId`: it is kept as sent, and never
    // invented when absent.
    use mcp_typed::v2025_11_25::ElicitRequestParams as P;
    let what = "v2025_11_25::ElicitRequestParams (url)";
    let with_id =
        json!({"mode": "url", "message": "m", "url": "https://a.example", "elicitationId": "e-1"});
    let p: P = round_trip(what, &with_id);
    assert!(matches!(&p, P::Url(u) if u.elicitation_id == "e-1"));
    let e = must_reject::<P>(
        what,
        &json!({"mode": "url", "message": "m", "url": "https://a.example"}),
    );
    assert_error_names(what, &e, &["`elicitationId`"]);
}

#[test]
fn mode_form_added_form_params_without_mode_stay_without_mode() {
    form_params_without_mode!(v2025_11_25, form_params());
    form_params_without_mode!(v2026_07_28, form_params());
    form_params_without_mode!(draft, form_params());
    // 2025-06-18 has no `mode` at all.
    let what = "v2025_06_18::ElicitRequestParams";
    let p: mcp_typed::v2025_06_18::ElicitRequestParams = round_trip(what, &form_params());
    assert!(encode(&p).get("mode").is_none(), "{what}: `mode` added");
}

// ---------------------------------------------------------------------------------------------
// rust-mcp-schema: elicitation content rejects numbers like `3.5`

/// Decodes `{"v": value}` elicitation content of each kind: accepted exactly where the
/// revision's schema accepts it or an erratum (schema/errata.json) widens it — to decimals
/// (`elicit-content-numbers`), and in 2025-06-18 to string arrays
/// (`elicit-content-arrays-2025-06-18`) — re-encoded unchanged; rejected otherwise.
macro_rules! elicit_content_follows_schema {
    ($m:ident, $revision:literal) => {{
        use mcp_typed::$m::ElicitResult;
        let what = concat!($revision, " ElicitResult");
        let mut accepted = Vec::new();
        for value in [json!(3.5), json!(3), json!(-7), json!("x"), json!(true), json!(["a", "b"])] {
            let input = json!({"action": "accept", "content": {"v": value}});
            let widened = value.is_f64() || ($revision == "2025-06-18" && value.is_array());
            let valid = schema_accepts($revision, "ElicitResult", &input) || widened;
            match decode::<ElicitResult>(&input) {
                Ok(r) if valid => {
                    assert_reencodes_exactly(what, &input, &r);
                    accepted.push(value.to_string());
                }
                Ok(r) => panic!("{what}: the schema rejects {input} but it decoded: {r:?}"),
                Err(e) => assert!(!valid, "{what}: {input} must decode, but: {e}"),
            }
        }
        accepted
    }};
}

#[test]
fn rejects_numbers_elicitation_content_accepts_decimals_by_erratum() {
    // The official schemas type content values as string | integer | boolean (from
    // 2025-11-25 on also string arrays), although NumberSchema asks for decimals and real
    // clients send them: the `elicit-content-numbers` erratum accepts any number, and `3.5`
    // stays `3.5` while `3` stays `3`.
    for accepted in [
        elicit_content_follows_schema!(v2025_06_18, "2025-06-18"),
        elicit_content_follows_schema!(v2025_11_25, "2025-11-25"),
        elicit_content_follows_schema!(v2026_07_28, "2026-07-28"),
        elicit_content_follows_schema!(draft, "draft"),
    ] {
        assert_eq!(
            accepted,
            ["3.5", "3", "-7", "\"x\"", "true", "[\"a\",\"b\"]"]
        );
    }
}

// ---------------------------------------------------------------------------------------------
// rmcp: no `-32042`, no `notifications/elicitation/complete`

#[test]
fn missing_elicitation_messages_url_elicitation_error_and_complete_notification_are_typed() {
    use mcp_typed::v2025_11_25 as m;
    let error = json!({
        "jsonrpc": "2.0", "id": 4,
        "error": {"code": -32042, "message": "Authorization required",
                  "data": {"elicitations": [{"mode": "url", "elicitationId": "e-1",
                           "message": "Sign in", "url": "https://auth.example/x"}]}}
    });
    round_trip::<m::UrlElicitationRequiredError>("URLElicitationRequiredError", &error);
    let mut other = error.clone();
    other["error"]["code"] = json!(-32603);
    let e = must_reject::<m::UrlElicitationRequiredError>("URLElicitationRequiredError", &other);
    assert_error_names("URLElicitationRequiredError", &e, &["`code`", "-32042"]);

    let done = json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
                      "params": {"elicitationId": "e-1"}});
    let n: m::ServerNotification = round_trip("elicitation/complete", &done);
    assert!(
        matches!(n, m::ServerNotification::ElicitationComplete(_)),
        "{n:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Unions with an open `method`: unknown methods are kept, not rejected or mangled

macro_rules! unknown_method_is_custom {
    ($m:ident) => {{
        use mcp_typed::$m as m;
        let what = concat!(stringify!($m), " vendor method");
        let request = json!({"jsonrpc": "2.0", "id": 9, "method": "vendor.example/search",
                             "params": {"q": "x", "n": 1.0, "deep": {"a": [null]}}});
        match round_trip::<m::ClientRequest>(what, &request) {
            m::ClientRequest::Custom(raw) => assert_eq!(Value::from(raw), request, "{what}"),
            other => panic!("{what}: decoded as {other:?}"),
        }
        let note = json!({"jsonrpc": "2.0", "method": "vendor.example/tick", "params": {"t": 1}});
        match round_trip::<m::ServerNotification>(what, &note) {
            m::ServerNotification::Custom(raw) => assert_eq!(Value::from(raw), note, "{what}"),
            other => panic!("{what}: decoded as {other:?}"),
        }
    }};
}

#[test]
fn unknown_method_decodes_to_custom_keeping_the_raw_message() {
    unknown_method_is_custom!(v2024_11_05);
    unknown_method_is_custom!(v2025_03_26);
    unknown_method_is_custom!(v2025_06_18);
    unknown_method_is_custom!(v2025_11_25);
    unknown_method_is_custom!(v2026_07_28);
    unknown_method_is_custom!(draft);
}

// ---------------------------------------------------------------------------------------------
// Error messages that point at the problem

/// An unknown tag (a newer revision's shape) is kept whole and reported; a missing tag and
/// a known tag with malformed content are errors naming what is wrong.
macro_rules! wrong_tag_named {
    ($m:ident) => {{
        use mcp_typed::Unknowns as _;
        let what = concat!(stringify!($m), "::ContentBlock");
        let picture = json!({"type": "picture", "data": "AA==", "mimeType": "image/png"});
        let block: mcp_typed::$m::ContentBlock = round_trip(what, &picture);
        assert!(
            matches!(&block, mcp_typed::$m::ContentBlock::Unknown(raw) if Value::from(raw.clone()) == picture),
            "{what}: {block:?}"
        );
        assert_eq!(
            block.unknowns().iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["/: unknown ContentBlock `type` \"picture\""]
        );
        let e = must_reject::<mcp_typed::$m::ContentBlock>(what, &json!({"text": "no type"}));
        assert_error_names(what, &e, &["`type`"]);
        let e = must_reject::<mcp_typed::$m::ContentBlock>(
            what,
            &json!({"type": "image", "data": 7, "mimeType": "image/png"}),
        );
        assert_error_names(what, &e, &["7"]);
    }};
}

#[test]
fn wrong_discriminator_unknown_tags_are_kept_and_errors_name_the_field() {
    wrong_tag_named!(v2025_06_18);
    wrong_tag_named!(v2025_11_25);
    wrong_tag_named!(v2026_07_28);
    wrong_tag_named!(draft);
    use mcp_typed::draft::ElicitRequestParams as P;
    let what = "draft ElicitRequestParams";
    let sms = json!({"mode": "sms", "message": "m", "url": "https://a.example"});
    let p: P = round_trip(what, &sms);
    assert!(matches!(p, P::Unknown(_)), "{what}: {p:?}");
    let e = must_reject::<P>(what, &json!({"mode": "url", "message": "m"}));
    assert_error_names(what, &e, &["`url`"]);
}

macro_rules! missing_required_named {
    ($m:ident) => {{
        use mcp_typed::$m as m;
        let what = concat!(stringify!($m), " missing required");
        let e = must_reject::<m::CallToolRequestParams>(what, &json!({"arguments": {}}));
        assert_error_names(what, &e, &["`name`"]);
        let e = must_reject::<m::Tool>(what, &json!({"description": "no name, no schema"}));
        assert_error_names(what, &e, &["`name`", "`inputSchema`"]);
        let e = must_reject::<m::TextContent>(what, &json!({"type": "text"}));
        assert_error_names(what, &e, &["`text`"]);
    }};
}

#[test]
fn missing_required_error_names_every_missing_field() {
    missing_required_named!(v2024_11_05);
    missing_required_named!(v2025_03_26);
    missing_required_named!(v2025_06_18);
    missing_required_named!(v2025_11_25);
    missing_required_named!(v2026_07_28);
    missing_required_named!(draft);
}

// ---------------------------------------------------------------------------------------------
// Quirks of the official examples

macro_rules! list_roots_keeps_id {
    ($m:ident, $revision:literal) => {{
        use mcp_typed::$m as m;
        let (_, file, value) = spec_examples($revision)
            .into_iter()
            .find(|(d, _, _)| d == "ListRootsRequest")
            .expect("the official ListRootsRequest example");
        assert!(
            value.get("id").is_some(),
            "{file}: the quirk is an `id` the schema lacks"
        );
        let r: m::ListRootsRequest = round_trip(&file, &value);
        assert_eq!(
            r.extra.get("id"),
            value.get("id"),
            "{file}: `id` kept among the extras"
        );
        let ir: m::InputRequest = round_trip(&file, &value);
        assert!(
            matches!(ir, m::InputRequest::ListRoots(_)),
            "{file}: decoded as {ir:?}"
        );
    }};
}

#[test]
fn example_quirk_list_roots_request_with_undeclared_id_keeps_it() {
    list_roots_keeps_id!(draft, "draft");
    list_roots_keeps_id!(v2026_07_28, "2026-07-28");
}

macro_rules! read_resource_missing_ttl {
    ($m:ident, $revision:literal) => {{
        use mcp_typed::$m as m;
        let (_, file, value) = spec_examples($revision)
            .into_iter()
            .find(|(d, f, _)| {
                d == "ReadResourceResultResponse" && f == "read-resource-result-response.json"
            })
            .expect("the official read-resource-result-response.json example");
        let e = must_reject::<m::ReadResourceResultResponse>(&file, &value);
        assert_error_names(&file, &e, &["`ttlMs`", "`cacheScope`"]);
        // Strict, but not by falling back to an input-required result.
        let e = must_reject::<m::ReadResourceResultResponseResult>(&file, &value["result"]);
        assert_error_names(&file, &e, &["`ttlMs`", "`cacheScope`"]);
    }};
}

#[test]
fn example_quirk_read_resource_result_without_ttl_and_cache_scope_is_rejected_naming_both() {
    read_resource_missing_ttl!(draft, "draft");
    read_resource_missing_ttl!(v2026_07_28, "2026-07-28");
}

/// A shape union's nullable slot (`Task.ttl`, `integer | null`) takes integers: a `tasks/get`
/// result decodes through `ServerResult` and `ClientResult` as a `GetTaskResult`, `ttl` kept.
#[test]
fn nullable_member_of_a_shape_union_takes_a_value() {
    use mcp_typed::v2025_11_25 as m;
    let v = serde_json::json!({"taskId": "t", "status": "working",
        "createdAt": "2025-01-01T00:00:00Z", "lastUpdatedAt": "2025-01-01T00:00:00Z", "ttl": 60000});
    let r: m::ServerResult = serde_json::from_value(v.clone()).unwrap();
    let m::ServerResult::GetTask(task) = &r else {
        panic!("{r:?}")
    };
    assert_eq!(task.ttl, Some(60000));
    assert_eq!(serde_json::to_value(&r).unwrap(), v);
    let r: m::ClientResult = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), v);
    let with_null = serde_json::json!({"taskId": "t", "status": "working",
        "createdAt": "2025-01-01T00:00:00Z", "lastUpdatedAt": "2025-01-01T00:00:00Z", "ttl": null});
    let r: m::ServerResult = serde_json::from_value(with_null.clone()).unwrap();
    assert_eq!(serde_json::to_value(&r).unwrap(), with_null);
}
