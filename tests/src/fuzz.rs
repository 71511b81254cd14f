//! The properties the fuzz targets (`fuzz/`) check, one function per target, taking the raw
//! input bytes and panicking when a property fails. `tests/tests/messages/fuzz_regressions.rs`
//! replays every committed crash input and the committed corpora through the same functions,
//! so a fixed crash stays fixed in plain `cargo test`.
//!
//! - [`messages`]: bytes as `ClientMessage`, `ServerMessage` and `JsonRpcMessage` of every
//!   revision.
//! - [`elicit_content`]: bytes as the `content` of an accepted elicitation, for derived forms.
//! - [`codegen_load`]: bytes as a schema document, through the generator's loader, model and
//!   emitter.
//! - [`convert()`]: bytes as a definition of one revision, moved to the adjacent one.
//! - [`check()`]: bytes as messages through the traffic checker, alone and as a session.

use std::collections::HashSet;
use std::fmt::Debug;
use std::sync::LazyLock;

use mcp_typed::convert::{self, ConversionError};
use mcp_typed::elicit::{Elicit, ElicitOutcome, OutcomeError};
use mcp_typed::{DefinitionVisitor, Unknowns};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

/// The bounds every generated type meets and the checks need.
pub trait Generated:
    Serialize
    + DeserializeOwned
    + mcp_typed::runtime::Decode
    + Debug
    + Clone
    + PartialEq
    + Unknowns
    + 'static
{
}
impl<T> Generated for T where
    T: Serialize
        + DeserializeOwned
        + mcp_typed::runtime::Decode
        + Debug
        + Clone
        + PartialEq
        + Unknowns
        + 'static
{
}

// ---------------------------------------------------------------------------------------------
// messages

/// `from_json_awaiting` against `from_json` (see [`messages`]): `$req`'s result awaited for
/// every id, then guessed as `$other`'s and awaited as `$req`'s.
macro_rules! awaited {
    ($t:ident, $msg:ident, $req:ident, $other:ident, $text:expr) => {{
        use mcp_typed::runtime::{Awaits, RequestMethod, ResultType};
        struct Every(Option<ResultType>, ResultType);
        impl Awaits<$t::RequestId> for Every {
            fn result_type(&self, _: &$t::RequestId) -> Option<ResultType> {
                Some(self.1)
            }
            fn guess(&self) -> Option<ResultType> {
                self.0
            }
        }
        let later = $t::$msg::from_json($text);
        let right = ResultType::of::<$t::$req>();
        for awaits in [
            Every(Some(right), right),
            Every(Some(ResultType::of::<$t::$other>()), right),
        ] {
            match (&later, $t::$msg::from_json_awaiting($text, &awaits)) {
                (Ok(later), Ok(now)) => {
                    assert_eq!(later, &now, "{}", $text);
                    if let $t::$msg::Response(r) = &now {
                        let typed = <$t::$req as RequestMethod>::result_from_json(r.result.get());
                        let decoded = r.result.decoded::<<$t::$req as RequestMethod>::Result>();
                        assert_eq!(decoded, typed.as_ref().ok(), "{}", $text);
                    }
                }
                (Err(later), Err(now)) => assert_eq!(later.to_string(), now.to_string()),
                (later, now) => panic!("{}: from_json {later:?}, awaiting {now:?}", $text),
            }
        }
    }};
}

/// Whatever decodes re-encodes to JSON that decodes to an equal value and encodes to the same
/// text again; the unknown-member walk never panics; text that does not decode gets an error
/// response (`from_json`) that is itself a valid message of the other direction. Decoding with
/// a result awaited (`from_json_awaiting`: `tools/call`'s result from the server,
/// `sampling/createMessage`'s from the client, for any id, before or after it; and a guess the
/// id contradicts) gives what `from_json` gives, and the result decoded in the pass exactly
/// when `result_as` decodes its text, to the same value.
pub fn messages(data: &[u8]) {
    macro_rules! each_revision {
        ($($m:ident),*) => {$(
            round_trip::<mcp_typed::$m::ClientMessage>(data);
            round_trip::<mcp_typed::$m::ServerMessage>(data);
            round_trip::<mcp_typed::$m::JsonRpcMessage>(data);
            if let Ok(text) = std::str::from_utf8(data) {
                {
                    use mcp_typed::$m as t;
                    awaited!(t, ServerMessage, CallToolRequest, ListToolsRequest, text);
                    awaited!(t, ClientMessage, CreateMessageRequest, ListRootsRequest, text);
                }
                if let Err(e) = mcp_typed::$m::ClientMessage::from_json(text) {
                    round_trip_value(e.reply());
                }
                if let Err(e) = mcp_typed::$m::ServerMessage::from_json(text) {
                    round_trip_value(e.reply());
                }
            }
        )*};
    }
    each_revision!(
        v2024_11_05,
        v2025_03_26,
        v2025_06_18,
        v2025_11_25,
        v2026_07_28
    );
    // `draft` is checked only while it differs from 2026-07-28: as an alias (the generator
    // makes it one when the schemas agree) it is the same code, and checking it again would
    // only cost a sixth of the executions per second.
    if !draft_is_2026_07_28() {
        each_revision!(draft);
    }
}

