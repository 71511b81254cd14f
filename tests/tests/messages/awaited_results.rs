//! Results decoded in the same pass as their response (`from_json_awaiting`): the value is the
//! one `result_as` decodes from the text, the message is the one `from_json` gives, and
//! every input `from_json` accepts or refuses is accepted or refused alike, with the same
//! error.

use mcp_tests::workspace;
use mcp_typed::runtime::{Awaiting, Awaits, RequestMethod, ResultType};
use mcp_typed::v2025_11_25::*;
use serde_json::Value;

/// The one-pass decode of `text` awaiting `awaiting`, checked against `from_json`: the same
/// verdict, the same error, the same message (a result's text included).
fn both(text: &str, awaiting: &dyn Awaits<RequestId>) -> Option<ServerMessage> {
    let later = ServerMessage::from_json(text);
    let now = ServerMessage::from_json_awaiting(text, awaiting);
    match (later, now) {
        (Ok(later), Ok(now)) => {
            assert_eq!(later, now, "{text}");
            Some(now)
        }
        (Err(later), Err(now)) => {
            assert_eq!(later.to_string(), now.to_string(), "{text}");
            None
        }
        (later, now) => panic!("{text}: from_json {later:?}, awaiting {now:?}"),
    }
}

fn response(text: &str, awaiting: &dyn Awaits<RequestId>) -> ResultResponse {
    match both(text, awaiting) {
        Some(ServerMessage::Response(r)) => r,
        other => panic!("{text}: {other:?}"),
    }
}

fn awaiting(pending: &[(i64, ResultType)]) -> Awaiting<RequestId> {
    let mut a = Awaiting::new();
    for (id, t) in pending {
        a.insert_type(RequestId::Integer(*id), *t);
    }
    a
}

const TOOLS: &str = r#"{"tools":[{"name":"add","inputSchema":{"type":"object"}}]}"#;

#[test]
fn a_result_awaited_is_decoded_as_it_is_read_and_taken_without_a_second_reading() {
    let list = ResultType::of::<ListToolsRequest>();
    let pending = awaiting(&[(3, list)]);
    // `id` before `result` (Python SDK) and after it (TypeScript SDK: the guess, kept).
    for text in [
        format!(r#"{{"jsonrpc":"2.0","id":3,"result":{TOOLS}}}"#),
        format!(r#"{{"result":{TOOLS},"jsonrpc":"2.0","id":3}}"#),
    ] {
        let r = response(&text, &pending);
        assert_eq!(r.result.get(), TOOLS, "the text is kept as it came");
        let decoded = r.result.decoded::<ListToolsResult>().expect("decoded");
        assert_eq!(decoded.tools[0].name, "add");
        assert_eq!(
            r.result_as::<ListToolsRequest>().unwrap(),
            *decoded,
            "result_as gives the value decoded"
        );
        assert_eq!(
            r.clone().into_result_as::<ListToolsRequest>().unwrap(),
            ListToolsRequest::result_from_json(TOOLS).unwrap()
        );
        assert!(r.result.decoded::<CallToolResult>().is_none());
    }
}

#[test]
fn a_result_before_its_id_without_a_guess_or_with_a_wrong_one_is_decoded_as_the_id_says() {
    // Two requests of different result types in flight: no guess is made before the id, and
    // the result is read again once the id says which.
    let two = awaiting(&[
        (1, ResultType::of::<ListToolsRequest>()),
        (2, ResultType::of::<CallToolRequest>()),
    ]);
    assert_eq!(two.guess(), None);
    let text = r#"{"result":{"content":[]},"jsonrpc":"2.0","id":2}"#;
    let r = response(text, &two);
    assert!(r.result.decoded::<CallToolResult>().is_some());
    assert!(r.result_as::<CallToolRequest>().unwrap().content.is_empty());

    // A guess (every request awaited shares a type) that the id then contradicts: an
    // `Awaits` whose guess is wrong, as a hand-written one may be.
    struct Wrong;
    impl Awaits<RequestId> for Wrong {
        fn result_type(&self, _: &RequestId) -> Option<ResultType> {
            Some(ResultType::of::<CallToolRequest>())
        }
        fn guess(&self) -> Option<ResultType> {
            Some(ResultType::of::<PingRequest>())
        }
    }
    let r = response(text, &Wrong);
    assert!(r.result.decoded::<EmptyResult>().is_none());
    assert!(
        r.result.decoded::<CallToolResult>().is_some(),
        "decoded again"
    );
}

#[test]
fn a_result_not_awaited_or_not_of_the_type_awaited_stays_text_and_the_verdict_holds() {
    let call = awaiting(&[(1, ResultType::of::<CallToolRequest>())]);
    // Another id: not awaited (and the guess, made before the id, dropped).
    for text in [
        r#"{"jsonrpc":"2.0","id":9,"result":{"content":[]}}"#,
        r#"{"result":{"content":[]},"jsonrpc":"2.0","id":9}"#,
        r#"{"result":{"content":[]},"jsonrpc":"2.0","id":"1"}"#,
    ] {
        let r = response(text, &call);
        assert!(r.result.decoded::<CallToolResult>().is_none(), "{text}");
    }
    // Not a `CallToolResult`: accepted as from_json accepts it, the error left to the
    // caller's typing, word for word as from the text.
    let text = r#"{"jsonrpc":"2.0","id":1,"result":{"content":7}}"#;
    let r = response(text, &call);
    assert!(r.result.decoded::<CallToolResult>().is_none());
    let e = r.result_as::<CallToolRequest>().unwrap_err();
    assert_eq!(
        e.to_string(),
        CallToolRequest::result_from_json(r#"{"content":7}"#)
            .unwrap_err()
            .to_string()
    );
    // Text that is not JSON inside the result, or after it: refused as from_json refuses
    // it (`both` compares the errors).
    for text in [
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]},}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}} x"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]},"jsonrpc":"2.0"}"#,
        r#"{"jsonrpc":"1.0","id":1,"result":{"content":[]}}"#,
        r#"{"jsonrpc":"2.0","result":{"content":[]}}"#,
    ] {
        assert!(both(text, &call).is_none(), "{text}");
    }
}

