//! `mcp_typed::rmcp`: conversions between rmcp's model and the generated types, on the
//! official examples and on real traffic, and the rmcp pitfalls they keep out of what we send.

use std::collections::BTreeMap;

use mcp_typed::convert::ConversionError;
use mcp_typed::elicit::UrlElicitation;
use mcp_typed::rmcp::{from_rmcp, to_rmcp};
use mcp_typed::{Elicit, ProtocolVersion, v2025_11_25 as v11, v2026_07_28 as v07};
use rmcp::model as r;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// `value` read as `Ours`, moved to rmcp's `R` and back with the `TryFrom` impls; the JSON it
/// comes back as.
fn through_try_from<Ours, R>(value: &Value) -> Result<Value, ConversionError>
where
    Ours: DeserializeOwned + Serialize + TryFrom<R, Error = ConversionError>,
    R: TryFrom<Ours, Error = ConversionError>,
{
    let ours: Ours = serde_json::from_value(value.clone()).expect("a valid value");
    let back = Ours::try_from(R::try_from(ours)?)?;
    Ok(serde_json::to_value(back).unwrap())
}

/// The same through [`to_rmcp`]/[`from_rmcp`], for pairs without a `TryFrom`.
fn through<Ours, R>(value: &Value) -> Result<Value, ConversionError>
where
    Ours: DeserializeOwned + Serialize + mcp_typed::runtime::Decode,
    R: DeserializeOwned + Serialize,
{
    let ours: Ours = serde_json::from_value(value.clone()).expect("a valid value");
    let rmcp: R = to_rmcp(&ours)?;
    let back: Ours = from_rmcp(&rmcp)?;
    Ok(serde_json::to_value(back).unwrap())
}

type Convert = fn(&Value) -> Result<Value, ConversionError>;

/// Every conversion gives the value back exactly, or is refused naming where rmcp would lose
/// it; returns the refusals as `"what: pointer: message"`.
fn check_all(cases: impl IntoIterator<Item = (String, Value, Convert)>) -> (usize, Vec<String>) {
    let (mut n, mut refused) = (0, Vec::new());
    for (what, value, convert) in cases {
        n += 1;
        match convert(&value) {
            Ok(back) => assert_eq!(back, value, "{what}: not given back"),
            Err(e) => refused.push(format!("{what}: {e}")),
        }
    }
    (n, refused)
}

#[test]
fn official_2026_07_28_examples_round_trip_through_rmcp() {
    let cases = mcp_tests::spec_examples("2026-07-28")
        .into_iter()
        .filter_map(|(def, file, value)| {
            let convert: Convert = match def.as_str() {
                "CallToolRequestParams" => {
                    through_try_from::<v07::CallToolRequestParams, r::CallToolRequestParams>
                }
                "CallToolResult" => through_try_from::<v07::CallToolResult, r::CallToolResult>,
                "Tool" => through_try_from::<v07::Tool, r::Tool>,
                "ElicitResult" => through_try_from::<v07::ElicitResult, r::ElicitResult>,
                "TextContent" | "ImageContent" | "AudioContent" | "EmbeddedResource"
                | "ResourceLink" => through_try_from::<v07::ContentBlock, r::ContentBlock>,
                _ => return None,
            };
            Some((format!("{def}/{file}"), value, convert))
        });
    let (n, refused) = check_all(cases);
    println!("{n} examples, refused: {refused:#?}");
    assert_eq!(n, 20);
    assert_eq!(refused, Vec::<String>::new());
}