fn draft_is_2026_07_28() -> bool {
    use std::any::TypeId;
    TypeId::of::<mcp_typed::draft::ClientMessage>()
        == TypeId::of::<mcp_typed::v2026_07_28::ClientMessage>()
}

/// Decodes `data` as `T`; when it decodes, checks [`round_trip_value`].
fn round_trip<T: Generated>(data: &[u8]) {
    if let Ok(v) = serde_json::from_slice::<T>(data) {
        round_trip_value(&v);
    }
}

/// `v` encodes (mcp-typed's writer and serde_json write the same text); the encoding decodes
/// to an equal value, which encodes to the same text.
fn round_trip_value<T: Generated>(v: &T) {
    let _ = v.unknowns();
    let text = serde_json::to_string(v).expect("a decoded value encodes");
    assert_eq!(
        mcp_typed::to_string(v).expect("a decoded value encodes"),
        text,
        "{}: mcp_typed::to_string is not serde_json::to_string",
        std::any::type_name::<T>()
    );
    let back: T = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{} {v:?}\nencodes as {text}\nwhich does not decode: {e}",
            std::any::type_name::<T>()
        )
    });
    assert_eq!(&back, v, "{text}");
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
}

// ---------------------------------------------------------------------------------------------
// elicit_content

/// A single-select with a renamed option.
#[derive(mcp_typed::Elicit, Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum Seat {
    /// `window`
    Window,
    /// `aisle-seat`
    AisleSeat,
    /// `Standing!`
    #[serde(rename = "Standing!")]
    Standing,
}

/// A titled option list (`oneOf`), used as a multi-select.
#[derive(mcp_typed::Elicit, Serialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Extra {
    /// `meal`
    #[elicit(title = "A meal")]
    Meal,
    /// `wifi`
    Wifi,
}

/// Strings with every constraint, selects, defaults.
#[derive(mcp_typed::Elicit, Serialize, Debug, Clone, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Booking {
    /// Name.
    #[elicit(min_length = 1, max_length = 20, pattern = "^[A-Za-z ]+$")]
    pub name: String,
    /// Date.
    #[elicit(format = "date")]
    pub day: String,
    /// When, exactly.
    #[elicit(format = "date-time")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// Email.
    #[elicit(format = "email")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Web site.
    #[elicit(format = "uri")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// Guests.
    #[elicit(minimum = 1, maximum = 12, default = 2)]
    pub guests: u8,
    /// Whether to look at other dates.
    #[elicit(default = true)]
    pub flexible: bool,
    /// Seat.
    #[elicit(default = "aisle-seat")]
    pub seat: Seat,
    /// Extras.
    #[elicit(min_items = 1, max_items = 2)]
    pub extras: Vec<Extra>,
}

/// Every numeric type, at its full range and with bounds.
#[derive(mcp_typed::Elicit, Serialize, Debug, Clone, PartialEq)]
pub struct Numbers {
    /// i8
    pub a_i8: i8,
    /// i64
    pub a_i64: i64,
    /// u16
    pub a_u16: u16,
    /// u64
    pub a_u64: u64,
    /// usize
    pub a_usize: usize,
    /// f32, bounded
    #[elicit(minimum = -1.5, maximum = 2.5)]
    pub a_f32: f32,
    /// f64
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a_f64: Option<f64>,
    /// bounded, with a default
    #[elicit(minimum = -10, maximum = 10, default = -3)]
    pub small: i32,
    /// a fraction
    #[elicit(minimum = 0, maximum = 1, default = 0.5)]
    pub ratio: f64,
}

