//! Reading captures: the JSON values of a file, and the `{"dir", "msg"}` lines that say
//! which side sent a message.

use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::diff::escape;
use super::{Direction, Problem, ProblemKind};

/// Invalid UTF-8 sequences reported one by one in a message; the rest are counted.
const UTF8_SHOWN: usize = 8;

/// A problem per invalid UTF-8 sequence of `bytes` (at most [`UTF8_SHOWN`], then one
/// counting the rest): its byte offset, its bytes, and the JSON Pointer of the string it is
/// in (found by parsing up to it: the invalid sequences before it read as U+FFFD), with
/// `strip` taken off the pointer's front (`/msg` for a wrapped line).
pub(crate) fn utf8_problems(bytes: &[u8], strip: &str) -> Vec<Problem> {
    let mut invalid = Vec::new();
    let mut at = 0;
    for chunk in bytes.utf8_chunks() {
        at += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            invalid.push((at, chunk.invalid()));
        }
        at += chunk.invalid().len();
    }
    let mut problems = Vec::new();
    for (i, (offset, seq)) in invalid.iter().enumerate() {
        if i == UTF8_SHOWN {
            problems.push(Problem {
                kind: ProblemKind::InvalidUtf8,
                pointer: String::new(),
                message: format!(
                    "/: {} more invalid UTF-8 sequences, the first at byte {offset}",
                    invalid.len() - UTF8_SHOWN
                ),
            });
            break;
        }
        let shown: Vec<String> = seq.iter().map(|b| format!("{b:02x}")).collect();
        let pointer = string_at(bytes, *offset);
        let (pointer, place) = match pointer {
            Some(p) => {
                let p = p.strip_prefix(strip).unwrap_or(&p).to_owned();
                let place = format!(", in a string of {}", if p.is_empty() { "/" } else { &p });
                (p, place)
            }
            None => (String::new(), String::new()),
        };
        let shown_pointer = if pointer.is_empty() { "/" } else { &pointer };
        problems.push(Problem {
            kind: ProblemKind::InvalidUtf8,
            message: format!(
                "{shown_pointer}: invalid UTF-8 at byte {offset} of the line (bytes {}){place}: JSON text is UTF-8; checked on with U+FFFD in its place",
                shown.join(" ")
            ),
            pointer,
        });
    }
    problems
}

/// The JSON Pointer of the string holding the invalid UTF-8 sequence at byte `offset` of
/// `bytes` (the first invalid one after replacing those before it): where a JSON parser
/// stops reading. `None` when it stops for another reason (the JSON broke before).
fn string_at(bytes: &[u8], offset: usize) -> Option<String> {
    let mut text = String::from_utf8_lossy(&bytes[..offset])
        .into_owned()
        .into_bytes();
    text.extend_from_slice(&bytes[offset..]);
    let mut de = serde_json::Deserializer::from_slice(&text);
    let e = match serde_path_to_error::deserialize::<_, serde_json::Value>(&mut de) {
        Ok(_) => return None,
        Err(e) => e,
    };
    if !e
        .inner()
        .to_string()
        .starts_with("invalid unicode code point")
    {
        return None;
    }
    let mut pointer = String::new();
    for segment in e.path().iter() {
        match segment {
            serde_path_to_error::Segment::Seq { index } => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
            serde_path_to_error::Segment::Map { key } => {
                pointer.push('/');
                pointer.push_str(&escape(key));
            }
            _ => {}
        }
    }
    Some(pointer)
}

/// Splits a line of a capture into its direction and message: `{"dir":"c2s"|"s2c",
/// "msg":{…}}` (an object with `msg` and at most `dir` besides), or a plain message (no
/// direction). An error for a wrapper whose `dir` is not `c2s` or `s2c`.
pub fn unwrap_line(line: &str) -> Result<(Option<Direction>, &str), String> {
    if !line.trim_start().starts_with('{') {
        return Ok((None, line));
    }
    match serde_json::from_str::<Wrapper>(line) {
        Ok(Wrapper {
            msg: Some(msg),
            dir,
            other: false,
        }) => {
            let dir = match dir {
                Some(d) => serde_json::from_str::<Option<Direction>>(d.get())
                    .map_err(|e| format!("line wrapper: `dir`: {e}"))?,
                None => None,
            };
            Ok((dir, msg.get()))
        }
        // Not a wrapper, or not JSON: checking the line says which.
        _ => Ok((None, line)),
    }
}

/// The members of a top-level object that matter for [`unwrap_line`], read without
/// copying anything.
struct Wrapper<'a> {
    dir: Option<&'a RawValue>,
    msg: Option<&'a RawValue>,
    other: bool,
}