#[test]
fn nesting_is_counted_from_the_result_as_when_it_is_typed_from_its_text() {
    // A value nested 125 levels inside `_meta` (the result's object and `_meta` make 127):
    // within serde_json's limit counted from the result, beyond it counted from the message.
    let deep = |levels: usize| {
        format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[],"_meta":{{"x":{}{}}}}}}}"#,
            "[".repeat(levels),
            "]".repeat(levels)
        )
    };
    let call = awaiting(&[(1, ResultType::of::<CallToolRequest>())]);
    let r = response(&deep(125), &call);
    assert!(r.result.decoded::<CallToolResult>().is_some());
    assert!(r.result_as::<CallToolRequest>().is_ok());
    // One more: kept as text, as from_json keeps it, and refused when typed, as before.
    let r = response(&deep(126), &call);
    assert!(r.result.decoded::<CallToolResult>().is_none());
    assert!(
        (r.result_as::<CallToolRequest>().unwrap_err().to_string())
            .contains("recursion limit exceeded")
    );
}

#[test]
fn members_besides_the_result_are_kept_with_a_decoded_result() {
    let call = awaiting(&[(1, ResultType::of::<CallToolRequest>())]);
    let text = r#"{"result":{"content":[]},"x":[1],"jsonrpc":"2.0","id":1}"#;
    let r = response(text, &call);
    assert!(r.result.decoded::<CallToolResult>().is_some());
    assert_eq!(r.extra["x"], serde_json::json!([1]));
    assert_eq!(serde_json::to_string(&r).unwrap(), {
        r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]},"x":[1]}"#
    });
}

/// `(dir, message text)` of a captured real-traffic file.
fn captured(file: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(workspace().join("tests/fixtures/real-traffic").join(file))
        .unwrap();
    text.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["dir"].as_str().unwrap().to_owned(), v["msg"].to_string())
        })
        .collect()
}

/// Awaits `R`'s result for `id` and checks, once the response is decoded, that the value
/// decoded in the pass is the one `result_as` reads from the text.
fn check_as<R>(r: &ResultResponse) -> bool
where
    R: RequestMethod,
    R::Result: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug + 'static,
{
    match r.result.decoded::<R::Result>() {
        Some(v) => {
            assert_eq!(*v, R::result_from_json(r.result.get()).unwrap());
            true
        }
        None => false,
    }
}