/// Only optional members.
#[derive(mcp_typed::Elicit, Serialize, Debug, Clone, PartialEq)]
pub struct Optional {
    /// text
    #[elicit(max_length = 3)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// seat
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// flag
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag: Option<bool>,
}

/// `from_content` of a JSON object never panics and agrees with
/// [`mcp_typed::elicit::validate`]; what it accepts re-encodes to content that validates and
/// reads back equal; what it refuses names a field of the form or an unknown key. `outcome` of
/// any JSON never panics and agrees with `from_content` on accepted content.
pub fn elicit_content(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    if let Value::Object(content) = &value {
        read::<Booking>(content);
        read::<Numbers>(content);
        read::<Optional>(content);
    }
    outcome::<Booking>(&value);
    outcome::<Numbers>(&value);
    outcome::<Optional>(&value);
}

fn read<T: Elicit + Serialize + PartialEq + Debug>(content: &Map<String, Value>) {
    let form = T::requested_schema();
    let read = T::from_content(content);
    let valid = mcp_typed::elicit::validate(form, content);
    match read {
        Ok(t) => {
            assert!(valid.is_ok(), "from_content accepts what validate refuses");
            let Ok(Value::Object(again)) = serde_json::to_value(&t) else {
                panic!("a form encodes as an object")
            };
            if let Err(e) = mcp_typed::elicit::validate(form, &again) {
                panic!("{t:?} re-encodes as {again:?}, which is refused: {e}");
            }
            let back = T::from_content(&again)
                .unwrap_or_else(|e| panic!("{again:?} read back is refused: {e}"));
            assert_eq!(back, t);
        }
        Err(e) => {
            assert!(valid.is_err(), "from_content refuses what validate accepts");
            assert!(!e.violations().is_empty());
            for v in e.violations() {
                assert!(
                    form.fields.iter().any(|f| f.name == v.field) || content.contains_key(&v.field),
                    "violation names neither a field nor a content key: {v}"
                );
            }
        }
    }
}

fn outcome<T: Elicit + Serialize + PartialEq + Debug>(result: &Value) {
    match T::outcome(result) {
        Ok(ElicitOutcome::Accepted(t)) => {
            let content = result
                .get("content")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            assert_eq!(T::from_content(&content).ok(), Some(t));
        }
        Ok(_) => {}
        Err(OutcomeError::Content(e)) => assert!(!e.violations().is_empty()),
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// codegen_load

/// The generator on arbitrary schema text: never panics; refuses with a JSON error or a schema
/// error naming a JSON pointer into the document (`#/…`), never with code that does not
/// parse.
pub fn codegen_load(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match mcp_typed_codegen::Builder::new()
        .schema_json(text)
        .generate()
    {
        Ok(generated) => assert!(!generated.code().is_empty()),
        Err(mcp_typed_codegen::Error::Json { .. }) => {}
        Err(mcp_typed_codegen::Error::Schema { pointer, message }) => {
            assert!(
                pointer == "#" || pointer.starts_with("#/"),
                "schema error without a JSON pointer: {pointer:?}: {message}"
            );
        }
        Err(e) => panic!("schema text refused with an error that names no pointer: {e}"),
    }
}

// ---------------------------------------------------------------------------------------------
// convert

/// A revision's generated module, as a type.
pub trait Revision {
    /// Its schema definitions.
    const DEFINITIONS: &'static [&'static str];
    /// `with_definition` of the module.
    fn with_definition<V: DefinitionVisitor>(name: &str, visitor: V) -> Option<V::Output>;
}

macro_rules! revisions {
    ($($marker:ident = $m:ident),*) => {$(
        #[doc = concat!("`mcp_typed::", stringify!($m), "`.")]
        pub struct $marker;
        impl Revision for $marker {
            const DEFINITIONS: &'static [&'static str] = mcp_typed::$m::DEFINITIONS;
            fn with_definition<V: DefinitionVisitor>(name: &str, visitor: V) -> Option<V::Output> {
                match name {
                    "ClientMessage" => Some(visitor.visit::<mcp_typed::$m::ClientMessage>("ClientMessage")),
                    "ServerMessage" => Some(visitor.visit::<mcp_typed::$m::ServerMessage>("ServerMessage")),
                    _ => mcp_typed::$m::with_definition(name, visitor),
                }
            }
        }
    )*};
}