impl<'de: 'a, 'a> Deserialize<'de> for Wrapper<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        enum Key {
            Dir,
            Msg,
            Other,
        }
        impl<'de> Deserialize<'de> for Key {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl serde::de::Visitor<'_> for V {
                    type Value = Key;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("a member name")
                    }
                    fn visit_str<E>(self, s: &str) -> Result<Key, E> {
                        Ok(match s {
                            "dir" => Key::Dir,
                            "msg" => Key::Msg,
                            _ => Key::Other,
                        })
                    }
                }
                d.deserialize_identifier(V)
            }
        }
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = Wrapper<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Wrapper<'a>, A::Error> {
                let mut w = Wrapper {
                    dir: None,
                    msg: None,
                    other: false,
                };
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Dir if w.dir.is_none() => w.dir = Some(map.next_value()?),
                        Key::Msg if w.msg.is_none() => w.msg = Some(map.next_value()?),
                        _ => {
                            w.other = true;
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(w)
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// The JSON values of a capture, in order, with the line (1-based) each starts on: one per
/// line (JSON Lines), or spanning lines (a pretty-printed document), or several on one line.
/// A stretch that is not JSON is one `Err` naming its line and column, and reading goes on
/// at the next line.
pub fn split_values(text: &str) -> Vec<(usize, Result<&str, String>)> {
    /// The line number at a byte offset, counted on from the previous one.
    struct Lines {
        at: usize,
        line: usize,
    }
    impl Lines {
        fn advance(&mut self, text: &str, pos: usize) -> usize {
            self.line += text[self.at..pos].matches('\n').count();
            self.at = pos;
            self.line
        }
    }
    let mut lines = Lines { at: 0, line: 1 };
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        let rest = &text[pos..];
        let skipped = rest.len() - rest.trim_start().len();
        pos += skipped;
        if pos >= text.len() {
            break;
        }
        let mut stream = serde_json::Deserializer::from_str(&text[pos..]).into_iter::<&RawValue>();
        match stream.next() {
            Some(Ok(raw)) => {
                let line = lines.advance(text, pos);
                out.push((line, Ok(raw.get())));
                pos += stream.byte_offset();
            }
            // Too deep to read here: the line, as it is, to the checker, which says so.
            Some(Err(e)) if e.to_string().starts_with("recursion limit exceeded") => {
                let end = text[pos..].find('\n').map_or(text.len(), |n| pos + n);
                let line = lines.advance(text, pos);
                out.push((line, Ok(text[pos..end].trim_end())));
                pos = end;
            }
            Some(Err(e)) => {
                // The parser counts from `pos`: report where in the whole input it stopped.
                let before = &text[..pos];
                let first = lines.advance(text, pos);
                let line = first + e.line() - 1;
                let column = if e.line() == 1 {
                    before.len() - before.rfind('\n').map_or(0, |n| n + 1) + e.column()
                } else {
                    e.column()
                };
                let what = e.to_string();
                let what = what.split(" at line ").next().unwrap_or(&what);
                out.push((
                    first,
                    Err(format!(
                        "invalid JSON at line {line} column {column}: {what}"
                    )),
                ));
                pos = text[pos..].find('\n').map_or(text.len(), |n| pos + n);
            }
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_is_named_by_offset_and_string() {
        let line = b"{\"id\":1,\"params\":{\"a\":[\"ok\",\"x\xff\xfey\"],\"k\xc3\":2}}";
        let got: Vec<(String, String)> = utf8_problems(line, "")
            .into_iter()
            .map(|p| (p.pointer, p.message))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "/params/a/1".to_owned(),
                    "/params/a/1: invalid UTF-8 at byte 30 of the line (bytes ff), in a string of /params/a/1: JSON text is UTF-8; checked on with U+FFFD in its place".to_owned()
                ),
                (
                    "/params/a/1".to_owned(),
                    "/params/a/1: invalid UTF-8 at byte 31 of the line (bytes fe), in a string of /params/a/1: JSON text is UTF-8; checked on with U+FFFD in its place".to_owned()
                ),
                (
                    "/params".to_owned(),
                    "/params: invalid UTF-8 at byte 38 of the line (bytes c3), in a string of /params: JSON text is UTF-8; checked on with U+FFFD in its place".to_owned()
                ),
            ]
        );
        let wrapped = b"{\"dir\":\"c2s\",\"msg\":{\"x\":\"\xff\"}}";
        assert_eq!(utf8_problems(wrapped, "/msg")[0].pointer, "/x");
        let outside = b"{\"x\":1}\xff";
        assert_eq!(utf8_problems(outside, "")[0].pointer, "");
        assert!(utf8_problems(b"{}", "").is_empty());
        let many = [
            b'"', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, b'"',
        ];
        let p = utf8_problems(&many, "");
        assert_eq!(p.len(), UTF8_SHOWN + 1);
        assert_eq!(
            p[UTF8_SHOWN].message,
            "/: 2 more invalid UTF-8 sequences, the first at byte 9"
        );
    }

    #[test]
    fn values_are_read_whatever_their_layout() {
        let text = "{\"a\":1}\n\n{\n  \"b\": [1,\n 2]\n}\n3 \"x\"\n{oops\n[]";
        let got = split_values(text);
        assert_eq!(got.len(), 6, "{got:?}");
        assert_eq!(got[0], (1, Ok("{\"a\":1}")));
        assert_eq!(got[1], (3, Ok("{\n  \"b\": [1,\n 2]\n}")));
        assert_eq!(got[2], (7, Ok("3")));
        assert_eq!(got[3], (7, Ok("\"x\"")));
        assert_eq!(
            got[4],
            (
                8,
                Err("invalid JSON at line 8 column 2: key must be a string".to_owned())
            )
        );
        assert_eq!(got[5], (9, Ok("[]")));
        assert!(split_values("").is_empty());
        assert!(split_values(" \n\t\n").is_empty());
    }

    #[test]
    fn lines_are_unwrapped_only_when_wrapped() {
        let c2s = Some(Direction::ClientToServer);
        assert_eq!(
            unwrap_line(r#"{"dir":"c2s","msg":{"id":1}}"#),
            Ok((c2s, r#"{"id":1}"#))
        );
        assert_eq!(unwrap_line(r#"{"msg":[1]}"#), Ok((None, "[1]")));
        assert_eq!(unwrap_line(r#"{"dir":null,"msg":2}"#), Ok((None, "2")));
        for plain in [
            r#"{"msg":1,"id":2}"#,
            r#"{"dir":"c2s"}"#,
            "[1]",
            "{oops",
            "3",
        ] {
            assert_eq!(unwrap_line(plain), Ok((None, plain)));
        }
        let e = unwrap_line(r#"{"dir":"up","msg":{}}"#).unwrap_err();
        assert!(
            e.starts_with("line wrapper: `dir`: unknown variant `up`"),
            "{e}"
        );
    }
}
