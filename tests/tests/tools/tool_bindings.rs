//! `mcp-typed-codegen tools`: the typed bindings generated (in `build.rs`, by
//! `mcp_typed_codegen::ToolsBuilder`) for the tool lists of four real servers captured in
//! `tests/fixtures/tool-lists/` compile under `#![deny(warnings)]`, take every tool's example
//! arguments and give them back unchanged, match the checked-in snapshot, and call
//! server-everything's tools for real.

#![deny(warnings)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Stdio};
use std::time::{Duration, Instant};

use mcp_typed::v2025_11_25 as m;
use serde_json::{Map, Value, json};

/// JSON → a tool's arguments type → JSON.
type RoundTrip = fn(&Value) -> Result<Value, String>;

fn round_trip<T: serde::de::DeserializeOwned + serde::Serialize>(
    v: &Value,
) -> Result<Value, String> {
    let typed: T = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
    serde_json::to_value(typed).map_err(|e| e.to_string())
}

include!(concat!(env!("OUT_DIR"), "/tool_bindings.rs"));

fn tool_list(server: &str) -> Vec<Value> {
    let path = mcp_tests::workspace()
        .join("tests/fixtures/tool-lists")
        .join(format!("{server}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap();
    v["tools"].as_array().unwrap().clone()
}

/// A value the schema accepts, read off the schema: its `const`, `examples` or first `enum`
/// value where it gives one, else one of its type — objects with every property (optional
/// ones too, so that each field's type is exercised), arrays with one item — and never its
/// `default`, which a generated type may leave out when encoding (the server applies it).
fn example(schema: &Value, root: &Value, depth: usize) -> Value {
    assert!(depth < 16, "schema nests too deep: {schema}");
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let pointer = r.strip_prefix('#').expect("local $ref");
        return example(
            root.pointer(pointer).expect("$ref resolves"),
            root,
            depth + 1,
        );
    }
    if let Some(v) = schema.get("const") {
        return v.clone();
    }
    if let Some(v) = schema.get("examples").and_then(|e| e.get(0)) {
        return v.clone();
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        let default = schema.get("default");
        return values
            .iter()
            .find(|v| Some(*v) != default)
            .unwrap_or(&values[0])
            .clone();
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(first) = schema.get(key).and_then(|a| a.get(0)) {
            return example(first, root, depth + 1);
        }
    }
    let ty = match schema.get("type") {
        Some(Value::String(t)) => t.as_str(),
        // `["string", "null"]`: the first that is not null.
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ => "null",
    };
    let default = schema.get("default");
    match ty {
        "object" => {
            let mut o = Map::new();
            if let Some(Value::Object(props)) = schema.get("properties") {
                for (k, p) in props {
                    o.insert(k.clone(), example(p, root, depth + 1));
                }
            }
            Value::Object(o)
        }
        "array" => match schema.get("items") {
            Some(items) => json!([example(items, root, depth + 1)]),
            None => json!([]),
        },
        "string" => match schema.get("format").and_then(Value::as_str) {
            Some("uri") => json!("file:///tmp/example.txt"),
            Some("date-time") => json!("2026-11-22T12:00:00Z"),
            Some("date") => json!("2026-11-22"),
            Some("email") => json!("ada@example.com"),
            _ => {
                let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0);
                json!("x".repeat(min.max(3) as usize))
            }
        },
        "integer" => {
            let min = schema.get("minimum").and_then(Value::as_i64).unwrap_or(1);
            let v = json!(min);
            if Some(&v) == default {
                json!(min + 1)
            } else {
                v
            }
        }
        "number" => {
            let min = schema.get("minimum").and_then(Value::as_f64).unwrap_or(1.0);
            let v = json!(min + 0.5);
            if default.and_then(Value::as_f64) == v.as_f64() {
                json!(min + 1.5)
            } else {
                v
            }
        }
        "boolean" => json!(default != Some(&json!(true))),
        _ => Value::Null,
    }
}

