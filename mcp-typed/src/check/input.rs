//! Reading captures: the JSON values of a file, and the `{"dir", "msg"}` lines that say
//! which side sent a message.

use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;

use super::Direction;

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