#[test]
fn real_traffic_results_decode_in_the_pass_to_what_result_as_reads() {
    // Every 2025-11-25 capture: each request the client sent is awaited with its method's
    // result type, the server's responses decoded with the awaited results, in the order
    // they came (the TypeScript SDK's servers write `result` before `id`).
    let (mut typed, mut responses) = (0, 0);
    for file in [
        "py-client-everything-2025-11-25.jsonl",
        "py-client-py-server-2025-11-25.jsonl",
        "ts-client-everything-2025-11-25.jsonl",
        "ts-client-py-server-2025-11-25.jsonl",
    ] {
        let mut pending = Awaiting::new();
        let mut checks: Vec<(RequestId, fn(&ResultResponse) -> bool)> = Vec::new();
        for (dir, text) in captured(file) {
            if dir == "c2s" {
                let Ok(ClientMessage::Request(request)) = ClientMessage::from_json(&text) else {
                    continue;
                };
                let id = ClientMessage::request_id(&request).unwrap();
                let task = serde_json::from_str::<Value>(&text).unwrap()["params"]
                    .get("task")
                    .is_some();
                let (t, check): (ResultType, fn(&ResultResponse) -> bool) = match request {
                    // Task-augmented (the TypeScript client also sends `task` on `tasks/get`,
                    // which does not take it).
                    ClientRequest::CallTool(_) if task => {
                        (ResultType::decoding::<CreateTaskResult>(), |r| {
                            r.result.decoded::<CreateTaskResult>().is_some()
                        })
                    }
                    ClientRequest::Initialize(_) => (
                        ResultType::of::<InitializeRequest>(),
                        check_as::<InitializeRequest>,
                    ),
                    ClientRequest::ListTools(_) => (
                        ResultType::of::<ListToolsRequest>(),
                        check_as::<ListToolsRequest>,
                    ),
                    ClientRequest::CallTool(_) => (
                        ResultType::of::<CallToolRequest>(),
                        check_as::<CallToolRequest>,
                    ),
                    ClientRequest::ListPrompts(_) => (
                        ResultType::of::<ListPromptsRequest>(),
                        check_as::<ListPromptsRequest>,
                    ),
                    ClientRequest::GetPrompt(_) => (
                        ResultType::of::<GetPromptRequest>(),
                        check_as::<GetPromptRequest>,
                    ),
                    ClientRequest::ListResources(_) => (
                        ResultType::of::<ListResourcesRequest>(),
                        check_as::<ListResourcesRequest>,
                    ),
                    ClientRequest::ReadResource(_) => (
                        ResultType::of::<ReadResourceRequest>(),
                        check_as::<ReadResourceRequest>,
                    ),
                    ClientRequest::Complete(_) => (
                        ResultType::of::<CompleteRequest>(),
                        check_as::<CompleteRequest>,
                    ),
                    ClientRequest::GetTask(_) => (
                        ResultType::of::<GetTaskRequest>(),
                        check_as::<GetTaskRequest>,
                    ),
                    ClientRequest::ListTasks(_) => (
                        ResultType::of::<ListTasksRequest>(),
                        check_as::<ListTasksRequest>,
                    ),
                    ClientRequest::CancelTask(_) => (
                        ResultType::of::<CancelTaskRequest>(),
                        check_as::<CancelTaskRequest>,
                    ),
                    ClientRequest::Ping(_) => {
                        (ResultType::of::<PingRequest>(), check_as::<PingRequest>)
                    }
                    ClientRequest::ListResourceTemplates(_) => (
                        ResultType::of::<ListResourceTemplatesRequest>(),
                        check_as::<ListResourceTemplatesRequest>,
                    ),
                    ClientRequest::SetLevel(_) => (
                        ResultType::of::<SetLevelRequest>(),
                        check_as::<SetLevelRequest>,
                    ),
                    _ => continue,
                };
                pending.insert_type(id.clone(), t);
                checks.push((id, check));
            } else if let Some(ServerMessage::Response(r)) = both(&text, &pending) {
                responses += 1;
                if let Some(at) = checks.iter().position(|(id, _)| *id == r.id) {
                    let (_, check) = checks.swap_remove(at);
                    pending.remove(&r.id);
                    assert!(check(&r), "{file}: not decoded in the pass: {text}");
                    typed += 1;
                }
            }
        }
    }
    // Every response to a request awaited above was typed in the pass (and there are many).
    assert!(typed >= 150, "{typed} of {responses} responses typed");
    eprintln!("{typed} of {responses} responses typed in the pass");
}
