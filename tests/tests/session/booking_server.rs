//! `tests/examples/booking-server.rs`, driven over a pipe as a client would, at 2025-06-18,
//! 2025-11-25 and 2026-07-28: every tool, the resource and the prompt, the form round trip
//! (a server request, or 2026-07-28's `InputRequiredResult` and retry) with accept, decline and
//! cancel, content that breaks the form, and the errors a receiver owes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

struct Server {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Server {
    fn start() -> Server {
        let bin = mcp_tests::example_binary("mcp-tests", "booking-server", &[]);
        let mut child = Command::new(bin)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the example");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Server {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    fn recv(&mut self) -> Value {
        let mut line = String::new();
        assert!(
            self.output.read_line(&mut line).unwrap() > 0,
            "the server closed stdout"
        );
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
    }

    /// Sends a request, returns the one message it answers with.
    fn call(&mut self, message: Value) -> Value {
        self.send(&message.to_string());
        self.recv()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn tool_call(id: i64, name: &str, args: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": args}})
}

fn text_of(result: &Value) -> &str {
    result["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{result}"))
}

#[test]
fn a_2025_11_25_client_books_a_table_and_answers_forms() {
    session("2025-11-25");
}

/// The same server, written against 2025-11-25, serves a 2025-06-18 session by converting
/// each message at the boundary.
#[test]
fn a_2025_06_18_client_is_served_by_the_same_code() {
    session("2025-06-18");
}

fn session(revision: &str) {
    let mut s = Server::start();
    let init = s.call(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": revision, "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "test", "version": "1"}}}),
    );
    assert_eq!(init["id"], 1);
    assert_eq!(init["result"]["protocolVersion"], revision);
    assert_eq!(init["result"]["serverInfo"]["name"], "booking-server");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    s.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let tools = s.call(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["book_table", "survey"]);
    assert_eq!(
        tools["result"]["tools"][0]["inputSchema"]["required"],
        json!(["date"])
    );
    resource_and_prompt(&mut s, None);

    // A free day is booked at once.
    let r = s.call(tool_call(3, "book_table", json!({"date": "2026-12-25"})));
    assert_eq!(
        (r["id"].clone(), text_of(&r)),
        (json!(3), "Booked a table for 2026-12-25.")
    );

    // Arguments read with `arguments_as()?`: one missing is a tool error that names it.
    let r = s.call(tool_call(30, "book_table", json!({})));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(text_of(&r).contains("date"), "{r}");

    // A full day asks for another one: accept, decline, cancel.
    for (id, answer, expected) in [
        (
            4,
            json!({"action": "accept", "content": {"checkAlternative": true, "alternativeDate": "2026-12-27"}}),
            "Booked a table for 2026-12-27.",
        ),
        (
            5,
            json!({"action": "accept", "content": {"checkAlternative": false, "alternativeDate": "2026-12-27"}}),
            "Nothing was booked.",
        ),
        (6, json!({"action": "decline"}), "Nothing was booked."),
        (7, json!({"action": "cancel"}), "Nothing was booked."),
    ] {
        let form = s.call(tool_call(id, "book_table", json!({"date": "2026-12-24"})));
        assert_eq!(form["method"], "elicitation/create", "{form}");
        assert_eq!(form["id"], format!("form-{id}"));
        // Each revision's own form: 2025-06-18 has no `mode`.
        assert_eq!(
            form["params"].get("mode").is_none(),
            revision == "2025-06-18",
            "{form}"
        );
        let schema = &form["params"]["requestedSchema"];
        let fields: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        assert_eq!(
            fields,
            ["checkAlternative", "alternativeDate"],
            "field order"
        );
        assert_eq!(schema["properties"]["alternativeDate"]["format"], "date");
        let r = s.call(json!({"jsonrpc": "2.0", "id": form["id"], "result": answer}));
        assert_eq!(r["id"], id);
        assert_eq!(text_of(&r), expected);
    }

    if revision == "2025-06-18" {
        // 2025-06-18 has no multi-select: the survey cannot be asked, and the tool says why.
        let r = s.call(tool_call(8, "survey", json!({})));
        assert_eq!(r["result"]["isError"], true, "{r}");
        assert!(text_of(&r).contains("`toppings`"), "{r}");
        return;
    }
    // Every primitive kind, decimals included, comes back as received.
    let form = s.call(tool_call(8, "survey", json!({})));
    let props = &form["params"]["requestedSchema"]["properties"];
    let color = props["color"]["enum"][1].clone();
    let topping = props["toppings"]["items"]["enum"][0].clone();
    let content = json!({"name": "Ada", "age": 36, "heightM": 1.75, "subscribe": true,
                         "color": color, "toppings": [topping]});
    let r = s.call(json!({"jsonrpc": "2.0", "id": form["id"], "result": {"action": "accept", "content": content}}));
    assert_eq!(
        text_of(&r),
        "Ada, 36 years, 1.75 m, subscribe: true, Green, [Cheese]"
    );

    // Content that breaks the form: a tool error naming the field.
    let form = s.call(tool_call(9, "survey", json!({})));
    let mut bad = content.clone();
    bad["age"] = json!(200);
    let r = s.call(
        json!({"jsonrpc": "2.0", "id": form["id"], "result": {"action": "accept", "content": bad}}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(text_of(&r).contains("age"), "{r}");
}

/// The resource and the prompt, with the errors a client gets for what is not there.
/// `meta`: the `_meta` every request carries (2026-07-28).
fn resource_and_prompt(s: &mut Server, meta: Option<&Value>) {
    let request = |id: i64, method: &str, mut params: Value| {
        if let Some(meta) = meta {
            params["_meta"] = meta.clone();
        }
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    };
    let r = s.call(request(100, "resources/list", json!({})));
    assert_eq!(r["result"]["resources"][0]["uri"], "booking://menu", "{r}");
    assert_eq!(r["result"]["resources"][0]["mimeType"], "text/plain", "{r}");
    let r = s.call(request(
        101,
        "resources/read",
        json!({"uri": "booking://menu"}),
    ));
    let contents = &r["result"]["contents"][0];
    assert_eq!(contents["uri"], "booking://menu", "{r}");
    assert!(
        contents["text"].as_str().unwrap().contains("Risotto 14.00"),
        "{r}"
    );
    let r = s.call(request(
        102,
        "resources/read",
        json!({"uri": "booking://wine"}),
    ));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("booking://wine"),
        "{r}"
    );

    let r = s.call(request(103, "prompts/list", json!({})));
    let prompt = &r["result"]["prompts"][0];
    assert_eq!(prompt["name"], "plan_dinner", "{r}");
    assert_eq!(
        prompt["arguments"],
        json!([{"name": "guests", "description": "How many people", "required": true}])
    );
    let get = |args: Value| {
        request(
            104,
            "prompts/get",
            json!({"name": "plan_dinner", "arguments": args}),
        )
    };
    let r = s.call(get(json!({"guests": "4"})));
    assert_eq!(
        r["result"]["messages"],
        json!([{"role": "user", "content": {"type": "text", "text": "Book a table for 4 and choose from booking://menu."}}]),
        "{r}"
    );
    let r = s.call(get(json!({})));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(
        r["error"]["message"].as_str().unwrap().contains("`guests`"),
        "{r}"
    );
}