#[test]
fn real_2025_11_25_traffic_round_trips_through_rmcp() {
    let mut cases: Vec<(String, Value, Convert)> = Vec::new();
    let dir = mcp_tests::workspace().join("tests/fixtures/real-traffic");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with("-2025-11-25.jsonl"))
        .collect();
    files.sort();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let mut methods = BTreeMap::new(); // request id (and direction) → method
        for line in std::fs::read_to_string(file).unwrap().lines() {
            let line: Value = serde_json::from_str(line).unwrap();
            let (dir, msg) = (line["dir"].as_str().unwrap(), &line["msg"]);
            let what = |m: &str| format!("{m} in {name} {dir} #{}", msg["id"]);
            if let Some(method) = msg["method"].as_str() {
                methods.insert((dir == "c2s", msg["id"].to_string()), method.to_owned());
                let convert: Convert = match method {
                    "initialize" => {
                        through_try_from::<v11::InitializeRequestParams, r::InitializeRequestParams>
                    }
                    "tools/call" => through::<v11::CallToolRequestParams, r::CallToolRequestParams>,
                    _ => continue,
                };
                cases.push((what(method), msg["params"].clone(), convert));
            } else if let Some(result) = msg.get("result") {
                let asked_by_client = dir == "s2c";
                let Some(method) = methods.get(&(asked_by_client, msg["id"].to_string())) else {
                    continue;
                };
                if result.get("task").is_some() {
                    continue; // a task-augmented request's CreateTaskResult
                }
                match method.as_str() {
                    "initialize" => cases.push((
                        what(method),
                        result.clone(),
                        through_try_from::<v11::InitializeResult, r::InitializeResult>,
                    )),
                    "tools/call" => cases.push((
                        what(method),
                        result.clone(),
                        through::<v11::CallToolResult, r::CallToolResult>,
                    )),
                    "tools/list" => {
                        for tool in result["tools"].as_array().unwrap() {
                            cases.push((
                                format!("{} {}", what(method), tool["name"]),
                                tool.clone(),
                                through::<v11::Tool, r::Tool>,
                            ));
                        }
                    }
                    "elicitation/create" => cases.push((
                        what(method),
                        result.clone(),
                        through::<v11::ElicitResult, r::ElicitResult>,
                    )),
                    _ => {}
                }
            }
        }
    }
    let (n, refused) = check_all(cases);
    println!("{n} values, refused: {refused:#?}");
    assert_eq!(n, 234);
    // What rmcp's model (2026-07-28, which has no tasks) cannot carry of 2025-11-25, by
    // method: the value is refused naming it, never sent without it.
    let mut by_kind = BTreeMap::new();
    for r in &refused {
        let (method, rest) = r.split_once(" in ").unwrap();
        let (_, error) = rest.split_once(": ").unwrap();
        *by_kind.entry(format!("{method}: {error}")).or_insert(0) += 1;
    }
    let no_place = "rmcp's model has no place for this member";
    assert_eq!(
        by_kind,
        BTreeMap::from([
            (format!("initialize: /capabilities/tasks: {no_place}"), 4),
            (format!("tools/call: /task: {no_place}"), 1),
            (
                "tools/call: /content/0/annotations/priority: rmcp's model gives 1.0 back for 1"
                    .to_owned(),
                2
            ),
            (format!("tools/list: /execution: {no_place}"), 36),
        ])
    );
}

