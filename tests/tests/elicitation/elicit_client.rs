//! The client side of elicitation against what real servers and the spec send: every form in
//! the captured traffic and the official examples reads into `elicit::client::Form`, every
//! answer a real client sent validates against its form; schemas a client cannot show are
//! refused with the property's pointer; URL mode opens nothing before consent.

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_tests::workspace;
use mcp_typed::ProtocolVersion;
use mcp_typed::elicit::client::{
    Consent, FieldKind, Form, FormReply, Rewrite, SelectStyle, UrlRequest, UrlWarning,
};
use serde_json::{Map, Value, json};

fn version_of(file: &Path) -> ProtocolVersion {
    let name = file.file_name().unwrap().to_string_lossy();
    ProtocolVersion::ALL
        .iter()
        .rev()
        .copied()
        .find(|v| name.contains(v.as_str()))
        .unwrap_or_else(ProtocolVersion::latest)
}

fn jsonl(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files
}

/// Forms and answers in one captured session: `elicitation/create` requests matched to their
/// responses by id, 2026-07-28 input requests matched to the retry's input responses by key.
#[derive(Default)]
struct Seen {
    forms: usize,
    urls: usize,
    answers: usize,
}

fn check_session(file: &Path, seen: &mut Seen) {
    let version = version_of(file);
    let text = std::fs::read_to_string(file).unwrap();
    let mut by_id: BTreeMap<String, Form> = BTreeMap::new();
    let mut by_key: BTreeMap<String, Form> = BTreeMap::new();
    let read = |params: &Value, seen: &mut Seen| -> Option<Form> {
        if params.get("mode").and_then(Value::as_str) == Some("url") {
            UrlRequest::from_params(params).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            seen.urls += 1;
            return None;
        }
        let form = Form::from_params(params, version)
            .unwrap_or_else(|e| panic!("{}: {e}\n{params}", file.display()));
        seen.forms += 1;
        Some(form)
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        // `bad-lines-*.jsonl` holds deliberately broken lines.
        let Ok(entry) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let msg = entry.get("msg").unwrap_or(&entry);
        if msg["method"] == "elicitation/create"
            && let Some(form) = read(&msg["params"], seen)
        {
            by_id.insert(msg["id"].to_string(), form);
        }
        if let Some(Value::Object(requests)) = msg.pointer("/result/inputRequests") {
            for (key, request) in requests {
                if request["method"] == "elicitation/create"
                    && let Some(form) = read(&request["params"], seen)
                {
                    by_key.insert(key.clone(), form);
                }
            }
        }
        let mut answer = |form: &Form, result: &Value| {
            if result["action"] == "accept"
                && let Some(Value::Object(content)) = result.get("content")
            {
                form.validate(content).unwrap_or_else(|e| {
                    panic!("{}: a real answer refused: {e}\n{result}", file.display())
                });
                seen.answers += 1;
            }
        };
        if let Some(form) = msg.get("id").and_then(|id| by_id.get(&id.to_string()))
            && let Some(result) = msg.get("result")
        {
            answer(form, result);
        }
        if let Some(Value::Object(responses)) = msg.pointer("/params/inputResponses") {
            for (key, result) in responses {
                if let Some(form) = by_key.get(key) {
                    answer(form, result);
                }
            }
        }
    }
}

#[test]
fn every_captured_form_reads_and_every_real_answer_validates() {
    let root = workspace().join("tests/fixtures");
    let mut seen = Seen::default();
    for dir in ["real-traffic", "traffic"] {
        for file in jsonl(&root.join(dir)) {
            check_session(&file, &mut seen);
        }
    }
    // Counted on the fixtures of 2026-11-25: forms from server-everything and the Python SDK
    // server at every revision with elicitation, answered by both SDK clients.
    assert!(seen.forms >= 60, "{} forms", seen.forms);
    assert!(seen.answers >= 30, "{} answers", seen.answers);
    eprintln!(
        "{} forms, {} URL requests, {} accepted answers",
        seen.forms, seen.urls, seen.answers
    );
}