/// Equal as JSON values: numbers by value, as JSON Schema compares them (a `number` field is
/// an `f64`, which writes `3` back as `3.0`).
fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn every_tools_example_arguments_round_trip() {
    let servers: [(&str, &[(&str, RoundTrip)]); 7] = [
        ("server-everything", server_everything_args::ARGS),
        ("python-sdk", python_sdk_args::ARGS),
        ("server-filesystem", server_filesystem_args::ARGS),
        ("server-memory", server_memory_args::ARGS),
        ("server-github", server_github_args::ARGS),
        (
            "server-sequential-thinking",
            server_sequential_thinking_args::ARGS,
        ),
        ("python-pydantic", python_pydantic_args::ARGS),
    ];
    let mut checked = 0;
    for (server, table) in servers {
        let tools = tool_list(server);
        assert_eq!(tools.len(), table.len(), "{server}: one binding per tool");
        for (tool, (name, round_trip)) in tools.iter().zip(table) {
            assert_eq!(
                tool["name"], *name,
                "{server}: bindings in the list's order"
            );
            let schema = &tool["inputSchema"];
            let args = example(schema, schema, 0);
            // The example is one the server would take: valid against its own schema.
            let validator = jsonschema::validator_for(schema).unwrap();
            assert!(
                validator.is_valid(&args),
                "{server} {name}: example {args} does not fit {schema}"
            );
            let back = round_trip(&args).unwrap_or_else(|e| panic!("{server} {name}: {args}: {e}"));
            assert!(
                same_json(&back, &args),
                "{server} {name}: round trip changed the arguments: {args} became {back}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 13 + 8 + 14 + 9 + 26 + 1 + 3);
}

#[test]
fn arguments_the_schema_rejects_do_not_decode() {
    // Typed arguments are checked arguments: a missing required member or a wrong type is an
    // error naming it, not a value sent to the server.
    let get_sum = server_everything_args::ARGS
        .iter()
        .find(|(n, _)| *n == "get-sum")
        .unwrap()
        .1;
    let e = get_sum(&json!({"a": 1})).unwrap_err();
    assert!(e.contains("missing field `b`"), "{e}");
    let e = get_sum(&json!({"a": 1, "b": "two"})).unwrap_err();
    assert!(e.contains("invalid type: string \"two\""), "{e}");
    let e =
        server_everything::GetStructuredContentArgs::deserialize_json(json!({"location": "Paris"}));
    assert!(e.contains("unknown variant `Paris`"), "{e}");
}

trait DeserializeJson {
    fn deserialize_json(v: Value) -> String;
}

impl<T: serde::de::DeserializeOwned> DeserializeJson for T {
    fn deserialize_json(v: Value) -> String {
        match serde_json::from_value::<T>(v) {
            Ok(_) => "decoded".to_owned(),
            Err(e) => e.to_string(),
        }
    }
}

/// The module generated for server-everything, checked in: a change to the generator or to
/// the capture shows here (`UPDATE_EXPECT=1` accepts it).
#[test]
fn server_everything_bindings_snapshot() {
    let path = mcp_tests::workspace().join("tests/fixtures/tool-lists/server-everything.json");
    let generated = mcp_typed_codegen::ToolsBuilder::new()
        .tool_list_path(&path)
        .generate()
        .unwrap();
    assert!(
        generated.warnings().is_empty(),
        "{:?}",
        generated.warnings()
    );
    expect_test::expect_file!["../../fixtures/tool-lists/server-everything.rs"]
        .assert_eq(generated.code());
}

#[test]
fn built_from_the_same_capture_the_helpers_build_requests() {
    let args = server_everything::GetSumArgs { a: 2.0, b: 3.5 };
    let request = serde_json::to_value(args.request(7)).unwrap();
    assert_eq!(
        request,
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
               "params": {"name": "get-sum", "arguments": {"a": 2.0, "b": 3.5}}})
    );
    let params = server_filesystem::ReadTextFileArgs {
        path: "/tmp/a.txt".into(),
        head: Some(3.0),
        tail: None,
    }
    .call();
    assert_eq!(params.name, "read_text_file");
    assert_eq!(
        Value::from(params.arguments.unwrap()),
        json!({"path": "/tmp/a.txt", "head": 3.0})
    );
}

#[test]
fn output_errors_name_the_tool_and_the_path() {
    use server_everything::GetStructuredContentOutput as Weather;
    let result = |structured: Value, is_error: bool| {
        let mut r = m::CallToolResult::new(vec![m::ContentBlock::Text(m::TextContent::new(
            "it failed",
        ))]);
        r.structured_content = structured.as_object().cloned().map(Into::into);
        r.is_error = Some(is_error);
        r
    };
    let ok = Weather::from_result(&result(
        json!({"temperature": 21.5, "conditions": "sunny", "humidity": 40}),
        false,
    ))
    .unwrap();
    assert_eq!((ok.temperature, ok.conditions.as_str()), (21.5, "sunny"));

    let e = Weather::from_result(&result(
        json!({"temperature": 21.5, "conditions": "sunny", "humidity": "wet"}),
        false,
    ))
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "tool \"get-structured-content\": structuredContent at humidity: invalid type: string \"wet\", expected f64"
    );
    let e = Weather::from_result(&result(
        json!({"temperature": 1, "conditions": "x", "humidity": 2, "wind": 3}),
        false,
    ))
    .unwrap_err();
    assert!(e.to_string().contains("unknown field `wind`"), "{e}");
    let e = Weather::from_result(&result(Value::Null, true)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tool \"get-structured-content\" failed (isError): it failed"
    );
    let e = Weather::from_result(&result(Value::Null, false)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tool \"get-structured-content\": the result has no structuredContent"
    );
}