revisions!(
    V2024_11_05 = v2024_11_05,
    V2025_03_26 = v2025_03_26,
    V2025_06_18 = v2025_06_18,
    V2025_11_25 = v2025_11_25,
    V2026_07_28 = v2026_07_28
);

/// `(older module, definition)` pairs whose upgrade is a `From` impl: the generated
/// conversions promise that it never fails (it `expect`s). Read from the generated source.
static INFALLIBLE: LazyLock<HashSet<(String, String)>> = LazyLock::new(|| {
    let source = include_str!("../../generated/src/conversions.rs");
    source
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("impl From<")?;
            let (from, _) = rest.split_once('>')?;
            let (module, def) = from.split_once("::")?;
            Some((module.to_owned(), def.to_owned()))
        })
        .collect()
});

/// The generated module name of a revision type (`V2025_11_25` → `v2025_11_25`).
fn module_of<R>() -> String {
    let name = std::any::type_name::<R>();
    name.rsplit("::").next().unwrap_or(name).to_lowercase()
}

/// `data[0]` picks a pair of adjacent revisions and a direction, `data[1..3]` a definition
/// (or `ClientMessage`/`ServerMessage`), the rest is the value's JSON. Conversions never
/// panic, and their errors name a JSON pointer; a value with nothing unknown that upgrades
/// comes back equal from an exact downgrade; a value with nothing unknown that downgrades
/// exactly comes back equal from an upgrade; an upgrade the generated code declares a `From`
/// never fails.
pub fn convert(data: &[u8]) {
    let [select, d0, d1, json @ ..] = data else {
        return;
    };
    let def = usize::from(u16::from_le_bytes([*d0, *d1]));
    let up = select & 0x80 == 0;
    match select & 0x7f {
        0 => pair::<V2024_11_05, V2025_03_26>(def, up, json),
        1 => pair::<V2025_03_26, V2025_06_18>(def, up, json),
        2 => pair::<V2025_06_18, V2025_11_25>(def, up, json),
        _ => pair::<V2025_11_25, V2026_07_28>(def, up, json),
    }
}

fn pair<Old: Revision, New: Revision>(def: usize, up: bool, json: &[u8]) {
    let names = if up {
        Old::DEFINITIONS
    } else {
        New::DEFINITIONS
    };
    let name = match def % (names.len() + 2) {
        0 => "ClientMessage",
        1 => "ServerMessage",
        i => names[i - 2],
    };
    if up {
        let infallible = INFALLIBLE.contains(&(module_of::<Old>(), name.to_owned()));
        Old::with_definition(name, Upgrade::<New>::new(json, infallible));
    } else {
        New::with_definition(name, Downgrade::<Old>::new(json));
    }
}

/// A value of some generated type, as what the conversions read of it: its JSON text and its
/// unknowns. Conversions go through JSON, so converting this is converting the value; it
/// keeps the checks from being instantiated for every pair of types (only for every type).
struct Encoded {
    json: Box<serde_json::value::RawValue>,
    unknowns: Vec<mcp_typed::Unknown>,
}

impl Encoded {
    fn of<T: Generated>(value: &T) -> Self {
        Encoded {
            json: serde_json::value::to_raw_value(value).expect("a decoded value encodes"),
            unknowns: value.unknowns(),
        }
    }
}

impl Serialize for Encoded {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(s)
    }
}

impl Unknowns for Encoded {
    fn collect_unknowns(&self, at: &mut mcp_typed::JsonPath, out: &mut Vec<mcp_typed::Unknown>) {
        out.extend(self.unknowns.iter().map(|u| mcp_typed::Unknown {
            pointer: format!("{}{}", at.as_str(), u.pointer),
            kind: u.kind.clone(),
        }));
    }
}

impl Debug for Encoded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.json.get())
    }
}

fn named(e: &ConversionError) {
    assert!(
        e.pointer.is_empty() || e.pointer.starts_with('/'),
        "conversion error without a JSON pointer: {e}"
    );
}

/// Decodes the input as the older revision's type, then upgrades it to `To`'s.
struct Upgrade<'a, To> {
    json: &'a [u8],
    infallible: bool,
    to: std::marker::PhantomData<To>,
}

impl<'a, To> Upgrade<'a, To> {
    fn new(json: &'a [u8], infallible: bool) -> Self {
        Upgrade {
            json,
            infallible,
            to: std::marker::PhantomData,
        }
    }
}