#[test]
fn every_official_example_reads() {
    let spec = workspace().join("../shared/mcp-spec");
    let mut read = 0;
    for revision in ["2026-07-28", "draft"] {
        let examples = spec.join(revision).join("examples");
        for (definition, file) in [
            ("ElicitRequestFormParams", "elicit-single-field.json"),
            ("ElicitRequestFormParams", "elicit-multiple-fields.json"),
        ] {
            let value: Value = serde_json::from_str(
                &std::fs::read_to_string(examples.join(definition).join(file)).unwrap(),
            )
            .unwrap();
            let form = Form::from_params(&value, ProtocolVersion::V2026_07_28)
                .unwrap_or_else(|e| panic!("{revision} {file}: {e}"));
            assert!(!form.fields().is_empty());
            read += 1;
        }
        let request: Value = serde_json::from_str(
            &std::fs::read_to_string(examples.join("ElicitRequest/elicitation-request.json"))
                .unwrap(),
        )
        .unwrap();
        Form::from_params(&request["params"], ProtocolVersion::V2026_07_28).unwrap();
        let url: Value = serde_json::from_str(
            &std::fs::read_to_string(
                examples.join("ElicitRequestURLParams/elicit-sensitive-data.json"),
            )
            .unwrap(),
        )
        .unwrap();
        let url = UrlRequest::from_params(&url).unwrap();
        assert!(url.parts().host.contains('.'));
        // Input requests hold forms too; their answers (`ElicitResult` examples) fit them.
        let input: Value = serde_json::from_str(
            &std::fs::read_to_string(
                examples.join("InputRequests/elicitation-and-sampling-input-requests.json"),
            )
            .unwrap(),
        )
        .unwrap();
        for request in input.as_object().unwrap().values() {
            if request["method"] == "elicitation/create" {
                Form::from_params(&request["params"], ProtocolVersion::V2026_07_28).unwrap();
                read += 1;
            }
        }
    }
    assert!(read >= 6, "{read}");
}

#[test]
fn the_model_holds_what_the_schema_says() {
    let params = json!({
        "message": "Tell us",
        "requestedSchema": {"type": "object", "properties": {
            "email": {"type": "string", "format": "email", "title": "E-mail", "maxLength": 40},
            "age": {"type": "integer", "minimum": 0, "maximum": 150, "default": 30},
            "ratio": {"type": "number", "minimum": 0.5},
            "news": {"type": "boolean", "default": false},
            "size": {"type": "string", "enum": ["s", "m"], "enumNames": ["Small", "Medium"]},
            "hero": {"type": "string", "oneOf": [{"const": "b", "title": "Batman"}]},
            "pets": {"type": "array", "items": {"anyOf": [{"const": "cat", "title": "Cat"}, {"const": "dog", "title": "Dog"}]}, "maxItems": 1}
        }, "required": ["email", "hero"]}
    });
    let form = Form::from_params(&params, ProtocolVersion::V2025_06_18).unwrap();
    let names: Vec<&str> = form.fields().iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["email", "age", "ratio", "news", "size", "hero", "pets"]
    );
    let email = form.field("email").unwrap();
    assert!(email.required);
    assert_eq!(email.label(), "E-mail");
    assert!(matches!(
        email.kind,
        FieldKind::Text {
            max_length: Some(40),
            ..
        }
    ));
    let size = form.field("size").unwrap();
    assert!(matches!(
        &size.kind,
        FieldKind::SingleSelect { style: SelectStyle::LegacyTitled, options } if options[1].label() == "Medium"
    ));
    // 2025-06-18 pre-fills booleans only; 2025-11-25 every field with a default.
    let answer = form.answer();
    assert_eq!(answer.get("news"), Some(&json!(false)));
    assert_eq!(answer.get("age"), None);
    let newer = Form::from_params(&params, ProtocolVersion::V2025_11_25).unwrap();
    assert_eq!(newer.answer().get("age"), Some(&json!(30)));

    // Setters refuse the wrong kind; parse reads what a person types.
    let mut answer = newer.answer();
    assert!(answer.set_integer("email", 3).is_err());
    assert!(answer.set_choice("hero", "x").is_err());
    assert!(answer.set_text("nope", "x").is_err());
    answer
        .set_text("email", "ada@example.com")
        .unwrap()
        .parse("hero", "Batman")
        .unwrap()
        .parse("pets", "Cat, Dog")
        .unwrap()
        .parse("news", "yes")
        .unwrap();
    assert_eq!(answer.get("hero"), Some(&json!("b")));
    let e = answer.validate().unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid elicitation content: field `pets`: 2 selected, at most 1 allowed"
    );
    assert!(answer.check("pets").is_err() && answer.check("email").is_ok());
    answer.set_choices("pets", ["dog"]).unwrap();
    let reply = answer.accept().unwrap();
    assert_eq!(
        reply.to_value(),
        json!({"action": "accept", "content": {
            "age": 30, "news": true, "email": "ada@example.com", "hero": "b", "pets": ["dog"]
        }})
    );
    // As a revision's generated result type.
    let typed: mcp_typed::v2025_11_25::ElicitResult = reply.to_result().unwrap();
    assert_eq!(serde_json::to_value(typed).unwrap()["content"]["hero"], "b");
    assert_eq!(FormReply::Decline.to_value(), json!({"action": "decline"}));
    assert_eq!(FormReply::Cancel.to_value(), json!({"action": "cancel"}));

    // Unknown keys and wrong values in a received answer are all named.
    let content: Map<String, Value> = serde_json::from_value(json!({
        "email": "not-an-email", "hero": "b", "age": 2.5, "extra": 1
    }))
    .unwrap();
    let e = newer.validate(&content).unwrap_err();
    let named: Vec<(&str, String)> = e
        .violations()
        .iter()
        .map(|v| (v.field.as_str(), format!("{:?}", v.kind)))
        .collect();
    assert_eq!(named.len(), 3, "{named:?}");
    assert!(e.concerns("email") && e.concerns("age") && e.concerns("extra"));
}

