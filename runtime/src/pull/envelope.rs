//! One JSON-RPC message of one direction: the envelope read in one pass over the object's
//! members (`jsonrpc`, `id`, `method`, `result`, `error`; everything else skipped), then the
//! typed part decoded from the object's start by the member the `method` names.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{Decode, Error, Kind, Parser, Start};
use crate::json::{Decoded, RawJson};
use crate::messages::{Awaits, MessageParts, NoRequest, ResultResponse, ResultType};

/// The requests or the notifications one side sends, as the message decoder sees them
/// (generated for each revision's `ClientRequest`, `ServerNotification`…).
pub trait Methods: Sized {
    /// Whether the members declare the JSON-RPC envelope (`jsonrpc`, and `id` for requests)
    /// themselves, as from 2025-11-25 on; before, the message keeps it.
    const ENVELOPE: bool;
    /// Decodes the object (`start`: on its `{`) as method `method`'s type; `None` when the
    /// set does not know the method.
    fn decode_method(p: &mut Parser<'_>, method: &str, start: Start)
    -> Option<Result<Self, Error>>;
    /// The value for a method the set does not know, kept whole; `None` when the set has no
    /// catch-all.
    fn custom(raw: Map<String, Value>) -> Option<Self>;
}

impl Methods for NoRequest {
    const ENVELOPE: bool = true;
    fn decode_method(_: &mut Parser<'_>, _: &str, _: Start) -> Option<Result<Self, Error>> {
        None
    }
    fn custom(_: Map<String, Value>) -> Option<Self> {
        None
    }
}

/// Where the envelope's pass found the members besides the one that decides.
struct Envelope {
    /// The message's `{`.
    mark: usize,
    /// Where the values of `jsonrpc` and `id` are, when present.
    jsonrpc: Option<usize>,
    id: Option<usize>,
    /// How many members besides the envelope's the pass met.
    others: usize,
}

/// The member that decides what a message is: the first of `method`, `result` and `error`.
enum Decided<'a> {
    /// `method` (borrowed from the input unless it has escapes), and where its value is when
    /// the members declare the envelope: the pass stopped after that value, where the typed
    /// part goes on ([`Start::AfterTag`]); `None`: the object was read to its end.
    Method(Cow<'a, str>, Option<usize>),
    /// `result`'s text from `start` to `end`, with the type it was decoded as, if any, and
    /// the value when it was one.
    Result(usize, usize, Option<(ResultType, Option<Decoded>)>),
    Error,
}

/// Decodes one message of one direction (see the module's docs). A request's `id` is in
/// [`MessageParts::Request`] when the request type does not hold it (before 2025-11-25), and
/// is then required. A response's `result` is decoded in the same pass as the type `awaits`
/// gives for its `id` (kept with its text, [`RawJson::decoded`]); a result that is not of
/// that type, or not awaited, is kept as text only, as it would be without `awaits`.
///
/// The pass over the envelope is one function for every message set and revision (`scan`),
/// and a response is built by one per `Id` type (`response`): this generic function only
/// dispatches, so that a program decoding both directions runs one copy of the loop.
pub fn message<'a, Req: Methods, Note: Methods, Id: Decode, Err: Decode>(
    p: &mut Parser<'a>,
    awaits: &dyn Awaits<Id>,
) -> Result<MessageParts<Req, Note, Id, Err>, Error> {
    // The `id` when it came before the result: decoded then, with the type it awaits (so
    // neither is done twice).
    let mut early: Option<(Id, Option<ResultType>)> = None;
    let (env, decided) = scan(p, Req::ENVELOPE && Note::ENVELOPE, &mut |q, id| match id {
        // An `id` that does not decode is reported at the end, in its turn.
        Some(at) => Id::decode(&mut q.at(at)).ok().and_then(|id| {
            let awaited = awaits.result_type(&id);
            early = Some((id, awaited));
            awaited
        }),
        None => awaits.guess(),
    })?;
    let whole = || p.at(env.mark);
    match decided {
        Decided::Method(method, Some(value)) => {
            let start = Start::AfterTag {
                tag: "method",
                mark: env.mark,
                value,
            };
            if let Some(r) = Req::decode_method(p, &method, start) {
                return Ok(MessageParts::Request(None, r?));
            }
            if let Some(n) = Note::decode_method(p, &method, start) {
                return Ok(MessageParts::Notification(n?));
            }
            super::skip_rest(p)?;
            custom(p, &env, &method)
        }
        Decided::Method(method, None) => {
            let start = |envelope: bool| {
                if envelope {
                    Start::Value
                } else {
                    Start::Message
                }
            };
            if let Some(r) = Req::decode_method(&mut whole(), &method, start(Req::ENVELOPE)) {
                let r = r?;
                if Req::ENVELOPE {
                    return Ok(MessageParts::Request(None, r));
                }
                envelope_jsonrpc(p, env.jsonrpc)?;
                let id = envelope_id(p, env.id)?.ok_or_else(|| p.error("missing member `id`"))?;
                return Ok(MessageParts::Request(Some(id), r));
            }
            if let Some(n) = Note::decode_method(&mut whole(), &method, start(Note::ENVELOPE)) {
                let n = n?;
                if !Note::ENVELOPE {
                    envelope_jsonrpc(p, env.jsonrpc)?;
                    envelope_id::<Id>(p, env.id)?;
                }
                return Ok(MessageParts::Notification(n));
            }
            custom(p, &env, &method)
        }
        Decided::Result(start, end, typed) => {
            let response = response(p, &env, (start, end, typed), early, awaits)?;
            Ok(MessageParts::Response(response))
        }
        Decided::Error => Ok(MessageParts::Error(Err::decode(&mut whole())?)),
    }
}