/// server-everything over stdio, driven with mcp-typed' messages.
struct Everything {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Everything {
    fn start() -> Everything {
        let peers = mcp_tests::peers::peers();
        let mut child = peers
            .node()
            .arg(peers.package_file("@modelcontextprotocol/server-everything", "dist/index.js"))
            .arg("stdio")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start server-everything with node");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Everything {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, message: &m::ClientMessage) {
        writeln!(self.input, "{}", serde_json::to_string(message).unwrap()).unwrap();
        self.input.flush().unwrap();
    }

    /// Sends a request and returns the response to it (passing over notifications).
    fn call(&mut self, id: i64, request: impl Into<m::ClientRequest>) -> m::ResultResponse {
        self.send(&m::ClientMessage::request(request));
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "server-everything closed stdout"
            );
            match m::ServerMessage::from_json(&line) {
                Ok(m::ServerMessage::Response(r)) if r.id == m::RequestId::Integer(id) => {
                    return r;
                }
                Ok(m::ServerMessage::Error(e)) => panic!("error response: {e:?}"),
                Ok(_) => continue,
                Err(_) => panic!("not an MCP message: {line}"),
            }
        }
    }

    fn call_tool(&mut self, id: i64, request: m::CallToolRequest) -> m::CallToolResult {
        self.call(id, request)
            .result_as::<m::CallToolRequest>()
            .unwrap()
    }
}

