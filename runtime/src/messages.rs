//! Messages: one JSON-RPC message of one direction decoded in one pass (the `method` picks
//! the typed request or notification), responses kept raw until typed, and the reply owed
//! for a line that does not decode.

use serde::de::{self, Deserializer, MapAccess};
use serde::{Deserialize, Serialize};

use std::any::TypeId;
use std::sync::Arc;

use super::*;
use crate::json::Decoded;
use crate::pull::{self, Decode, Parser};

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
    pub extra: Extra,
}

impl<Id> ResultResponse<Id> {
    /// A response to request `id` with `result` (encoded once, now).
    pub fn new(id: Id, result: &impl Serialize) -> Self {
        ResultResponse {
            id,
            result: RawJson::encode(result).expect("generated types always encode"),
            extra: Extra::new(),
        }
    }

    /// The result decoded as the result type of request `R` (`RequestMethod::Result`):
    /// `response.result_as::<CallToolRequest>()` gives a `CallToolResult`. When the message
    /// was decoded with `R`'s result awaited (`ServerMessage::from_json_awaiting`), this is a
    /// clone of the value decoded then; [`into_result_as`](Self::into_result_as) takes it
    /// without a clone.
    pub fn result_as<R>(&self) -> serde_json::Result<R::Result>
    where
        R: RequestMethod,
        R::Result: serde::de::DeserializeOwned + Clone + 'static,
    {
        match self.result.decoded::<R::Result>() {
            Some(value) => Ok(value.clone()),
            None => R::result_from_json(self.result.get()),
        }
    }

    /// [`result_as`](Self::result_as), taking the response: the value decoded while the
    /// message was read, when it was awaited as `R`'s result, is moved out, not cloned.
    pub fn into_result_as<R>(self) -> serde_json::Result<R::Result>
    where
        R: RequestMethod,
        R::Result: serde::de::DeserializeOwned,
    {
        R::result_from_raw(self.result)
    }

    /// The result decoded as `T`.
    pub fn result_into<T: serde::de::DeserializeOwned>(&self) -> serde_json::Result<T> {
        serde_json::from_str(self.result.get())
    }
}

/// The type of a request's result, for the message decoder to decode it in the same pass as
/// the response that carries it (see [`Awaiting`]).
#[derive(Clone, Copy)]
pub struct ResultType {
    type_id: TypeId,
    name: &'static str,
    decode: fn(&mut Parser<'_>) -> Result<Decoded, pull::Error>,
}

impl ResultType {
    /// The result type of request `R` (`R::Result`).
    pub fn of<R>() -> ResultType
    where
        R: RequestMethod,
        R::Result: Decode + Send + Sync + 'static,
    {
        ResultType::decoding::<R::Result>()
    }

    /// `T`, for a result whose type is not the request's own (a task-augmented `tools/call`
    /// is answered with a `CreateTaskResult`).
    pub fn decoding<T: Decode + Send + Sync + 'static>() -> ResultType {
        fn decode<T: Decode + Send + Sync + 'static>(
            p: &mut Parser<'_>,
        ) -> Result<Decoded, pull::Error> {
            T::decode(p).map(|v| Arc::new(v) as Decoded)
        }
        ResultType {
            type_id: TypeId::of::<T>(),
            name: std::any::type_name::<T>(),
            decode: decode::<T>,
        }
    }

    /// Decodes the value at `p` as this type.
    pub(crate) fn decode(self, p: &mut Parser<'_>) -> Result<Decoded, pull::Error> {
        (self.decode)(p)
    }
}

impl PartialEq for ResultType {
    fn eq(&self, other: &ResultType) -> bool {
        self.type_id == other.type_id
    }
}

impl Eq for ResultType {}

impl std::fmt::Debug for ResultType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("ResultType").field(&self.name).finish()
    }
}

/// What a side awaits: the result type of each request it sent and has no answer to yet, by
/// request id. The message decoder asks it, on reading a response, which type to decode the
/// `result` as, so that the result is decoded in the same pass as the message; a result read
/// before its `id` (the TypeScript SDK writes `result` first) is decoded as the type all
/// awaited results share ([`Awaits::guess`]), and decoded again from its text if its `id`
/// then says otherwise.
pub trait Awaits<Id> {
    /// The result type awaited for request `id`, if it is awaited.
    fn result_type(&self, id: &Id) -> Option<ResultType>;
    /// The type to decode a result as before its `id` is read: the one every awaited result
    /// has, if they share one. `None` (the default): such a result is kept as text.
    fn guess(&self) -> Option<ResultType> {
        None
    }
}

/// Nothing awaited: every result is kept as text, typed later by
/// [`ResultResponse::result_as`].
impl<Id> Awaits<Id> for () {
    fn result_type(&self, _: &Id) -> Option<ResultType> {
        None
    }
}

/// The requests a side sent and awaits answers to, with their result types: a small list
/// (a look-up is linear in the requests awaited; a program with thousands in flight
/// implements [`Awaits`] on its own map).
///
/// ```
/// # use mcp_typed_runtime::{Awaiting, RequestMethod, ResultType};
/// # struct Echo;
/// # impl RequestMethod for Echo {
/// #     const METHOD: &'static str = "echo";
/// #     type Params = ();
/// #     type Result = Vec<i64>;
/// #     fn params(&self) -> &() { &() }
/// #     fn result_type() -> Option<ResultType> { Some(ResultType::of::<Echo>()) }
/// # }
/// let mut awaiting = Awaiting::new();
/// awaiting.insert::<Echo>(7);
/// assert!(awaiting.remove(&7).is_some());
/// assert!(awaiting.is_empty());
/// ```
#[derive(Debug, Clone)]
pub struct Awaiting<Id> {
    pending: Vec<(Id, ResultType)>,
}

