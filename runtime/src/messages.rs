//! Messages: one JSON-RPC message of one direction decoded in one pass (the `method` picks
//! the typed request or notification), responses kept raw until typed, and the reply owed
//! for a line that does not decode.

use serde::de::{self, Deserializer, MapAccess};
use serde::{Deserialize, Serialize};

use super::*;

pub use serde_json::value::RawValue;

/// A successful JSON-RPC response whose `result` is kept as the raw JSON it came as, until the
/// caller says which request it answers ([`result_as`](Self::result_as)): a response names no
/// method, so only the caller knows the result's type.
#[derive(Debug, Clone)]
pub struct ResultResponse<Id> {
    /// The id of the request answered.
    pub id: Id,
    /// The `result` member, exactly as received (or as encoded by [`Self::new`]).
    pub result: RawJson,
    /// Members besides `jsonrpc`, `id` and `result`, kept so that nothing is lost.
    pub extra: Map<String, Value>,
}

impl<Id> ResultResponse<Id> {
    /// A response to request `id` with `result` (encoded once, now).
    pub fn new(id: Id, result: &impl Serialize) -> Self {
        ResultResponse {
            id,
            result: RawJson::encode(result).expect("generated types always encode"),
            extra: Map::new(),
        }
    }

    /// The result decoded as the result type of request `R` (`RequestMethod::Result`):
    /// `response.result_as::<CallToolRequest>()` gives a `CallToolResult`.
    pub fn result_as<R>(&self) -> serde_json::Result<R::Result>
    where
        R: RequestMethod,
        R::Result: serde::de::DeserializeOwned,
    {
        R::result_from_json(self.result.get())
    }

    /// The result decoded as `T`.
    pub fn result_into<T: serde::de::DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_str(self.result.get())
    }
}

impl<Id: PartialEq> PartialEq for ResultResponse<Id> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.result.get() == other.result.get() && self.extra == other.extra
    }
}

impl<Id: Serialize> Serialize for ResultResponse<Id> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("jsonrpc", "2.0")?;
        m.serialize_entry("id", &self.id)?;
        m.serialize_entry("result", &self.result)?;
        serialize_extra_value(&mut m, &self.extra)?;
        m.end()
    }
}

impl<Id> Unknowns for ResultResponse<Id> {
    fn collect_unknowns(&self, at: &mut JsonPath, out: &mut Vec<Unknown>) {
        unknown_value_members(&self.extra, at, out);
    }
}

/// A decoded message, before the revision's enum takes it.
pub enum MessageParts<Req, Note, Id, Err> {
    /// A request; the id is here when the request type does not hold it.
    Request(Option<Id>, Req),
    /// A notification.
    Notification(Note),
    /// A successful response.
    Response(ResultResponse<Id>),
    /// An error response.
    Error(Err),
}

/// The requests of a side that sends none (the server from 2026-07-28 on, which asks for
/// input inside results instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRequest {}

/// What the receiver of a message it could not decode answers: the request's id as written
/// (when the text is JSON with one) and the JSON-RPC error code — `-32700` for text that is
/// not JSON, `-32602` for a request with an id and a method (its params are what failed),
/// `-32600` otherwise.
pub fn failed_message(text: &str) -> (Option<Box<RawValue>>, i64) {
    /// The `id` and `method` of an object, as written; other members skipped, a repeated one
    /// refused (what `#[derive(Deserialize)]` would do, without serde's derive).
    #[derive(Default)]
    struct Probe {
        id: Option<Box<RawValue>>,
        method: Option<Box<RawValue>>,
    }
    impl<'de> Deserialize<'de> for Probe {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_map(ProbeVisitor)
        }
    }
    struct ProbeVisitor;
    impl<'de> de::Visitor<'de> for ProbeVisitor {
        type Value = Probe;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON-RPC message")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Probe, A::Error> {
            let mut probe = Probe::default();
            let (mut id_seen, mut method_seen) = (false, false);
            while let Some(key) = map.next_key::<Key<'de>>()? {
                let (slot, seen, name) = match &*key {
                    "id" => (&mut probe.id, &mut id_seen, "id"),
                    "method" => (&mut probe.method, &mut method_seen, "method"),
                    _ => {
                        map.next_value::<de::IgnoredAny>()?;
                        continue;
                    }
                };
                if std::mem::replace(seen, true) {
                    return Err(de::Error::duplicate_field(name));
                }
                *slot = map.next_value()?;
            }
            Ok(probe)
        }
    }
    if serde_json::from_str::<de::IgnoredAny>(text).is_err() {
        return (None, -32700);
    }
    if !text.trim_start().starts_with('{') {
        return (None, -32600);
    }
    // A request id is a string or an integer; anything else makes the request invalid.
    let id_like = |id: &RawValue| {
        id.get()
            .starts_with(|c: char| c == '"' || c == '-' || c.is_ascii_digit())
    };
    match serde_json::from_str::<Probe>(text) {
        Ok(Probe {
            id: Some(id),
            method: Some(m),
        }) if m.get().starts_with('"') && id_like(&id) => (Some(id), -32602),
        Ok(p) => (p.id.filter(|id| id_like(id)), -32600),
        Err(_) => (None, -32600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reply_owed_for_a_bad_line_keeps_the_id_when_it_can() {
        let code = |text: &str| {
            let (id, code) = failed_message(text);
            (id.map(|r| r.get().to_owned()), code)
        };
        assert_eq!(code("{not json"), (None, -32700));
        assert_eq!(code("[1, 2]"), (None, -32600));
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":7}"#),
            (Some(r#""a-1""#.to_owned()), -32602)
        );
        // An id but no method: not a request whose params failed.
        assert_eq!(
            code(r#"{"jsonrpc":"2.0","id":3,"result":"x"}"#),
            (Some("3".to_owned()), -32600)
        );
        assert_eq!(code(r#"{"id":{"nested":[1]},"method":5}"#).1, -32600);
        // An id that is no request id makes the request invalid, whatever its method.
        assert_eq!(code(r#"{"id":{"x":1},"method":"x/y"}"#), (None, -32600));
        assert_eq!(code(r#"{"id":null,"method":"ping"}"#), (None, -32600));
        // Members are found by name however written, and a repeated one makes it invalid.
        assert_eq!(
            code(r#"{"\u0069d":2,"x":[{}],"method":"a","params":1}"#),
            (Some("2".to_owned()), -32602)
        );
        assert_eq!(code(r#"{"id":null,"id":2,"method":"a"}"#), (None, -32600));
        assert_eq!(
            code(r#"{"id":2,"method":"a","method":"b"}"#),
            (None, -32600)
        );
    }

    struct Echo(Value);
    impl RequestMethod for Echo {
        const METHOD: &'static str = "echo";
        type Params = Value;
        type Result = Vec<u32>;
        fn params(&self) -> &Value {
            &self.0
        }
    }

    #[test]
    fn results_stay_raw_until_typed_and_encode_as_they_came() {
        let r = ResultResponse::new(4u8, &[1u32, 2, 3]);
        assert_eq!(r.result.get(), "[1,2,3]");
        assert_eq!(r.result_as::<Echo>().unwrap(), vec![1, 2, 3]);
        assert!(r.result_into::<String>().is_err());
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, r#"{"jsonrpc":"2.0","id":4,"result":[1,2,3]}"#);
    }
}