impl Drop for Everything {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn text(result: &m::CallToolResult) -> String {
    result.texts().collect()
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn server_everything_tools_called_through_the_generated_helpers() {
    use server_everything::get_structured_content::GetStructuredContentArgsLocation as City;
    use server_everything::{
        EchoArgs, GetStructuredContentArgs, GetStructuredContentOutput, GetSumArgs,
    };

    let started = Instant::now();
    let mut s = Everything::start();
    let init = s
        .call(
            1,
            m::InitializeRequest::new(
                1,
                m::InitializeRequestParams::new(
                    "2025-11-25",
                    m::ClientCapabilities::new(),
                    m::Implementation::new("tool-bindings-test", "1"),
                ),
            ),
        )
        .result_as::<m::InitializeRequest>()
        .unwrap();
    assert_eq!(init.protocol_version, "2025-11-25");
    s.send(&m::ClientMessage::notification(
        m::InitializedNotification::new(),
    ));

    let r = s.call_tool(
        2,
        EchoArgs {
            message: "typed hello".into(),
        }
        .request(2),
    );
    assert_eq!(text(&r), "Echo: typed hello");

    let r = s.call_tool(3, GetSumArgs { a: 2.0, b: 40.5 }.request(3));
    assert!(text(&r).contains("42.5"), "{}", text(&r));

    let r = s.call_tool(
        4,
        GetStructuredContentArgs {
            location: City::NewYork,
        }
        .request(4),
    );
    let weather = GetStructuredContentOutput::from_result(&r).unwrap();
    assert!(!weather.conditions.is_empty());
    assert!((0.0..=100.0).contains(&weather.humidity), "{weather:?}");

    // Another tool's result is no weather: the error names the tool.
    let r = s.call_tool(5, GetSumArgs { a: 1.0, b: 1.0 }.request(5));
    let e = GetStructuredContentOutput::from_result(&r).unwrap_err();
    assert_eq!(e.tool, "get-structured-content");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "took {:?}",
        started.elapsed()
    );
}

/// Schemas typify cannot take fall back to serde_json for that tool only, with a warning
/// naming the tool and the schema's pointer; the rest of the list is typed; names stay
/// idiomatic and distinct.
#[test]
fn odd_schemas_fall_back_per_member_and_names_do_not_collide() {
    let path = mcp_tests::workspace().join("tests/fixtures/tool-lists/odd-schemas.json");
    let generated = mcp_typed_codegen::ToolsBuilder::new()
        .tool_list_path(&path)
        .generate()
        .unwrap();
    let warnings: Vec<(String, String)> = generated
        .warnings()
        .iter()
        .map(|w| (w.tool.clone(), w.pointer.clone()))
        .collect();
    assert_eq!(
        warnings,
        [
            (
                "external-ref",
                "odd-schemas.json#/tools/0/inputSchema/properties/where"
            ),
            (
                "external-ref",
                "odd-schemas.json#/tools/0/outputSchema/properties/x"
            ),
            ("not-an-object", "odd-schemas.json#/tools/6/inputSchema"),
        ]
        .map(|(t, p)| (t.to_owned(), p.to_owned()))
    );
    assert!(
        generated.warnings()[0]
            .message
            .contains("external references are not supported"),
        "{}",
        generated.warnings()[0]
    );
    let names: Vec<(&str, &str, bool)> = generated
        .tools()
        .iter()
        .map(|t| (t.module.as_str(), t.args_type.as_str(), t.fully_typed()))
        .collect();
    assert_eq!(
        names,
        [
            ("external_ref", "ExternalRefArgs", false),
            ("defs202012", "Defs202012Args", true),
            ("get_sum", "GetSumArgs", true),
            ("get_sum2", "GetSum2Args", true),
            ("type_tool", "TypeArgs", true),
            ("tool2fa", "Tool2faArgs", true),
            ("not_an_object", "NotAnObjectArgs", false),
        ]
    );

    // Only the members typify could not take are raw JSON (in build.rs's module, compiled and
    // working); the tool's types stay structs.
    let args = odd_schemas::ExternalRefArgs {
        where_: Some(json!({"lat": 1})),
    };
    assert_eq!(
        Value::from(args.call().arguments.unwrap()),
        json!({"where": {"lat": 1}})
    );
    let mut r = m::CallToolResult::new(vec![]);
    r.structured_content = json!({"x": [1, 2]}).as_object().cloned().map(Into::into);
    let out = odd_schemas::ExternalRefOutput::from_result(&r).unwrap();
    assert_eq!(out.x, Some(json!([1, 2])));

    // 2020-12 `$defs`: typed, the output's `Item` kept apart from the input's.
    let typed = odd_schemas::defs202012::Defs202012Args {
        items: vec![odd_schemas::defs202012::Item { sku: "A-1".into() }],
    };
    assert_eq!(
        Value::from(typed.call().arguments.unwrap()),
        json!({"items": [{"sku": "A-1"}]})
    );
    r.structured_content = json!({"items": [{"price": 2.5}, {"price": "n/a"}]})
        .as_object()
        .cloned()
        .map(Into::into);
    let e = odd_schemas::Defs202012Output::from_result(&r).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tool \"defs-2020-12\": structuredContent at items[1].price: invalid type: string \"n/a\", expected f64"
    );
    // `pattern` is checked when decoding.
    assert!(
        odd_schemas::Tool2faArgs::deserialize_json(json!({"code": "12ab"}))
            .contains("doesn't match pattern"),
    );
}