impl<Id> Default for Awaiting<Id> {
    fn default() -> Self {
        Awaiting {
            pending: Vec::new(),
        }
    }
}

impl<Id: PartialEq> Awaiting<Id> {
    /// Nothing awaited yet.
    pub fn new() -> Self {
        Awaiting::default()
    }

    /// Awaits the answer to request `id`, of `R`'s result type
    /// ([`RequestMethod::result_type`]; a request without one is not awaited: its result is
    /// kept as text).
    pub fn insert<R: RequestMethod>(&mut self, id: Id) {
        if let Some(result) = R::result_type() {
            self.insert_type(id, result);
        }
    }

    /// Awaits the answer to request `id`, of type `result` (replacing what was awaited for
    /// the same id).
    pub fn insert_type(&mut self, id: Id, result: ResultType) {
        match self.pending.iter_mut().find(|(i, _)| *i == id) {
            Some(slot) => slot.1 = result,
            None => self.pending.push((id, result)),
        }
    }

    /// Stops awaiting request `id` (its answer came): what was awaited for it.
    pub fn remove(&mut self, id: &Id) -> Option<ResultType> {
        let at = self.pending.iter().position(|(i, _)| i == id)?;
        Some(self.pending.swap_remove(at).1)
    }

    /// How many answers are awaited.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Whether no answer is awaited.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

impl<Id: PartialEq> Awaits<Id> for Awaiting<Id> {
    fn result_type(&self, id: &Id) -> Option<ResultType> {
        self.pending.iter().find(|(i, _)| i == id).map(|(_, t)| *t)
    }

    fn guess(&self) -> Option<ResultType> {
        let (_, first) = self.pending.first()?;
        self.pending
            .iter()
            .all(|(_, t)| t == first)
            .then_some(*first)
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
        m.serialize_entry(&Plain("jsonrpc"), &Plain("2.0"))?;
        m.serialize_entry(&Plain("id"), &self.id)?;
        m.serialize_entry(&Plain("result"), &self.result)?;
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
        type Result = Vec<i64>;
        fn params(&self) -> &Value {
            &self.0
        }
        fn result_type() -> Option<ResultType> {
            Some(ResultType::of::<Echo>())
        }
    }

    #[test]
    fn awaiting_guesses_only_the_type_every_request_shares() {
        let (echo, text) = (ResultType::of::<Echo>(), ResultType::decoding::<String>());
        let mut a = Awaiting::new();
        assert_eq!(Awaits::<u8>::guess(&a), None);
        a.insert::<Echo>(1u8);
        a.insert_type(2, echo);
        assert_eq!((a.guess(), a.len()), (Some(echo), 2));
        a.insert_type(2, text);
        assert_eq!(
            (a.guess(), a.len()),
            (None, 2),
            "replaced: two types awaited"
        );
        assert_eq!(a.result_type(&2), Some(text));
        assert_eq!(a.remove(&1), Some(echo));
        assert_eq!((a.guess(), a.remove(&1)), (Some(text), None));
        assert_ne!(echo, text);
        assert_eq!(format!("{text:?}"), "ResultType(\"alloc::string::String\")");
    }

    #[test]
    fn a_decoded_value_rides_with_its_text_and_leaves_equality_to_the_text() {
        let decoded: crate::json::Decoded = Arc::new(vec![1i64, 2]);
        let raw = RawJson::checked_decoded("[1, 2]", decoded);
        assert_eq!(raw.decoded::<Vec<i64>>(), Some(&vec![1, 2]));
        assert_eq!(raw.decoded::<Vec<u64>>(), None);
        assert_eq!(raw, RawJson::from_string("[1, 2]".to_owned()).unwrap());
        let shared = raw.clone();
        let wrong = raw.into_decoded::<String>().unwrap_err();
        assert_eq!(wrong.into_decoded::<Vec<i64>>().unwrap(), vec![1, 2]);
        let r = ResultResponse {
            id: 1u8,
            result: shared,
            extra: Extra::new(),
        };
        assert_eq!(r.result_as::<Echo>().unwrap(), vec![1, 2]);
        assert_eq!(r.into_result_as::<Echo>().unwrap(), vec![1, 2]);
    }

    #[test]
    fn into_typed_moves_the_value_decoded_and_reads_the_text_only_without_one() {
        // A stand-in value unlike its text, to tell which of the two was taken.
        let decoded: crate::json::Decoded = Arc::new(vec![7i64]);
        let raw = RawJson::checked_decoded("[1, 2]", decoded);
        assert_eq!(raw.clone().into_typed::<Vec<i64>>().unwrap(), vec![7]);
        assert_eq!(raw.clone().into_typed::<Vec<u64>>().unwrap(), vec![1, 2]);
        let e = raw.into_typed::<String>().unwrap_err();
        assert_eq!(e.pointer(), "");
        let plain = RawJson::from_string("[3]".to_owned()).unwrap();
        assert_eq!(plain.into_typed::<Vec<i64>>().unwrap(), vec![3]);
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