impl<To: Revision> DefinitionVisitor for Upgrade<'_, To> {
    type Output = ();
    fn visit<T: Generated>(self, name: &'static str) {
        let Ok(old) = serde_json::from_slice::<T>(self.json) else {
            return;
        };
        let Some(upgraded) = To::with_definition(name, ConvertTo(Encoded::of(&old), true)) else {
            return;
        };
        let newer = match upgraded {
            Ok((newer, _)) => newer,
            Err(e) => {
                assert!(
                    !self.infallible,
                    "{name}: a From conversion fails on {old:?}: {e}"
                );
                return named(&e);
            }
        };
        match convert::downgrade_exact::<T>(&newer) {
            Ok(back) if old.unknowns().is_empty() => {
                assert_eq!(back, old, "{name} upgraded: {newer:?}")
            }
            Ok(_) => {}
            Err(e) if old.unknowns().is_empty() => {
                panic!("{name} {old:?} upgraded to {newer:?} does not downgrade exactly: {e}")
            }
            Err(e) => named(&e),
        }
    }
}

/// Decodes the input as the newer revision's type, then downgrades it to `To`'s.
struct Downgrade<'a, To> {
    json: &'a [u8],
    to: std::marker::PhantomData<To>,
}

impl<'a, To> Downgrade<'a, To> {
    fn new(json: &'a [u8]) -> Self {
        Downgrade {
            json,
            to: std::marker::PhantomData,
        }
    }
}

impl<To: Revision> DefinitionVisitor for Downgrade<'_, To> {
    type Output = ();
    fn visit<T: Generated>(self, name: &'static str) {
        let Ok(newer) = serde_json::from_slice::<T>(self.json) else {
            return;
        };
        let Some(downgraded) = To::with_definition(name, ConvertTo(Encoded::of(&newer), false))
        else {
            return;
        };
        let (older, dropped) = match downgraded {
            Ok(d) => d,
            Err(e) => return named(&e),
        };
        for p in &dropped {
            assert!(
                p.starts_with('/'),
                "dropped member without a pointer: {p:?}"
            );
        }
        if dropped.is_empty() && newer.unknowns().is_empty() {
            let back = convert::upgrade::<T>(&older).unwrap_or_else(|e| {
                panic!("{name} {newer:?} downgraded exactly to {older:?} does not upgrade: {e}")
            });
            assert_eq!(back, newer, "{name} downgraded: {older:?}");
        }
    }
}

/// Upgrades (`true`) or downgrades the value to the visited type; the result as [`Encoded`],
/// with the pointers a downgrade dropped.
struct ConvertTo(Encoded, bool);

impl DefinitionVisitor for ConvertTo {
    type Output = Result<(Encoded, Vec<String>), ConversionError>;
    fn visit<T: Generated>(self, _: &'static str) -> Self::Output {
        if self.1 {
            convert::upgrade::<T>(&self.0).map(|t| (Encoded::of(&t), Vec::new()))
        } else {
            convert::downgrade::<T>(&self.0).map(|d| (Encoded::of(&d.value), d.dropped))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// check

/// The traffic checker on untrusted bytes: one message, checked against every revision, from
/// either side and from no side known; then the input's lines as a session (alternately from
/// the client and the server, so that responses find the requests they answer and results
/// are typed). It never panics, its report is shown, and every problem and note names a JSON
/// pointer into the message.
pub fn check(data: &[u8]) {
    use mcp_typed::ProtocolVersion;
    use mcp_typed::check::{Checker, Direction, Report};
    fn well_formed(r: &Report) {
        let shown = r.to_string();
        assert!(!shown.is_empty());
        for pointer in r
            .problems
            .iter()
            .map(|p| &p.pointer)
            .chain(r.notes.iter().map(|n| &n.pointer))
        {
            assert!(
                pointer.is_empty() || pointer.starts_with('/'),
                "not a JSON pointer: {pointer:?} in {shown}"
            );
        }
    }
    let dirs = [
        None,
        Some(Direction::ClientToServer),
        Some(Direction::ServerToClient),
    ];
    for version in ProtocolVersion::ALL {
        for dir in dirs {
            well_formed(&Checker::with_revision(version).check_bytes(dir, data));
        }
    }
    let mut session = Checker::new();
    for (i, line) in data.split(|b| *b == b'\n').enumerate() {
        let dir = dirs[1 + i % 2];
        well_formed(&session.check_bytes(dir, line));
    }
}