/// 2026-07-28 is stateless: no `initialize`; every request names its revision in `_meta`; a
/// form comes back as an `InputRequiredResult` and the answer in the retried call's
/// `inputResponses`.
#[test]
fn a_2026_07_28_client_discovers_and_retries_with_input_responses() {
    let mut s = Server::start();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
    });
    let discover = s.call(
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}),
    );
    let result = &discover["result"];
    assert_eq!(
        result["supportedVersions"],
        json!(["2026-07-28"]),
        "{discover}"
    );
    assert_eq!(result["resultType"], "complete");
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "booking-server"
    );
    for capability in ["tools", "resources", "prompts"] {
        assert!(result["capabilities"][capability].is_object(), "{discover}");
    }
    let call = |id: i64, name: &str, args: Value, responses: Option<Value>| {
        let mut params = json!({"name": name, "arguments": args, "_meta": meta});
        if let Some(responses) = responses {
            params["inputResponses"] = responses;
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
    };
    let tools = s.call(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": meta}}),
    );
    assert_eq!(tools["result"]["tools"][1]["name"], "survey", "{tools}");
    assert_eq!(
        (
            tools["result"]["cacheScope"].clone(),
            tools["result"]["ttlMs"].clone()
        ),
        (json!("public"), json!(0))
    );
    resource_and_prompt(&mut s, Some(&meta));

    let r = s.call(call(3, "book_table", json!({"date": "2026-12-25"}), None));
    assert_eq!(
        (r["result"]["resultType"].clone(), text_of(&r)),
        (json!("complete"), "Booked a table for 2026-12-25.")
    );

    let full = json!({"date": "2026-12-24"});
    for (id, answer, expected) in [
        (
            4,
            json!({"action": "accept", "content": {"checkAlternative": true, "alternativeDate": "2026-12-27"}}),
            "Booked a table for 2026-12-27.",
        ),
        (
            5,
            json!({"action": "accept", "content": {"checkAlternative": false, "alternativeDate": "2026-12-27"}}),
            "Nothing was booked.",
        ),
        (6, json!({"action": "decline"}), "Nothing was booked."),
        (7, json!({"action": "cancel"}), "Nothing was booked."),
    ] {
        // The first call: the form, as an input request, and no server→client request.
        let r = s.call(call(id, "book_table", full.clone(), None));
        assert_eq!(
            (r["id"].clone(), r["result"]["resultType"].clone()),
            (json!(id), json!("input_required")),
            "{r}"
        );
        let form = &r["result"]["inputRequests"]["form"];
        assert_eq!(form["method"], "elicitation/create", "{r}");
        assert_eq!(form["params"]["mode"], "form");
        assert_eq!(form["params"]["message"], "2026-12-24 is full.");
        assert_eq!(
            form["params"]["requestedSchema"]["properties"]["alternativeDate"]["format"],
            "date"
        );
        // The retry carries the answer; the same tool finishes.
        let r = s.call(call(
            id + 10,
            "book_table",
            full.clone(),
            Some(json!({"form": answer})),
        ));
        assert_eq!(
            (r["id"].clone(), r["result"]["resultType"].clone()),
            (json!(id + 10), json!("complete")),
            "{r}"
        );
        assert_eq!(text_of(&r), expected);
        assert_eq!(r["result"]["isError"], false);
    }

    // Every primitive kind, decimals included; then content that breaks the form, named.
    let r = s.call(call(20, "survey", json!({}), None));
    let props = &r["result"]["inputRequests"]["form"]["params"]["requestedSchema"]["properties"];
    assert_eq!(props["toppings"]["type"], "array", "{r}");
    let content = json!({"name": "Ada", "age": 36, "heightM": 1.75, "subscribe": true, "color": "Green", "toppings": ["Cheese"]});
    let answer = |content: &Value| Some(json!({"form": {"action": "accept", "content": content}}));
    let r = s.call(call(21, "survey", json!({}), answer(&content)));
    assert_eq!(
        text_of(&r),
        "Ada, 36 years, 1.75 m, subscribe: true, Green, [Cheese]"
    );
    for (field, bad) in [
        ("age", json!(200)),
        ("heightM", json!("tall")),
        ("toppings", json!(["Cheese", "Ham"])),
    ] {
        let mut content = content.clone();
        content[field] = bad;
        let r = s.call(call(22, "survey", json!({}), answer(&content)));
        assert_eq!(r["result"]["isError"], true, "{r}");
        assert!(text_of(&r).contains(&format!("`{field}`")), "{field}: {r}");
    }
    // A date that is no date.
    let bad = json!({"action": "accept", "content": {"checkAlternative": true, "alternativeDate": "2026-13-01"}});
    let r = s.call(call(23, "book_table", full, Some(json!({"form": bad}))));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(text_of(&r).contains("`alternativeDate`"), "{r}");

    // A revision the server does not serve: -32022 with what it supports.
    let mut old = meta.clone();
    old["io.modelcontextprotocol/protocolVersion"] = json!("2099-01-01");
    let r = s.call(
        json!({"jsonrpc": "2.0", "id": 30, "method": "tools/list", "params": {"_meta": old}}),
    );
    assert_eq!(
        (r["id"].clone(), r["error"]["code"].clone()),
        (json!(30), json!(-32022)),
        "{r}"
    );
    assert_eq!(
        r["error"]["data"],
        json!({"requested": "2099-01-01", "supported": ["2026-07-28"]})
    );
    // Without `initialize`, a request must carry the 2026-07-28 `_meta`: the error names it.
    let r = s.call(json!({"jsonrpc": "2.0", "id": 31, "method": "tools/call", "params": {"name": "survey", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}));
    assert_eq!(
        (r["id"].clone(), r["error"]["code"].clone()),
        (json!(31), json!(-32602)),
        "{r}"
    );
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("clientCapabilities"),
        "{r}"
    );
}