#[test]
fn schemas_a_client_cannot_show_are_refused_naming_the_property() {
    let form = |schema: Value| {
        Form::from_params(
            &json!({"message": "m", "requestedSchema": schema}),
            ProtocolVersion::V2025_11_25,
        )
    };
    let cases = [
        (
            json!({"type": "object", "properties": {"address": {"type": "object", "properties": {}}}}),
            "/requestedSchema/properties/address/type",
            "nested objects",
        ),
        (
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}}),
            "/requestedSchema/properties/a/$ref",
            "references",
        ),
        (
            json!({"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}),
            "/requestedSchema/properties/tags/items",
            "multi-select",
        ),
        (
            json!({"type": "object", "properties": {"x": {"description": "no type"}}}),
            "/requestedSchema/properties/x/type",
            "missing",
        ),
        (
            json!({"type": "object", "properties": {"x": {"type": ["string", "null"]}}}),
            "/requestedSchema/properties/x/type",
            "one type name",
        ),
        (
            json!({"type": "object", "properties": {"d": {"type": "string", "format": "phone"}}}),
            "/requestedSchema/properties/d/format",
            "not a format",
        ),
        (
            json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "default": 1}}}),
            "/requestedSchema/properties/n/default",
            "out of range",
        ),
        (
            json!({"type": "object", "properties": {"a/b": {"type": "object"}}}),
            "/requestedSchema/properties/a~1b/type",
            "nested",
        ),
        (
            json!({"type": "object", "properties": {}, "required": ["ghost"]}),
            "/requestedSchema/required/0",
            "not a property",
        ),
        (json!({"type": "array"}), "/requestedSchema/type", "object"),
    ];
    for (schema, pointer, words) in cases {
        let e = form(schema.clone()).unwrap_err();
        let p = &e.problems()[0];
        assert_eq!(p.pointer, pointer, "{schema}");
        assert!(e.to_string().contains(words), "{schema}: {e}");
        assert_eq!(e.to_error_object()["code"], -32602);
    }
    // Every problem at once.
    let e = form(json!({"type": "object", "properties": {
        "a": {"type": "object"}, "b": {"type": "string", "enum": []}, "c": {"type": "boolean"}
    }}))
    .unwrap_err();
    assert_eq!(e.problems().len(), 2, "{e}");
    // A URL-mode request is not a form.
    let e = Form::from_params(
        &json!({"mode": "url", "url": "https://x.example", "message": "m", "elicitationId": "1"}),
        ProtocolVersion::V2025_11_25,
    )
    .unwrap_err();
    assert_eq!(e.problems()[0].pointer, "/mode");
}