/// The pass over a message's members (`jsonrpc`, `id`, `method`, `result`, `error`; others
/// counted and skipped), the same for every message set. `in_members`: the members declare
/// the envelope, and the pass stops after `method`'s value (the typed part goes on from
/// there, in one pass). `expected(p, id)`: the type to decode a `result` as, given where the
/// `id` read before it is.
fn scan<'a>(
    p: &mut Parser<'a>,
    in_members: bool,
    expected: &mut dyn FnMut(&Parser<'a>, Option<usize>) -> Option<ResultType>,
) -> Result<(Envelope, Decided<'a>), Error> {
    let kind = p.peek()?;
    if kind != Kind::Object {
        return Err(p.wrong("a JSON-RPC message", kind));
    }
    let mut env = Envelope {
        mark: p.mark(),
        jsonrpc: None,
        id: None,
        others: 0,
    };
    let mut decided: Option<Decided> = None;
    let mut key = p.object_first()?.map(Member::of);
    while let Some(k) = key {
        match k {
            Member::Jsonrpc | Member::Id => {
                let slot = if k == Member::Jsonrpc {
                    &mut env.jsonrpc
                } else {
                    &mut env.id
                };
                if slot.is_some() {
                    return Err(p.repeated(k.name()).in_key(k.name()));
                }
                *slot = Some(p.mark());
                p.skip()?;
            }
            Member::Method if decided.is_none() => {
                let kind = p.peek()?;
                if kind != Kind::String {
                    return Err(p.wrong("a string", kind).in_key("method"));
                }
                let value = p.mark();
                let method = p.str_cow()?;
                if in_members {
                    // The typed part goes on from here, in one pass (the members before
                    // `method` are read again).
                    return Ok((env, Decided::Method(method, Some(value))));
                }
                decided = Some(Decided::Method(method, None));
            }
            Member::Result if decided.is_none() => {
                // Decoded as the type awaited when there is one (as if alone: nesting counted
                // from the result), else kept as text until typed (`result_as`, where the
                // depth limit applies): a result that does not decode as the type awaited is
                // skipped as text, and the message's verdict is the text's.
                p.peek()?;
                let start = p.mark();
                let typed = expected(p, env.id).map(|t| (t, p.detached(|q| t.decode(q)).ok()));
                if !matches!(typed, Some((_, Some(_)))) {
                    p.skip_raw()?;
                }
                decided = Some(Decided::Result(start, p.mark(), typed));
            }
            Member::Error if decided.is_none() => {
                decided = Some(Decided::Error);
                p.skip()?;
            }
            _ => {
                env.others += 1;
                p.skip()?;
            }
        }
        key = p.object_next()?.map(Member::of);
    }
    match decided {
        None => Err(p.error("not a JSON-RPC message: no `method`, `result` or `error`")),
        Some(decided) => Ok((env, decided)),
    }
}

/// `jsonrpc` when the message (not its typed part) holds it: must be "2.0".
fn envelope_jsonrpc(p: &Parser<'_>, jsonrpc: Option<usize>) -> Result<(), Error> {
    match jsonrpc {
        None => Err(p.error("missing member `jsonrpc`")),
        Some(at) => super::const_str(&mut p.at(at), "2.0").map_err(|e| e.in_key("jsonrpc")),
    }
}

/// The message's `id`, when it has one.
fn envelope_id<Id: Decode>(p: &Parser<'_>, id: Option<usize>) -> Result<Option<Id>, Error> {
    id.map(|at| Id::decode(&mut p.at(at)).map_err(|e| e.in_key("id")))
        .transpose()
}

