//! Messages: one JSON-RPC message of one direction decoded in one pass (the `method` picks
//! the typed request or notification), responses kept raw until typed, and the reply owed
//! for a line that does not decode.

use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess};
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
    pub result: Box<RawValue>,
    /// Members besides `jsonrpc`, `id` and `result`, kept so that nothing is lost.
    pub extra: Map<String, Value>,
}

impl<Id> ResultResponse<Id> {
    /// A response to request `id` with `result` (encoded once, now).
    pub fn new(id: Id, result: &impl Serialize) -> Self {
        ResultResponse {
            id,
            result: serde_json::value::to_raw_value(result).expect("generated types always encode"),
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

/// The requests or the notifications one side sends (a union tagged by `method`, or a single
/// type), as the message decoder sees them.
pub trait MethodSet<'de>: Sized {
    /// The builder for one method (taking fields of any input lifetime, as
    /// [`TaggedUnion::Builder`] does).
    type Builder: for<'a> ObjectBuilder<'a, Output = Self>;
    /// Whether the members declare the JSON-RPC envelope (`jsonrpc`, and `id` for requests)
    /// themselves, as from 2025-11-25 on; before, the message keeps it.
    const ENVELOPE: bool;
    /// Whether `method` is one of the set's.
    fn knows(method: &str) -> bool;
    /// The builder for a method the set knows.
    fn builder(method: &str) -> Result<Self::Builder, String>;
    /// The value for a method the set does not know, kept whole; `None` when the set has no
    /// catch-all.
    fn custom(raw: Map<String, Value>) -> Option<Self>;
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

enum MessageState<'de, Req: MethodSet<'de>, Note: MethodSet<'de>, Id, Err: Buildable<'de>> {
    Undecided(Vec<(Key<'de>, Buffered<'de>)>),
    Request(Req::Builder),
    Notification(Note::Builder),
    Custom(MapBuilder),
    Response(Option<Box<RawValue>>),
    Error(Err::Builder),
    #[allow(dead_code)]
    Marker(PhantomData<Id>),
}

impl<'de, Req: MethodSet<'de>, Note: MethodSet<'de>, Id, Err: Buildable<'de>>
    MessageState<'de, Req, Note, Id, Err>
{
    /// Whether the message itself takes `jsonrpc` and `id` (their typed part does not
    /// declare them), once decided.
    fn keeps_envelope(&self) -> bool {
        match self {
            MessageState::Request(_) | MessageState::Custom(_) => !Req::ENVELOPE,
            MessageState::Notification(_) => !Note::ENVELOPE,
            MessageState::Response(_) => true,
            _ => false,
        }
    }
}

/// Decodes one JSON-RPC message of one direction straight from the deserializer: the fields
/// before the deciding member (`method`, `result` or `error`) are buffered — `jsonrpc` and
/// `id` as a rule — and everything after it streams into the typed builder. The `method`
/// value picks the request or notification type; a method neither set knows is kept whole
/// in the set's catch-all, a request when the message has an `id`.
pub fn visit_message<'de, A, Req, Note, Id, Err>(
    mut map: A,
) -> Result<MessageParts<Req, Note, Id, Err>, A::Error>
where
    A: MapAccess<'de>,
    Req: MethodSet<'de>,
    Note: MethodSet<'de>,
    Id: Deserialize<'de>,
    Err: Buildable<'de>,
{
    let mut state: MessageState<'de, Req, Note, Id, Err> = MessageState::Undecided(Vec::new());
    let mut id: Option<Id> = None;
    let mut jsonrpc = false;
    let mut extra = Map::new();
    while let Some(key) = map.next_key::<Key<'de>>()? {
        if state.keeps_envelope() && (&*key == "jsonrpc" || &*key == "id") {
            take_envelope(&key, &mut jsonrpc, &mut id, map.next_value_seed(ValueSeed)?)
                .map_err(de::Error::custom)?;
            continue;
        }
        match &mut state {
            MessageState::Undecided(before) => match &*key {
                "method" => {
                    let method = map.next_value::<Key<'de>>()?;
                    let before = std::mem::take(before);
                    state = if Req::knows(&method) {
                        MessageState::Request(Req::builder(&method).map_err(de::Error::custom)?)
                    } else if Note::knows(&method) {
                        MessageState::Notification(
                            Note::builder(&method).map_err(de::Error::custom)?,
                        )
                    } else {
                        MessageState::Custom(MapBuilder::default())
                    };
                    for (k, v) in before {
                        feed::<Req, Note, Id, Err, A::Error>(
                            &mut state,
                            &mut jsonrpc,
                            &mut id,
                            &mut extra,
                            k,
                            v,
                        )?;
                    }
                    match &mut state {
                        MessageState::Request(b) => b.field_str(key, &method)?,
                        MessageState::Notification(b) => b.field_str(key, &method)?,
                        MessageState::Custom(b) => b.field_str(key, &method)?,
                        _ => unreachable!("decided by the method"),
                    }
                }
                "result" => {
                    let result = map.next_value::<Box<RawValue>>()?;
                    let before = std::mem::take(before);
                    state = MessageState::Response(Some(result));
                    for (k, v) in before {
                        feed::<Req, Note, Id, Err, A::Error>(
                            &mut state,
                            &mut jsonrpc,
                            &mut id,
                            &mut extra,
                            k,
                            v,
                        )?;
                    }
                }
                "error" => {
                    let before = std::mem::take(before);
                    let mut b = Err::Builder::default();
                    for (k, v) in before {
                        feed_text::<_, A::Error>(&mut b, k, v.text())?;
                    }
                    map.next_value_seed(FieldSeed {
                        builder: &mut b,
                        key,
                    })?;
                    state = MessageState::Error(b);
                }
                _ => before.push((key, map.next_value::<Buffered<'de>>()?)),
            },
            MessageState::Request(b) => map.next_value_seed(FieldSeed { builder: b, key })?,
            MessageState::Notification(b) => map.next_value_seed(FieldSeed { builder: b, key })?,
            MessageState::Custom(b) => map.next_value_seed(FieldSeed { builder: b, key })?,
            MessageState::Error(b) => map.next_value_seed(FieldSeed { builder: b, key })?,
            MessageState::Response(_) => {
                set_extra_value(&mut extra, key, map.next_value_seed(ValueSeed)?)
                    .map_err(de::Error::custom)?
            }
            MessageState::Marker(_) => unreachable!("never constructed"),
        }
    }
    let need_jsonrpc = |envelope: bool| -> Result<(), A::Error> {
        if envelope || jsonrpc {
            Ok(())
        } else {
            Err(de::Error::missing_field("jsonrpc"))
        }
    };
    match state {
        MessageState::Undecided(_) => Err(de::Error::custom(
            "not a JSON-RPC message: no `method`, `result` or `error`",
        )),
        MessageState::Request(b) => {
            need_jsonrpc(Req::ENVELOPE)?;
            if !Req::ENVELOPE && id.is_none() {
                return Err(de::Error::missing_field("id"));
            }
            Ok(MessageParts::Request(id, b.finish()?))
        }
        MessageState::Notification(b) => {
            need_jsonrpc(Note::ENVELOPE)?;
            Ok(MessageParts::Notification(b.finish()?))
        }
        MessageState::Custom(MapBuilder(raw)) => {
            let is_request = id.is_some() || raw.contains_key("id");
            if is_request {
                need_jsonrpc(Req::ENVELOPE)?;
                // A custom request's id is checked as a typed request's is, so that a
                // decoded request always has one to answer.
                if let Some(raw_id) = raw.get("id") {
                    Id::deserialize(raw_id.clone()).map_err(|e| {
                        de::Error::custom(format_args!("invalid request `id`: {e}"))
                    })?;
                }
                let method = raw
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                // Only a side that sends no requests has no catch-all for them.
                let req = Req::custom(raw).ok_or_else(|| {
                    de::Error::custom(format_args!(
                        "request method {method:?} is not one this side sends in this revision \
                         (from 2026-07-28 on, a server asks for input by returning an \
                         InputRequiredResult instead of sending requests)"
                    ))
                })?;
                Ok(MessageParts::Request(id, req))
            } else {
                need_jsonrpc(Req::ENVELOPE)?;
                let method = raw
                    .get("method")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_owned();
                let note = Note::custom(raw).ok_or_else(|| {
                    de::Error::custom(format_args!(
                        "notification method {method:?} is not one this side sends"
                    ))
                })?;
                Ok(MessageParts::Notification(note))
            }
        }
        MessageState::Response(result) => {
            need_jsonrpc(false)?;
            Ok(MessageParts::Response(ResultResponse {
                id: id.ok_or_else(|| de::Error::missing_field("id"))?,
                result: result.expect("set when decided"),
                extra,
            }))
        }
        MessageState::Error(b) => Ok(MessageParts::Error(b.finish()?)),
        MessageState::Marker(_) => unreachable!("never constructed"),
    }
}

/// A buffered member of a message, given to the state decided since.
fn feed<'de, Req, Note, Id, Err, E>(
    state: &mut MessageState<'de, Req, Note, Id, Err>,
    jsonrpc: &mut bool,
    id: &mut Option<Id>,
    extra: &mut Map<String, Value>,
    key: Key<'de>,
    value: Buffered<'de>,
) -> Result<(), E>
where
    Req: MethodSet<'de>,
    Note: MethodSet<'de>,
    Id: Deserialize<'de>,
    Err: Buildable<'de>,
    E: de::Error,
{
    let text = value.text();
    if state.keeps_envelope() && (&*key == "jsonrpc" || &*key == "id") {
        let value: Value = serde_json::from_str(text).map_err(E::custom)?;
        return take_envelope(&key, jsonrpc, id, value).map_err(E::custom);
    }
    match state {
        MessageState::Request(b) => feed_text(b, key, text),
        MessageState::Notification(b) => feed_text(b, key, text),
        MessageState::Custom(b) => feed_text(b, key, text),
        MessageState::Error(b) => feed_text(b, key, text),
        MessageState::Response(_) => {
            set_extra_value(extra, key, &mut serde_json::Deserializer::from_str(text))
                .map_err(E::custom)
        }
        MessageState::Undecided(_) | MessageState::Marker(_) => {
            unreachable!("fed only once decided")
        }
    }
}

/// `jsonrpc` (must be "2.0") or `id` of a message whose typed part does not hold them.
fn take_envelope<'de, Id: Deserialize<'de>>(
    key: &str,
    jsonrpc: &mut bool,
    id: &mut Option<Id>,
    value: Value,
) -> Result<(), serde_json::Error> {
    if key == "jsonrpc" {
        if *jsonrpc {
            return Err(de::Error::duplicate_field("jsonrpc"));
        }
        if value != "2.0" {
            return Err(de::Error::custom(format_args!(
                "invalid value for `jsonrpc`: expected \"2.0\", found {value}"
            )));
        }
        *jsonrpc = true;
    } else {
        if id.is_some() {
            return Err(de::Error::duplicate_field("id"));
        }
        *id = Some(Id::deserialize(value)?);
    }
    Ok(())
}

/// Reads any value as a [`Value`] (a seed, so that a `Value` can be read where a seed is
/// expected).
struct ValueSeed;

impl<'de> DeserializeSeed<'de> for ValueSeed {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
}

/// The requests of a side that sends none (the server from 2026-07-28 on, which asks for
/// input inside results instead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoRequest {}

impl<'de> ObjectBuilder<'de> for NoRequest {
    type Output = NoRequest;
    fn field<D: Deserializer<'de>>(&mut self, _: Key<'de>, _: D) -> Result<(), D::Error> {
        match *self {}
    }
    fn finish<E: de::Error>(self) -> Result<NoRequest, E> {
        match self {}
    }
}

impl<'de> MethodSet<'de> for NoRequest {
    type Builder = NoRequest;
    const ENVELOPE: bool = true;
    fn knows(_: &str) -> bool {
        false
    }
    fn builder(method: &str) -> Result<NoRequest, String> {
        Err(format!("{method:?}: this side sends no requests"))
    }
    fn custom(_: Map<String, Value>) -> Option<NoRequest> {
        None
    }
}

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