#[test]
fn a_derived_form_converts_into_the_model_and_both_agree() {
    use mcp_typed::Elicit;
    #[derive(Elicit, Debug)]
    #[allow(dead_code)]
    struct Booking {
        #[elicit(min_length = 2)]
        name: String,
        #[elicit(minimum = 1, maximum = 12)]
        guests: u8,
        small: u8,
        #[elicit(default = true)]
        terrace: bool,
    }
    let schema = Booking::requested_schema();
    let form = Form::from_schema(schema, "Book", ProtocolVersion::V2025_11_25);
    assert_eq!(form.fields().len(), 4);
    // The Rust type's own range is explicit in the model.
    assert!(matches!(
        form.field("small").unwrap().kind,
        FieldKind::Integer {
            minimum: Some(mcp_typed::elicit::Num::Int(0)),
            maximum: Some(mcp_typed::elicit::Num::Int(255)),
        }
    ));
    for content in [
        json!({"name": "Ada", "guests": 2, "small": 3}),
        json!({"name": "A", "guests": 20, "small": 300, "x": 1}),
        json!({"name": 5}),
        json!({}),
    ] {
        let content: Map<String, Value> = serde_json::from_value(content).unwrap();
        let derived = mcp_typed::elicit::validate(schema, &content);
        let received = form.validate(&content);
        assert_eq!(derived, received, "{content:?}");
        // And what the derive reads agrees with both.
        assert_eq!(Booking::from_content(&content).is_ok(), received.is_ok());
    }
}

/// The spec: a client must not open or fetch the URL before the user consents. A loopback
/// listener stands in for the site and counts connections.
#[test]
fn nothing_reaches_the_url_before_consent() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let connections = Arc::new(AtomicUsize::new(0));
    let accepted = |listener: &TcpListener, connections: &AtomicUsize| {
        // Give a connection time to arrive, then count what did.
        std::thread::sleep(std::time::Duration::from_millis(100));
        while listener.accept().is_ok() {
            connections.fetch_add(1, Ordering::SeqCst);
        }
        connections.load(Ordering::SeqCst)
    };
    let params = json!({
        "mode": "url", "elicitationId": "pay-7", "message": "Pay here",
        "url": format!("http://127.0.0.1:{port}/checkout")
    });
    // Received, shown, declined: no connection.
    let request = UrlRequest::from_params(&params).unwrap();
    let parts = request.parts();
    assert_eq!(parts.host, "127.0.0.1");
    assert_eq!(
        request.warnings(),
        [] as [UrlWarning; 0],
        "loopback http is fine"
    );
    assert_eq!(request.decline().to_value(), json!({"action": "decline"}));
    assert_eq!(accepted(&listener, &connections), 0);
    // Consented and opened (the test's opener connects, as a browser would): one.
    let reply = request
        .consent(Consent::given_by_user())
        .open_with(|url| {
            std::net::TcpStream::connect((
                url.host_str().unwrap(),
                url.port_or_known_default().unwrap(),
            ))
            .map(drop)
        })
        .unwrap();
    assert_eq!(reply.to_value(), json!({"action": "accept"}));
    assert_eq!(accepted(&listener, &connections), 1);
}

