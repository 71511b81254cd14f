//! The spike's decoders agree with today's on every real message of the slice, and report
//! the JSON pointer (both parsers) and the line and column (jiter only) of a fault.

use mcp_pull_spike::corpus::{Dir, Message};
use mcp_pull_spike::{
    SimdState, corpus, decode_jiter, decode_jiter_with, decode_mcp_typed, decode_simd,
};

#[test]
fn every_slice_message_decodes_as_today() {
    let c = corpus("slice").unwrap();
    assert_eq!(c.messages.len(), 189);
    let mut state = SimdState::default();
    for m in &c.messages {
        let want = decode_mcp_typed(m).unwrap();
        assert_eq!(decode_jiter(m).unwrap(), want, "{}", m.text);
        assert_eq!(
            decode_jiter_with(m, true, false).unwrap(),
            want,
            "{}",
            m.text
        );
        assert_eq!(decode_simd(&mut state, m).unwrap(), want, "{}", m.text);
    }
}

fn client(text: &str) -> Message {
    Message {
        dir: Dir::C2s,
        text: text.to_owned(),
        answers: None,
    }
}

#[test]
fn errors_name_the_member_and_where() {
    let m = client(
        "{\"jsonrpc\":\"2.0\",\"id\":4,\n\"method\":\"tools/call\",\"params\":{\"name\":5}}",
    );
    let e = decode_jiter(&m).unwrap_err();
    assert_eq!(e.pointer(), "/params/name");
    assert_eq!(e.line_column(&m.text), Some((2, 40)), "{e}");
    assert!(e.message().contains("expected a string"), "{e}");
    let s = decode_simd(&mut SimdState::default(), &m).unwrap_err();
    assert_eq!((s.pointer(), s.offset()), ("/params/name".to_owned(), None));

    // `params` before `method`: decoded from its mark, same pointer and position.
    let m = client(
        "{\"params\":{\"arguments\":{},\"name\":[]},\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\"}",
    );
    let e = decode_jiter(&m).unwrap_err();
    assert_eq!(
        (e.pointer(), e.line_column(&m.text)),
        ("/params/name".to_owned(), Some((1, 34)))
    );

    // Content blocks with their tag last (the late-tag path: skipped, then decoded from
    // their start), a fault inside the second; then a block without a tag.
    let answers = Some(mcp_pull_spike::corpus::Answers {
        method: "tools/call".to_owned(),
        task: false,
    });
    let text = r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"a","type":"text"},{"text":7,"type":"text"}]}}"#;
    let m = Message {
        dir: Dir::S2c,
        text: text.to_owned(),
        answers: answers.clone(),
    };
    let e = decode_jiter(&m).unwrap_err();
    assert_eq!(e.pointer(), "/result/content/1/text");
    assert_eq!(e.offset(), Some(text.find(":7").unwrap() + 1), "{e}");
    let s = decode_simd(&mut SimdState::default(), &m).unwrap_err();
    assert_eq!(s.pointer(), "/result/content/1/text");
    let m = Message {
        dir: Dir::S2c,
        text: r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"text":"a"}]}}"#.to_owned(),
        answers,
    };
    let e = decode_jiter(&m).unwrap_err();
    assert_eq!(e.pointer(), "/result/content/0");
    assert!(e.message().contains("missing member `type`"), "{e}");

    // Missing required members are named together.
    let m = client("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
    let e = decode_jiter(&m).unwrap_err();
    assert_eq!(e.pointer(), "/params");
    assert!(
        e.message()
            .contains("`protocolVersion`, `capabilities`, `clientInfo`"),
        "{e}"
    );

    // Not JSON: the parser's own position.
    let m = client(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":tru}}",
    );
    let e = decode_jiter(&m).unwrap_err();
    assert_eq!(e.pointer(), "/params/protocolVersion");
    assert!(e.line_column(&m.text).is_some(), "{e}");
    let s = decode_simd(&mut SimdState::default(), &m).unwrap_err();
    assert_eq!(
        s.pointer(),
        "",
        "simd-json fails in its first stage, before any member: {s}"
    );
    assert!(s.offset().is_some(), "{s}");
}