#[test]
fn unreadable_messages_get_the_error_a_receiver_owes() {
    let mut s = Server::start();
    // JSON that is no message: -32600 with a null id.
    let r = s.call(json!(["not", "an", "object"]));
    assert_eq!(
        (r["id"].clone(), r["error"]["code"].clone()),
        (Value::Null, json!(-32600)),
        "{r}"
    );
    s.send("{not json");
    let r = s.recv();
    assert_eq!(
        (r["id"].clone(), r["error"]["code"].clone()),
        (Value::Null, json!(-32700)),
        "{r}"
    );
    // A known method with params that do not fit: its id and -32602.
    let r = s.call(json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {}}));
    assert_eq!(
        (r["id"].clone(), r["error"]["code"].clone()),
        (json!(9), json!(-32602)),
        "{r}"
    );
    assert!(
        r["error"]["message"].as_str().unwrap().contains("`name`"),
        "{r}"
    );
    // A method the server does not have.
    let r = s.call(json!({"jsonrpc": "2.0", "id": "x", "method": "vendor/thing"}));
    assert_eq!(
        (r["id"].clone(), r["error"]["code"].clone()),
        (json!("x"), json!(-32601)),
        "{r}"
    );
    let r = s.call(tool_call(10, "nope", json!({})));
    assert_eq!(r["error"]["code"], -32602, "{r}");
}