/// The URL shown and its highlighted host are what a browser opens, checked against an
/// independent implementation of the WHATWG URL Standard: Node's `URL` (the parser browsers
/// share the standard with), on URLs written to deceive a reader.
#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node (the WHATWG URL oracle): feature `interop` (.ci/run turns it on)"
)]
fn the_url_shown_is_the_url_a_browser_opens() {
    let urls = [
        "https://evil.example\\@example.com/login",
        "https://example.com\\@evil.example/",
        "https:\\\\evil.example/",
        "https:example.com/x",
        "https:/example.com",
        "https:////example.com",
        "  https://example.com/\n",
        "https://exa\tmple.com/",
        "https://%65xample.com/",
        "https://ex%41mple.com/",
        "http://0x7f.1/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "https://ｅｘａｍｐｌｅ.com/",
        "https://example。com/",
        "https://a@b@evil.example/",
        "https://user:secret@bank.example/",
        "https://example.com@evil.example/",
        "https://Straße.example/",
        "https://аpple.com/",
        "https://xn--pple-43d.com/",
        "https://ПРИМЕР.рф/",
        "https://203.0.113.7/login",
        "http://[::1]:9/p",
        "https://[2001:DB8:0:0::1]/",
        "https://example.com:443/",
        "HTTPS://Example.COM/a b?q=c d#e f",
        "https://example.com/?next=a\\b",
        "https://exa mple.com/",
        "https://[::1/",
    ];
    let script = "const urls = JSON.parse(require('fs').readFileSync(0, 'utf8'));\n\
        console.log(JSON.stringify(urls.map((u) => {\n\
          try { const p = new URL(u); return {href: p.href, host: p.hostname}; }\n\
          catch (e) { return null; }\n\
        })));";
    let mut node = std::process::Command::new("node")
        .args(["-e", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("`node` runs the WHATWG oracle: install Node.js >= 20");
    use std::io::Write;
    node.stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(&urls).unwrap().as_bytes())
        .unwrap();
    let out = node.wait_with_output().unwrap();
    assert!(out.status.success());
    let whatwg: Vec<Option<Value>> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(whatwg.len(), urls.len());
    for (url, browser) in urls.iter().zip(&whatwg) {
        let ours = UrlRequest::from_params(&json!({"mode": "url", "message": "m", "url": url}));
        match (ours, browser) {
            (Ok(request), Some(browser)) => {
                assert_eq!(request.shown_url(), browser["href"], "{url:?}");
                assert_eq!(request.parts().host, browser["host"], "{url:?}");
                let opened = request.clone().consent(Consent::given_by_user());
                assert_eq!(opened.url().as_str(), browser["href"], "{url:?}");
                // Whenever the text is not the URL that opens (beyond case, a default port,
                // a final `/` and percent-encoding of the path), a warning says so.
                let plain = url.to_lowercase().replace(":443/", "/");
                let same = browser["href"].as_str().unwrap().to_lowercase();
                let as_written = plain == same
                    || format!("{plain}/") == same
                    || plain.replace(' ', "%20") == same;
                let warned = request
                    .warnings()
                    .iter()
                    .any(|w| matches!(w, UrlWarning::NotAsWritten { .. }));
                if !as_written {
                    assert!(
                        warned
                            || request
                                .warnings()
                                .iter()
                                .any(|w| matches!(w, UrlWarning::InternationalDomain { .. })),
                        "{url:?} opens {} without a warning",
                        request.shown_url()
                    );
                }
            }
            (Err(e), None) => assert_eq!(e.pointer, "/url", "{url:?}"),
            (ours, browser) => panic!("{url:?}: ours {ours:?}, WHATWG {browser:?}"),
        }
    }
}

proptest::proptest! {
    /// Any text a server sends as a URL is read without a panic; whatever is accepted is shown
    /// exactly as it opens (the parts are the whole URL, the host is the parsed host), and a
    /// text that reads differently from what opens is warned of.
    #[test]
    fn any_url_text_is_shown_as_it_opens(
        url in r"(?i:https?)(:|://|:\\\\|:/|:///)[a-z0-9@:%.\\/\[\]?#\t ｅ。а-я-]{0,24}"
    ) {
        let Ok(request) =
            UrlRequest::from_params(&json!({"mode": "url", "message": "m", "url": url}))
        else {
            return Ok(());
        };
        let parts = request.parts();
        proptest::prop_assert_eq!(
            [parts.before_host, parts.host, parts.after_host].concat(),
            request.shown_url()
        );
        let opened = request.clone().consent(Consent::given_by_user());
        proptest::prop_assert_eq!(opened.url().as_str(), request.shown_url());
        proptest::prop_assert_eq!(opened.url().host_str(), Some(parts.host));
        // A `\` before the query always moves something: it is never silent.
        let before_query = url.split(['?', '#']).next().unwrap_or_default();
        if before_query.contains('\\') {
            let warned = request.warnings().iter().any(|w| {
                matches!(w, UrlWarning::NotAsWritten { rewrite: Rewrite::Backslash, .. })
            });
            proptest::prop_assert!(warned, "{:?}: {:?}", url, request.warnings());
        }
    }
}