/// `mcp-typed tools --server`'s client, against server-everything: the list it gets is the
/// one captured (the pinned server has not changed under the fixture).
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn the_client_lists_server_everythings_tools_as_captured() {
    let peers = mcp_tests::peers::peers();
    let command = vec![
        "node".to_owned(),
        peers
            .package_file("@modelcontextprotocol/server-everything", "dist/index.js")
            .display()
            .to_string(),
        "stdio".to_owned(),
    ];
    let listed =
        mcp_typed_cli::tools_client::list_tools(&command, Duration::from_secs(30)).unwrap();
    assert_eq!(listed.protocol_version, "2025-11-25");
    assert_eq!(listed.server.0, "mcp-servers/everything");
    let captured = std::fs::read_to_string(
        mcp_tests::workspace().join("tests/fixtures/tool-lists/server-everything.json"),
    )
    .unwrap();
    assert_eq!(
        listed.to_json(),
        captured,
        "re-capture: tests/peers/capture-tool-lists.sh"
    );
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node: feature `interop` (.ci/run turns it on)"
)]
fn the_client_says_what_a_broken_server_did() {
    let node = |script: &str| vec!["node".to_owned(), "-e".to_owned(), script.to_owned()];
    let timeout = Duration::from_secs(10);
    let e = mcp_typed_cli::tools_client::list_tools(
        &node("console.error('no config'); process.exit(3)"),
        timeout,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("closed its stdout (exited?) before answering initialize"),
        "{e}"
    );
    assert!(e.contains("no config"), "the server's stderr is shown: {e}");

    let e = mcp_typed_cli::tools_client::list_tools(&node("console.log('hello')"), timeout)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("stdout line 1: not an MCP message: hello"),
        "{e}"
    );

    let e = mcp_typed_cli::tools_client::list_tools(
        &node("setTimeout(() => {}, 5000)"),
        Duration::from_millis(300),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("no answer to initialize within 0.3 s"), "{e}");

    let e = mcp_typed_cli::tools_client::list_tools(&["/nonexistent/server".to_owned()], timeout)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("cannot start server \"/nonexistent/server\""),
        "{e}"
    );
}

/// The helpers of every revision with structuredContent build that revision's request and
/// read its result.
#[test]
fn helpers_for_each_revision() {
    let args = json!({"name": "get-sum", "arguments": {"a": 1.0, "b": 2.0}});
    let p = server_everything_v2025_06_18::GetSumArgs { a: 1.0, b: 2.0 }.call();
    assert_eq!(serde_json::to_value(p).unwrap(), args);
    let meta = || {
        mcp_typed::v2026_07_28::RequestMetaObject::new(
            "2026-07-28",
            mcp_typed::v2026_07_28::ClientCapabilities::new(),
        )
    };
    let p = server_everything_v2026_07_28::GetSumArgs { a: 1.0, b: 2.0 }.request(1, meta());
    assert_eq!(
        serde_json::to_value(&p).unwrap()["params"]["arguments"],
        args["arguments"]
    );

    let weather = json!({"temperature": 1.0, "conditions": "fog", "humidity": 99.0});
    let r: mcp_typed::v2026_07_28::CallToolResult = serde_json::from_value(
        json!({"resultType": "complete", "content": [], "structuredContent": weather}),
    )
    .unwrap();
    let out = server_everything_v2026_07_28::GetStructuredContentOutput::from_result(&r).unwrap();
    assert_eq!(out.conditions, "fog");
    let r: mcp_typed::draft::CallToolResult = serde_json::from_value(
        json!({"resultType": "complete", "content": [], "structuredContent": weather}),
    )
    .unwrap();
    let out = server_everything_draft::GetStructuredContentOutput::from_result(&r).unwrap();
    assert_eq!(out.humidity, 99.0);
}

/// server-github 2025.4.8's `search_issues` sorts by `reactions-+1` and `reactions--1`, which
/// typify cannot name apart: only that member is a `String` (its doc lists the values), the
/// other 25 tools and the rest of this one are typed.
#[test]
fn server_github_loses_one_member_not_a_tool() {
    let path = mcp_tests::workspace().join("tests/fixtures/tool-lists/server-github.json");
    let generated = mcp_typed_codegen::ToolsBuilder::new()
        .tool_list_path(&path)
        .generate()
        .unwrap();
    let loosened: Vec<(&str, &str, Option<&str>)> = generated
        .warnings()
        .iter()
        .map(|w| {
            (
                w.tool.as_str(),
                w.pointer.as_str(),
                w.loosened_to.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        loosened,
        [(
            "search_issues",
            "server-github.json#/tools/14/inputSchema/properties/sort",
            Some("String")
        )]
    );
    let tools = generated.tools();
    assert_eq!(tools.len(), 26);
    assert_eq!(tools.iter().filter(|t| t.fully_typed()).count(), 25);
    // Compiled (build.rs's module): the query and the order stay typed, `sort` is a string.
    let args = server_github::SearchIssuesArgs {
        q: "repo:a/b is:open".into(),
        sort: Some("reactions-+1".into()),
        order: Some(server_github::search_issues::SearchIssuesArgsOrder::Desc),
        page: None,
        per_page: None,
    };
    assert_eq!(
        Value::from(args.call().arguments.unwrap()),
        json!({"q": "repo:a/b is:open", "sort": "reactions-+1", "order": "desc"})
    );
}