/// rmcp keeps `f32` fields; our conversion reads rmcp's JSON text, so their digits are kept.
#[test]
fn f32_fields_keep_their_digits() {
    let text = r#"{"type":"text","text":"hi","annotations":{"audience":["user"],"priority":0.8}}"#;
    let rmcp: r::ContentBlock = serde_json::from_str(text).unwrap();
    // The pitfall: a `Value` of rmcp's type widens the number.
    assert_eq!(
        serde_json::to_value(&rmcp).unwrap()["annotations"]["priority"],
        json!(0.800000011920929)
    );
    let ours = v07::ContentBlock::try_from(rmcp.clone()).unwrap();
    assert_eq!(
        serde_json::to_value(&ours).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );
    assert!(
        serde_json::to_string(&ours)
            .unwrap()
            .contains(r#""priority":0.8}"#)
    );
    assert_eq!(r::ContentBlock::try_from(ours).unwrap(), rmcp);
}

/// What rmcp's model would add, drop or rewrite is refused by name, never sent.
#[test]
fn what_rmcp_would_change_is_refused_naming_the_member() {
    // rmcp writes `mode: "form"` into elicitation params; 2025-06-18 has no `mode`.
    let params = Guests::form_params("How many?", ProtocolVersion::V2025_06_18).unwrap();
    let e = to_rmcp::<r::ElicitRequestParams>(&params).unwrap_err();
    assert_eq!(e.pointer, "/mode");
    assert!(e.message.contains("adds this member"), "{e}");
    // The same form in 2025-11-25 has `mode`, and rmcp keeps it as it is.
    let params = Guests::form_params("How many?", ProtocolVersion::V2025_11_25).unwrap();
    let rmcp = to_rmcp::<r::ElicitRequestParams>(&params).unwrap();
    assert_eq!(
        serde_json::to_string(&rmcp).unwrap(),
        params.to_value().to_string()
    );

    // 2026-07-28's URL mode has no `elicitationId`; rmcp writes an empty one.
    let url = UrlElicitation::new("e-1", "https://pay.example/checkout", "Pay here").unwrap();
    let e = to_rmcp::<r::ElicitRequestParams>(&url.params(ProtocolVersion::V2026_07_28).unwrap())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        r#"/elicitationId: rmcp's model adds this member ("")"#
    );
    // In 2025-11-25 it has one, and rmcp keeps it.
    let params = url.params(ProtocolVersion::V2025_11_25).unwrap();
    let rmcp = to_rmcp::<r::ElicitRequestParams>(&params).unwrap();
    assert_eq!(serde_json::to_value(&rmcp).unwrap(), params.to_value());

    // An answer rmcp decoded reads strictly, as ours.
    let answer: r::ElicitResult =
        serde_json::from_str(r#"{"action":"accept","content":{"count":3}}"#).unwrap();
    let answer = v07::ElicitResult::try_from(answer).unwrap();
    let guests = Guests::outcome(&answer).unwrap().accepted().unwrap();
    assert_eq!(guests.count, 3);
    let answer: r::ElicitResult =
        serde_json::from_str(r#"{"action":"accept","content":{"count":30}}"#).unwrap();
    let answer = v07::ElicitResult::try_from(answer).unwrap();
    assert_eq!(
        Guests::outcome(&answer).unwrap_err().to_string(),
        "invalid elicitation content: field `count`: 30 is out of range (1..=12)"
    );

    // Integers stay integers: rmcp's `progress` is an f64.
    let progress = json!({"progressToken": 7, "progress": 50, "total": 100});
    let ours: v11::ProgressNotificationParams = serde_json::from_value(progress).unwrap();
    let e = to_rmcp::<r::ProgressNotificationParam>(&ours).unwrap_err();
    assert_eq!(
        e.to_string(),
        "/progress: rmcp's model gives 50.0 back for 50"
    );

    // A vendor member rmcp's `Tool` has no place for.
    let tool = json!({"name": "t", "inputSchema": {"type": "object"}, "x-vendor": {"a": 1}});
    let ours: v07::Tool = serde_json::from_value(tool.clone()).unwrap();
    let e = r::Tool::try_from(ours).unwrap_err();
    assert_eq!(e.pointer, "/x-vendor");
    assert!(e.message.contains("no place"), "{e}");
}

/// From rmcp, what breaks the revision is named.
#[test]
fn rmcp_values_that_break_the_revision_are_named() {
    // A result for an older session: rmcp leaves out `resultType`, which 2026-07-28 requires.
    let mut result = r::CallToolResult::success(vec![r::ContentBlock::text("done")]);
    result.result_type = None;
    let e = v07::CallToolResult::try_from(result.clone()).unwrap_err();
    assert_eq!(e.pointer, "");
    assert!(e.message.contains("resultType"), "{e}");
    // ... and which 2025-11-25 does not have.
    let ours: v11::CallToolResult = from_rmcp(&result).unwrap();
    assert_eq!(
        serde_json::to_value(ours).unwrap(),
        json!({"content": [{"type": "text", "text": "done"}], "isError": false})
    );
}

#[derive(Elicit, Debug)]
struct Guests {
    #[elicit(minimum = 1, maximum = 12)]
    count: u8,
}

/// An rmcp client's `create_elicitation` answered through the client model: rmcp's params
/// become a `Form` (a titled select keeps its titles), the answer is checked against it, and
/// rmcp's `ElicitResult` comes back; a form the model refuses is `-32602`, an answer that
/// does not fit it `-32603`.
#[tokio::test]
async fn an_rmcp_client_answers_elicitation_through_the_model() {
    use mcp_typed::elicit::client::{FieldKind, FormReply};
    use mcp_typed::rmcp::{ReceivedElicitation, answer_elicitation};
    let request: r::ElicitRequestParams = serde_json::from_value(json!({
        "mode": "form",
        "message": "Pick",
        "requestedSchema": {"type": "object", "properties": {
            "hero": {"type": "string", "oneOf": [{"const": "b", "title": "Batman"}, {"const": "s", "title": "Superman"}]},
            "count": {"type": "integer", "minimum": 1, "default": 2}
        }, "required": ["hero"]}
    }))
    .unwrap();
    let result = answer_elicitation(
        &request,
        ProtocolVersion::V2025_11_25,
        |received| async move {
            let ReceivedElicitation::Form(form) = received else {
                panic!("a form")
            };
            let hero = form.field("hero").unwrap();
            let FieldKind::SingleSelect { options, .. } = &hero.kind else {
                panic!("a select")
            };
            assert_eq!(options[1].label(), "Superman");
            let mut answer = form.answer();
            answer.parse("hero", "Superman").unwrap();
            answer.accept().unwrap()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"action": "accept", "content": {"count": 2, "hero": "s"}})
    );
    // The UI's answer is checked: content that does not fit the form is an error, not sent.
    let e = answer_elicitation(&request, ProtocolVersion::V2025_11_25, |_| async {
        FormReply::Accept(serde_json::from_value(json!({"hero": "joker"})).unwrap())
    })
    .await
    .unwrap_err();
    assert_eq!(e.code.0, -32603);
    assert!(e.message.contains("hero"), "{}", e.message);
    // URL mode: the UI gets the URL request; declining is the reply.
    let url: r::ElicitRequestParams = serde_json::from_value(json!({
        "mode": "url", "elicitationId": "e", "url": "https://pay.example/x", "message": "Pay"
    }))
    .unwrap();
    let result = answer_elicitation(&url, ProtocolVersion::V2025_11_25, |received| async move {
        let ReceivedElicitation::Url(url) = received else {
            panic!("a URL")
        };
        assert_eq!(url.parts().host, "pay.example");
        url.decline()
    })
    .await
    .unwrap();
    assert_eq!(
        serde_json::to_value(&result).unwrap(),
        json!({"action": "decline"})
    );
}