/// A response: its `result` (text from `start` to `end`, and what the pass decoded it as),
/// its id (`early` when the pass decoded it) and its members besides the envelope. One copy
/// per `Id` type, shared by the two message sets.
fn response<Id: Decode>(
    p: &Parser<'_>,
    env: &Envelope,
    (start, end, typed): (usize, usize, Option<(ResultType, Option<Decoded>)>),
    early: Option<(Id, Option<ResultType>)>,
    awaits: &dyn Awaits<Id>,
) -> Result<ResultResponse<Id>, Error> {
    envelope_jsonrpc(p, env.jsonrpc)?;
    let (id, awaited) = match early {
        Some(early) => early,
        None => {
            let id = envelope_id(p, env.id)?.ok_or_else(|| p.error("missing member `id`"))?;
            let awaited = awaits.result_type(&id);
            (id, awaited)
        }
    };
    // Read already (decoded, or by `skip_raw`): checked, not parsed again. What was tried is
    // the outcome when the `id` awaits that type (the id's own type, or a guess that held); a
    // result the id awaits as another type (the guess was wrong, or there was none) is
    // decoded again from its text.
    let text = p.text(start, end);
    let decoded = match (awaited, typed) {
        (None, _) => None,
        (Some(awaited), Some((t, value))) if awaited == t => value,
        (Some(awaited), _) => retyped(p, awaited, start),
    };
    let result = match decoded {
        Some(value) => RawJson::checked_decoded(text, value),
        None => RawJson::checked(text),
    };
    let extra = if env.others > 0 {
        response_extra(p, env.mark)?
    } else {
        crate::Extra::new()
    };
    Ok(ResultResponse { id, result, extra })
}

/// A response's members besides the envelope and the result, kept (rare: a second pass).
#[cold]
fn response_extra(p: &Parser<'_>, mark: usize) -> Result<crate::Extra, Error> {
    let mut extra = crate::Extra::new();
    let mut q = p.at(mark);
    q.peek()?;
    let mut key = q.object_first()?.map(str::to_owned);
    let mut result_seen = false;
    while let Some(k) = key {
        match k.as_str() {
            "jsonrpc" | "id" => q.skip()?,
            "result" if !result_seen => {
                result_seen = true;
                q.skip_raw()?
            }
            _ => {
                let v = super::value(&mut q).map_err(|e| e.in_member(&k))?;
                if extra.contains_key(&k) {
                    return Err(q.repeated(&k).in_member(&k));
                }
                extra.insert(k, v);
            }
        }
        key = q.object_next()?.map(str::to_owned);
    }
    Ok(extra)
}

/// The result at `start` decoded as `t` (as if alone), when it is one.
#[cold]
fn retyped(p: &Parser<'_>, t: ResultType, start: usize) -> Option<Decoded> {
    let mut q = p.at(start);
    q.peek().ok()?;
    q.detached(|q| t.decode(q)).ok()
}

/// The members the envelope reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Member {
    Jsonrpc,
    Id,
    Method,
    Result,
    Error,
    Other,
}

impl Member {
    fn of(key: &str) -> Member {
        match key {
            "jsonrpc" => Member::Jsonrpc,
            "id" => Member::Id,
            "method" => Member::Method,
            "result" => Member::Result,
            "error" => Member::Error,
            _ => Member::Other,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Member::Jsonrpc => "jsonrpc",
            Member::Id => "id",
            Member::Method => "method",
            Member::Result => "result",
            Member::Error => "error",
            Member::Other => "",
        }
    }
}

/// A message whose method neither set knows, kept whole (without `jsonrpc` and `id` when
/// the message holds them: before 2025-11-25), a request when it has an `id`. `env`: where
/// the envelope's members are, when read before the method.
#[cold]
fn custom<Req: Methods, Note: Methods, Id: Decode, Err>(
    p: &Parser<'_>,
    env: &Envelope,
    method: &str,
) -> Result<MessageParts<Req, Note, Id, Err>, Error> {
    let (mark, id) = (env.mark, env.id);
    let mut raw = super::kept_whole(&mut p.at(mark))?;
    let is_request = id.is_some() || raw.contains_key("id");
    let typed_id = if Req::ENVELOPE {
        // A custom request's id is checked as a typed request's is, so that a decoded
        // request always has one to answer.
        match raw.get("id") {
            Some(v) => Some(
                super::from_str::<Id>(&crate::json::value_text(v)).map_err(|e| {
                    p.at(mark)
                        .error(format!("invalid request `id`: {}", e.message()))
                })?,
            ),
            None => None,
        }
    } else {
        envelope_jsonrpc(p, env.jsonrpc)?;
        raw.shift_remove("jsonrpc");
        raw.shift_remove("id");
        envelope_id(p, id)?
    };
    if is_request {
        let req = Req::custom(raw).ok_or_else(|| {
            p.error(format!(
                "request method {method:?} is not one this side sends in this revision \
                 (from 2026-07-28 on, a server asks for input by returning an \
                 InputRequiredResult instead of sending requests)"
            ))
        })?;
        Ok(MessageParts::Request(typed_id, req))
    } else {
        let note = Note::custom(raw).ok_or_else(|| {
            p.error(format!(
                "notification method {method:?} is not one this side sends"
            ))
        })?;
        Ok(MessageParts::Notification(note))
    }
}
