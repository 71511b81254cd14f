//! `tests/examples/booking-server.rs`, driven over a pipe as a client would: every tool, the
//! form round trip with accept, decline and cancel, and the errors a receiver owes.

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

    // A free day is booked at once.
    let r = s.call(tool_call(3, "book_table", json!({"date": "2026-12-25"})));
    assert_eq!(
        (r["id"].clone(), text_of(&r)),
        (json!(3), "Booked a table for 2026-12-25.")
    );

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
