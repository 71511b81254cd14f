//! The pull decoder against serde_json (open JSON: same values, same verdicts), its errors,
//! and hand-written decoders as the generator emits them.

use indexmap::IndexMap;
use proptest::prelude::*;
use serde_json::{Number, Value, json};

use super::*;
use crate::{layout, slot};

// ---- Hand-written decoders, as the generator emits them ------------------------------------

#[derive(Debug, PartialEq)]
struct Tool {
    name: String,
    title: Option<String>,
    tags: Vec<String>,
    size: Option<u64>,
    extra: crate::Extra,
}

impl InPlace for Tool {
    const LAYOUT: Layout<Self> = layout!(
        Tool,
        "a Tool object",
        [
            required(name, "name"),
            // `null` reads as absent, as generated optional members do.
            nullable(title, "title"),
            required(tags, "tags"),
            optional(size, "size"),
        ],
        [str("kind", "tool")],
        keep(extra),
    );
}

/// Unknown members refused.
#[derive(Debug, PartialEq)]
struct Strict {
    a: i64,
    b: Option<bool>,
}

impl InPlace for Strict {
    const LAYOUT: Layout<Self> = layout!(
        Strict,
        "a Strict object",
        [required(a, "a"), optional(b, "b")],
        [],
        deny(),
    );
}

/// Unknown members typed (`additionalProperties` with a schema).
#[derive(Debug, PartialEq)]
struct Counts {
    total: i64,
    rest: IndexMap<String, i64>,
}

impl InPlace for Counts {
    const LAYOUT: Layout<Self> = layout!(
        Counts,
        "a Counts object",
        [required(total, "total")],
        [],
        typed(rest),
    );
}

#[derive(Debug, PartialEq)]
struct Text {
    text: String,
    extra: crate::Extra,
}

impl InPlace for Text {
    const LAYOUT: Layout<Self> = layout!(
        Text,
        "a TextContent object",
        [required(text, "text")],
        [str("type", "text")],
        keep(extra),
    );
}

#[derive(Debug, PartialEq)]
struct Image {
    data: String,
    mime: String,
}

impl InPlace for Image {
    const LAYOUT: Layout<Self> = layout!(
        Image,
        "an ImageContent object",
        [required(data, "data"), required(mime, "mimeType")],
        [str("type", "image")],
        deny(),
    );
}

/// A tagged union with a catch-all; how `start` reached each variant is recorded.
#[derive(Debug, PartialEq)]
enum Content {
    Text(Text, bool),
    Image(Image, bool),
    Other(Value),
}

impl Decode for Content {
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        tagged(
            p,
            "type",
            &["text", "image"],
            "a ContentBlock",
            &mut |p, tag, start| {
                let one_pass = matches!(start, Start::AfterTag { .. });
                match tag {
                    Tag::Known(0) => Ok(Content::Text(Text::decode_object(p, start)?, one_pass)),
                    Tag::Known(_) => Ok(Content::Image(Image::decode_object(p, start)?, one_pass)),
                    Tag::Unknown => Ok(Content::Other(value(p)?)),
                    Tag::Absent => Err(p.error("missing member `type` in a ContentBlock")),
                }
            },
        )
    }
}

/// A union whose tag (`mode`) may be absent, then meaning `form` (as `ElicitRequestParams`);
/// decoded with [`tagged`] (`guess: false`) or [`tagged_or_absent`] (`guess: true`).
#[derive(Debug, PartialEq)]
enum Elicit {
    Url {
        url: String,
        message: String,
    },
    Form {
        message: String,
        mode: Option<usize>,
    },
    Other(Value),
}

fn elicit(p: &mut Parser<'_>, guess: bool) -> Result<Elicit, Error> {
    static URL: Table<UrlSlots> = Table {
        expecting: "a Url object",
        keys: &["url", "message", "mode"],
        required: 0b111,
        consts: 0b100,
        slots: &[
            slot!(UrlSlots, url),
            slot!(UrlSlots, message),
            Slot::str("url"),
        ],
    };
    static FORM: Table<FormSlots> = Table {
        expecting: "a Form object",
        keys: &["message", "mode"],
        required: 0b01,
        consts: 0,
        slots: &[slot!(FormSlots, message), slot!(FormSlots, mode)],
    };
    struct UrlSlots {
        url: Option<String>,
        message: Option<String>,
    }
    /// The `mode` of a form: its index in `["form"]`.
    struct Mode(usize);
    impl Decode for Mode {
        fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
            one_of(p, &["form"], "a mode").map(Mode)
        }
    }
    struct FormSlots {
        message: Option<String>,
        // `null` reads as absent, as generated optional members do.
        mode: Option<Option<Mode>>,
    }
    let variant = &mut |p: &mut Parser<'_>, tag: Tag, start: Start| match tag {
        Tag::Known(0) => {
            let mut s = UrlSlots {
                url: None,
                message: None,
            };
            object(p, &URL, start, Unknown::Deny, &mut s)?;
            Ok(Elicit::Url {
                url: required(s.url, "url")?,
                message: required(s.message, "message")?,
            })
        }
        Tag::Known(_) | Tag::Absent => {
            let mut s = FormSlots {
                message: None,
                mode: None,
            };
            object(p, &FORM, start, Unknown::Deny, &mut s)?;
            Ok(Elicit::Form {
                message: required(s.message, "message")?,
                mode: s.mode.flatten().map(|m| m.0),
            })
        }
        Tag::Unknown => Ok(Elicit::Other(value(p)?)),
    };
    if guess {
        tagged_or_absent(p, "mode", &["url", "form"], "an Elicit object", variant)
    } else {
        tagged(p, "mode", &["url", "form"], "an Elicit object", variant)
    }
}

/// [`Elicit`] by the one-pass guess.
#[derive(Debug, PartialEq)]
struct Guessed(Elicit);

impl Decode for Guessed {
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        elicit(p, true).map(Guessed)
    }
}

/// [`Elicit`] by the tag search.
#[derive(Debug, PartialEq)]
struct Searched(Elicit);

impl Decode for Searched {
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        elicit(p, false).map(Searched)
    }
}

/// A union told apart by its members: `{"uri", "text"}` or `{"uri", "blob"}`, or a
/// JSON-RPC-like `{"method"}` vs `{"result"}` by a constant.
#[derive(Debug, PartialEq)]
enum Resource {
    Text(String),
    Blob(String),
}

impl Decode for Resource {
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        const TEXT: Fits = Fits::Kinds(KindSet::STRING);
        static UNION: Merged = Merged {
            slots: &["uri", "text", "blob"],
            variants: &[
                Variant::new(
                    &[
                        Check::Field(0, true, TEXT),
                        Check::Field(1, true, TEXT),
                        Check::Refused(2),
                    ],
                    false,
                ),
                Variant::new(
                    &[
                        Check::Field(0, true, TEXT),
                        Check::Refused(1),
                        Check::Field(2, true, TEXT),
                    ],
                    false,
                ),
            ],
            common: &[],
        };
        let one = |q: &mut Parser<'_>, slot: &'static str| -> Result<String, Error> {
            static TABLE: Table<Slots> = Table {
                expecting: "a ResourceContents",
                keys: &["uri", "text", "blob"],
                required: 0b001,
                consts: 0,
                slots: &[slot!(Slots, uri), slot!(Slots, text), slot!(Slots, blob)],
            };
            struct Slots {
                uri: Option<String>,
                text: Option<String>,
                blob: Option<String>,
            }
            let mut s = Slots {
                uri: None,
                text: None,
                blob: None,
            };
            object(q, &TABLE, Start::Value, Unknown::Deny, &mut s)?;
            required(if slot == "text" { s.text } else { s.blob }, slot)
        };
        let mut scores = [None; 2];
        let mark = UNION.score(p, Start::Value, &mut scores)?;
        let member = |k: usize| match k {
            0 => one(&mut p.at(mark), "text").map(Resource::Text),
            _ => one(&mut p.at(mark), "blob").map(Resource::Blob),
        };
        best_member(&scores, &member)
            .unwrap_or_else(|| Err(p.error("expected a ResourceContents: `text` or `blob`")))
    }
}

/// A union told apart by members as an elicitation form's field schemas are (under a tag
/// `type`, every variant requiring `"s"`), decoded in one pass ([`Merged::one_pass`]) or by
/// scoring then decoding the variant chosen: `Form` holds which variant and its members.
/// Two variants type `items` differently (objects of two shapes), as the `"array"` fields
/// do: the pass keeps it as a mark ([`Merged::one_pass_deferred`]).
#[derive(Debug, PartialEq)]
struct Form {
    variant: usize,
    title: Option<String>,
    n: Option<i64>,
    list: Option<Vec<String>>,
    one_of: Option<Vec<String>>,
    names: Option<Vec<String>>,
    items_s: Option<IndexMap<String, String>>,
    items_n: Option<IndexMap<String, i64>>,
    extra: crate::Extra,
}

/// Every slot of [`FORM`]; each variant's table points into it too.
struct FormSlots {
    title: Option<String>,
    n: Option<i64>,
    list: Option<Vec<String>>,
    one_of: Option<Vec<String>>,
    names: Option<Vec<String>>,
    /// The one pass's: `items` left where it is, then decoded into one of the two below.
    items: Option<Marked>,
    items_s: Option<IndexMap<String, String>>,
    items_n: Option<IndexMap<String, i64>>,
}

const FORM_KEYS: [&str; 7] = ["type", "title", "n", "enum", "oneOf", "names", "items"];

/// Four variants: `{title?, n?}`, `{title?, enum, items?: {s: string}}`, `{title?, oneOf,
/// items?: {n: integer}}`, and a closed `{enum, names?}`.
static FORM: Merged = Merged {
    slots: &FORM_KEYS,
    variants: &[
        Variant::new(
            &[
                Check::Const(0, Const::Str("s")),
                Check::Field(1, false, Fits::Kinds(KindSet::STRING)),
                Check::Field(2, false, Fits::Kinds(KindSet::INTEGER)),
            ],
            false,
        ),
        Variant::new(
            &[
                Check::Const(0, Const::Str("s")),
                Check::Field(1, false, Fits::Kinds(KindSet::STRING)),
                Check::Field(3, true, Fits::Kinds(KindSet::ARRAY)),
                Check::Field(6, false, Fits::Shaped(KindSet::OBJECT, &[ITEMS_S])),
            ],
            false,
        ),
        Variant::new(
            &[
                Check::Const(0, Const::Str("s")),
                Check::Field(1, false, Fits::Kinds(KindSet::STRING)),
                Check::Field(4, true, Fits::Kinds(KindSet::ARRAY)),
                Check::Field(6, false, Fits::Shaped(KindSet::OBJECT, &[ITEMS_N])),
            ],
            false,
        ),
        Variant::new(
            &[
                Check::Const(0, Const::Str("s")),
                Check::Refused(1),
                Check::Refused(2),
                Check::Field(3, true, Fits::Kinds(KindSet::ARRAY)),
                Check::Refused(4),
                Check::Field(5, false, Fits::Kinds(KindSet::ARRAY)),
                Check::Refused(6),
            ],
            true,
        ),
    ],
    common: &[(0, Const::Str("s"))],
};

const ITEMS_S: Shape = Shape {
    required: &["s"],
    consts: &[],
};
const ITEMS_N: Shape = Shape {
    required: &["n"],
    consts: &[],
};

/// `items`, typed by the variant picked.
static FORM_ITEMS: Deferred<FormSlots> = Deferred {
    slot: 6,
    marked: |s| s.items,
    decode: |s, k, q| {
        match k {
            1 => s.items_s = Some(Decode::decode(q)?),
            2 => s.items_n = Some(Decode::decode(q)?),
            _ => {}
        }
        Ok(())
    },
};

impl Form {
    /// `p` on the object (or after its tag, `start`), as the generated code decodes a group
    /// told apart by members, with or without the one pass first.
    /// The one pass's table: every slot, nothing required.
    const ONE_PASS: Table<FormSlots> = Table {
        expecting: "a Form object",
        keys: &FORM_KEYS,
        required: 0,
        consts: 1,
        slots: &[
            Slot::str("s"),
            slot!(FormSlots, title),
            slot!(FormSlots, n),
            slot!(FormSlots, list),
            slot!(FormSlots, one_of),
            slot!(FormSlots, names),
            slot!(FormSlots, items),
        ],
    };

    fn empty() -> FormSlots {
        FormSlots {
            title: None,
            n: None,
            list: None,
            one_of: None,
            names: None,
            items: None,
            items_s: None,
            items_n: None,
        }
    }

    fn group(p: &mut Parser<'_>, start: Start, one_pass: bool) -> Result<Form, Error> {
        static VARIANTS: [Table<FormSlots>; 4] = [
            Table {
                expecting: "a Form object",
                keys: &["type", "title", "n"],
                required: 0b001,
                consts: 0b001,
                slots: &[Slot::str("s"), slot!(FormSlots, title), slot!(FormSlots, n)],
            },
            Table {
                expecting: "a Form object",
                keys: &["type", "title", "enum", "items"],
                required: 0b101,
                consts: 0b001,
                slots: &[
                    Slot::str("s"),
                    slot!(FormSlots, title),
                    slot!(FormSlots, list),
                    slot!(FormSlots, items_s),
                ],
            },
            Table {
                expecting: "a Form object",
                keys: &["type", "title", "oneOf", "items"],
                required: 0b101,
                consts: 0b001,
                slots: &[
                    Slot::str("s"),
                    slot!(FormSlots, title),
                    slot!(FormSlots, one_of),
                    slot!(FormSlots, items_n),
                ],
            },
            Table {
                expecting: "a Form object",
                keys: &["type", "enum", "names"],
                required: 0b011,
                consts: 0b001,
                slots: &[
                    Slot::str("s"),
                    slot!(FormSlots, list),
                    slot!(FormSlots, names),
                ],
            },
        ];
        fn build(variant: usize, s: FormSlots, extra: crate::Extra) -> Result<Form, Error> {
            Ok(Form {
                variant,
                list: match variant {
                    1 | 3 => Some(required(s.list, "enum")?),
                    _ => s.list,
                },
                one_of: match variant {
                    2 => Some(required(s.one_of, "oneOf")?),
                    _ => s.one_of,
                },
                title: s.title,
                n: s.n,
                names: s.names,
                items_s: s.items_s,
                items_n: s.items_n,
                extra,
            })
        }
        if one_pass {
            let mut s = Form::empty();
            let mut extra = crate::Extra::new();
            if let Some(k) =
                FORM.one_pass_deferred(p, &Form::ONE_PASS, &FORM_ITEMS, start, &mut extra, &mut s)
            {
                return build(k, s, extra);
            }
        }
        let mut scores = [None; 4];
        let mark = FORM.score(p, start, &mut scores)?;
        let member = |k: usize| {
            let mut s = Form::empty();
            let mut extra = crate::Extra::new();
            let unknown = if k == 3 {
                Unknown::Deny
            } else {
                Unknown::Keep(&mut extra)
            };
            object(&mut p.at(mark), &VARIANTS[k], Start::Value, unknown, &mut s)?;
            build(k, s, extra)
        };
        best_member(&scores, &member).unwrap_or_else(|| Err(p.error("no member of Form matches")))
    }

    /// The group under its tag (`tagged`), or alone (`Start::Value`).
    fn decode(text: &str, tagged: bool, one_pass: bool) -> Result<Form, Error> {
        let mut p = Parser::new(text);
        let form = if tagged {
            super::tagged(
                &mut p,
                "type",
                &["s"],
                "a Form",
                &mut |p, tag, start| match tag {
                    Tag::Known(_) => Form::group(p, start, one_pass),
                    Tag::Unknown => Err(p.error("unknown type")),
                    Tag::Absent => Err(p.error("missing member `type`")),
                },
            )
        } else {
            Form::group(&mut p, Start::Value, one_pass)
        }?;
        p.finish()?;
        Ok(form)
    }
}

const FORM_MEMBER_KEYS: [&str; 8] = [
    "type", "title", "n", "enum", "oneOf", "names", "items", "zz",
];
const FORM_VALUES: [&str; 14] = [
    r#""s""#,
    r#""x""#,
    r#""\u0073""#,
    "1",
    "1.5",
    "-2",
    "null",
    "true",
    "[]",
    r#"["a"]"#,
    r#"["a","b"]"#,
    "[1]",
    "{}",
    r#"{"k":[1,{"z":null}]}"#,
];

/// When the one pass decides, and when it leaves the object to the scoring: the variant it
/// builds (`None`: scored instead), and both ways give the same.
#[test]
fn one_pass_builds_the_variant_scoring_would_choose() {
    let cases: [(&str, Option<usize>); 18] = [
        (r#"{"type":"s","title":"a","n":1}"#, Some(0)),
        (r#"{"type":"s"}"#, Some(0)),
        (r#"{"title":"a","type":"s","enum":["a"]}"#, Some(1)),
        (r#"{"type":"s","enum":["a"],"zz":1}"#, Some(1)),
        (r#"{"type":"s","oneOf":["a"]}"#, Some(2)),
        (r#"{"type":"s","enum":["a"],"names":["n"]}"#, Some(3)),
        // The closed variant is ruled out by `zz`; the next best does not declare `names`.
        (r#"{"type":"s","enum":["a"],"names":["n"],"zz":1}"#, None),
        // The best (0) does not declare `names`: to it, an unknown member.
        (r#"{"type":"s","title":"a","names":["n"]}"#, None),
        // 1 and 2 tie; 1 (first) does not declare `oneOf`.
        (r#"{"type":"s","enum":["a"],"oneOf":["b"]}"#, None),
        // Its slot's type refuses the value; no variant fits completely; a repeated member.
        (r#"{"type":"s","n":"x"}"#, None),
        (r#"{"type":"s","title":"a","enum":1}"#, None),
        (r#"{"type":"s","title":"a","title":"b"}"#, None),
        // `items`, typed per variant, tells 1 and 2 apart by its shape, then is decoded.
        (r#"{"type":"s","enum":["a"],"items":{"s":"x"}}"#, Some(1)),
        (
            r#"{"items":{"m":2,"n":-1},"type":"s","oneOf":["a"]}"#,
            Some(2),
        ),
        // Not 1's shape (or not an object): 0 is the best complete, and does not declare it.
        (r#"{"type":"s","enum":["a"],"items":{"n":1}}"#, None),
        (r#"{"type":"s","enum":["a"],"items":{"m":"x"}}"#, None),
        (r#"{"type":"s","enum":["a"],"items":[1]}"#, None),
        // 1's shape, but not its type: the scoring decodes it (as 0, keeping `items`).
        (r#"{"type":"s","enum":["a"],"items":{"s":1}}"#, None),
    ];
    for (text, expected) in cases {
        let mut p = Parser::new(text);
        let (mut s, mut extra) = (Form::empty(), crate::Extra::new());
        let once = FORM.one_pass_deferred(
            &mut p,
            &Form::ONE_PASS,
            &FORM_ITEMS,
            Start::Value,
            &mut extra,
            &mut s,
        );
        assert_eq!(once, expected, "{text}");
        if once.is_none() {
            assert_eq!(p.mark(), 0, "{text}: the parser has not moved");
        }
        one_pass_as_scoring(text).unwrap();
    }
    // Built, a closed variant keeps nothing more; an open one its unknown members.
    let form = Form::decode(r#"{"type":"s","enum":["a"],"zz":1}"#, true, true).unwrap();
    assert_eq!((form.variant, form.extra.len()), (1, 1));
    // `items` decoded as the variant picked types it; where that fails, kept by the next.
    let form = Form::decode(r#"{"type":"s","oneOf":["a"],"items":{"n":7}}"#, true, true).unwrap();
    assert_eq!((form.variant, form.items_n.unwrap()["n"]), (2, 7));
    let form = Form::decode(r#"{"type":"s","enum":["a"],"items":{"s":1}}"#, false, true).unwrap();
    assert_eq!((form.variant, form.extra.len()), (0, 2));
}

/// Per key of [`FORM_MEMBER_KEYS`], values its slot takes (most generated objects decode).
const FORM_GOOD: [&[&str]; 8] = [
    &[r#""s""#],
    &[r#""a""#, r#""t\u0041""#],
    &["1", "-2"],
    &[r#"["a"]"#, "[]"],
    &[r#"["a","b"]"#],
    &[r#"["n"]"#],
    &[
        r#"{"s":"x"}"#,
        r#"{"n":1,"m":2}"#,
        r#"{"s":"x","n":1}"#,
        r#"{"s":1}"#,
        r#"{"m":"x"}"#,
    ],
    &["null", r#"{"k":[1]}"#],
];

/// An object of [`FORM`]'s keys (and one in no slot); `(key, good, value)`: a value its
/// slot takes, or any of [`FORM_VALUES`].
fn form_text(members: &[(usize, bool, usize)]) -> String {
    let members: Vec<String> = members
        .iter()
        .map(|&(k, good, v)| {
            let value = if good {
                FORM_GOOD[k][v % FORM_GOOD[k].len()]
            } else {
                FORM_VALUES[v % FORM_VALUES.len()]
            };
            format!("{:?}:{value}", FORM_MEMBER_KEYS[k])
        })
        .collect();
    format!("{{{}}}", members.join(","))
}

/// Both ways of decoding a [`FORM`] object give the same value, or the same error (message,
/// pointer, line, column).
fn one_pass_as_scoring(text: &str) -> Result<(), TestCaseError> {
    for tagged in [false, true] {
        let once = Form::decode(text, tagged, true);
        let scored = Form::decode(text, tagged, false);
        match (&once, &scored) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "{} (tagged: {})", text, tagged),
            (Err(a), Err(b)) => prop_assert_eq!(
                (a.message(), a.pointer(), a.line(), a.column()),
                (b.message(), b.pointer(), b.line(), b.column()),
                "{} (tagged: {})",
                text,
                tagged
            ),
            _ => prop_assert!(
                false,
                "{} (tagged: {}): one pass {:?}, scored {:?}",
                text,
                tagged,
                once,
                scored
            ),
        }
    }
    Ok(())
}

// ---- Decoding in place: what was written is dropped once, on every path -----------------------

thread_local! {
    /// `Live` values made and not yet dropped, on this thread.
    static LIVE: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
}

/// A string member that counts its instances.
#[derive(Debug)]
struct Live(String);

impl Decode for Live {
    fn decode(p: &mut Parser<'_>) -> Result<Self, Error> {
        let s = String::decode(p)?;
        LIVE.with(|n| n.set(n.get() + 1));
        Ok(Live(s))
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        LIVE.with(|n| n.set(n.get() - 1));
    }
}

/// Every kind of slot, an object nested in place, a constant, and the rest kept.
#[derive(Debug)]
struct Held {
    a: Live,
    b: Option<Live>,
    c: Box<Live>,
    d: Option<Box<Live>>,
    e: Option<Live>,
    inner: Option<Inner>,
    first: Inner,
    extra: crate::Extra,
}

#[derive(Debug)]
struct Inner {
    x: Live,
    y: Vec<Live>,
}

impl InPlace for Held {
    const LAYOUT: Layout<Self> = layout!(
        Held,
        "a Held object",
        [
            required(a, "a"),
            optional(b, "b"),
            required_boxed(c, "c"),
            optional_boxed(d, "d"),
            nullable(e, "e"),
            optional(inner, "inner"),
            // Decoded by the loop where the field lies.
            object(first, "first"),
        ],
        [int("v", 1)],
        keep(extra),
    );
}

impl InPlace for Inner {
    const LAYOUT: Layout<Self> = layout!(
        Inner,
        "an Inner object",
        [required(x, "x"), required(y, "y")],
        [],
        deny(),
    );
}

fn live() -> isize {
    LIVE.with(|n| n.get())
}

/// Decodes `text` as a `Held`: the number of `Live` values it holds (none on an error), and
/// that dropping it leaves none.
fn held_live(text: &str) -> Result<isize, String> {
    assert_eq!(live(), 0);
    let held = from_str::<Held>(text);
    let n = live();
    let verdict = match &held {
        Ok(_) => Ok(n),
        Err(e) => {
            assert_eq!(n, 0, "an error leaves no value made: {text:?}: {e}");
            Err(e.to_string())
        }
    };
    drop(held);
    assert_eq!(live(), 0, "every value dropped once: {text:?}");
    verdict
}

const HELD: &str = r#"{"b": "2", "a": "1", "x": [true], "c": "3", "d": "4", "e": null, "v": 1,
    "inner": {"x": "5", "y": ["6", "7"]}, "first": {"y": ["9"], "x": "8"}}"#;

#[test]
fn in_place_writes_each_field_and_an_absent_one_as_none() {
    let held: Held = from_str(HELD).unwrap();
    assert_eq!((held.a.0.as_str(), held.c.0.as_str()), ("1", "3"));
    assert_eq!(held.b.as_ref().map(|b| b.0.as_str()), Some("2"));
    assert_eq!(held.d.as_ref().map(|d| d.0.as_str()), Some("4"));
    assert!(held.e.is_none(), "null reads as absent");
    let inner = held.inner.as_ref().unwrap();
    assert_eq!(
        inner.y.iter().map(|y| y.0.as_str()).collect::<Vec<_>>(),
        ["6", "7"]
    );
    assert_eq!(held.extra.get("x"), Some(&json!([true])));
    assert_eq!(
        (held.first.x.0.as_str(), held.first.y[0].0.as_str()),
        ("8", "9")
    );
    drop(held);
    assert_eq!(held_live(HELD), Ok(9));
    const FIRST: &str = r#""first": {"x": "8", "y": []}"#;
    let few: Held = from_str(&format!(r#"{{"v": 1, "c": "3", "a": "1", {FIRST}}}"#)).unwrap();
    assert!(few.b.is_none() && few.d.is_none() && few.e.is_none() && few.inner.is_none());
    assert!(few.extra.is_empty());
    drop(few);
    let text = format!(r#"{{"e": "5", "v": 1, {FIRST}, "c": "3", "a": "1"}}"#);
    assert_eq!(held_live(&text), Ok(4));
}

#[test]
fn in_place_errors_drop_what_was_written() {
    for (text, error) in [
        (r#"{"a": "1", "b": "2", "a": "3"}"#, "duplicate member `a`"),
        (
            r#"{"b": "2", "d": "4", "v": 1}"#,
            "missing members `a`, `c`",
        ),
        (
            r#"{"a": "1", "c": "3", "d": 4, "v": 1}"#,
            "expected a string at `/d`",
        ),
        (r#"{"a": "1", "c": "3", "v": 2}"#, "expected 1 at `/v`"),
        (
            r#"{"a": "1", "c": "3", "v": 1, "inner": {"x": "5", "y": ["6", 7]}}"#,
            "`/inner/y/1`",
        ),
        (
            r#"{"a": "1", "c": "3", "v": 1, "inner": {"y": ["6"], "z": 0}}"#,
            "unknown member `z`",
        ),
        (
            r#"{"x": 1, "a": "1", "c": "3", "x": 2}"#,
            "duplicate member `x`",
        ),
        (r#"{"a": "1", "c": "3", "v": 1}"#, "missing member `first`"),
        (
            r#"{"a": "1", "c": "3", "v": 1, "first": {"x": "8"}}"#,
            "missing member `y`",
        ),
        (
            r#"{"a": "1", "first": {"x": "8", "y": [9]}}"#,
            "`/first/y/0`",
        ),
        (
            r#"{"a": "1", "first": []}"#,
            "expected an Inner object at `/first`",
        ),
        (
            r#"{"first": {"x": "8", "y": []}, "a": "1", "first": {}}"#,
            "duplicate member `first`",
        ),
    ] {
        let e = held_live(text).unwrap_err();
        assert!(e.contains(error), "{text}: {e}");
    }
    // Every prefix of a valid object, and every byte of it changed to one that breaks it.
    for end in 0..HELD.len() {
        if HELD.is_char_boundary(end) {
            assert!(held_live(&HELD[..end]).is_err());
        }
    }
    for at in 0..HELD.len() {
        for b in [b'}', b',', b'"', b'1'] {
            let mut text = HELD.as_bytes().to_vec();
            text[at] = b;
            if let Ok(text) = std::str::from_utf8(&text) {
                let _ = held_live(text);
            }
        }
    }
}

// ---- Open JSON against serde_json -----------------------------------------------------------

/// Same verdict, and the same value when both decode (`to_string` too: `-0.0` vs `0`).
fn same_str(text: &str) -> Result<(), TestCaseError> {
    let ours = from_str::<Value>(text);
    let theirs = serde_json::from_str::<Value>(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => {
            prop_assert_eq!(a, b, "text {:?}", text);
            prop_assert_eq!(a.to_string(), b.to_string(), "text {:?}", text);
        }
        (Err(_), Err(_)) => {}
        _ => prop_assert!(
            false,
            "verdicts differ on {:?}: ours {:?}, serde_json {:?}",
            text,
            ours,
            theirs
        ),
    }
    Ok(())
}

fn same_slice(bytes: &[u8]) -> Result<(), TestCaseError> {
    let ours = from_slice::<Value>(bytes);
    let theirs = serde_json::from_slice::<Value>(bytes);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => {
            prop_assert_eq!(a, b);
            prop_assert_eq!(a.to_string(), b.to_string());
        }
        (Err(_), Err(_)) => {}
        _ => prop_assert!(
            false,
            "verdicts differ on {:?}: ours {:?}, serde_json {:?}",
            String::from_utf8_lossy(bytes),
            ours,
            theirs
        ),
    }
    Ok(())
}

/// A syntax error of ours has the message and offset of jiter's own parse of the text (which
/// reads every key and string with jiter), when that fails too.
fn same_syntax_error(text: &str) -> Result<(), TestCaseError> {
    let Err(ours) = from_str::<Value>(text) else {
        return Ok(());
    };
    // Errors jiter does not make: the recursion limit, numbers serde_json cannot hold.
    if !ours.is_syntax()
        || ours.message().contains("recursion")
        || ours.message().contains("out of range")
    {
        return Ok(());
    }
    let theirs = match jiter::JsonValue::parse(text.as_bytes(), false) {
        Ok(_) => return Ok(()),
        Err(e) => e,
    };
    let message = theirs.error_type.to_string();
    // jiter's values hold no integer beyond 64 bits (its `num-bigint` feature is off).
    if message == "number out of range" {
        return Ok(());
    }
    prop_assert_eq!(
        (ours.message(), ours.offset()),
        (message.as_str(), theirs.index),
        "text {:?}",
        text
    );
    Ok(())
}

/// A JSON number's text: big, negative, with fraction and exponent.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|i| i.to_string()),
        any::<u64>().prop_map(|u| u.to_string()),
        any::<f64>().prop_map(|f| if f.is_finite() {
            format!("{f:e}")
        } else {
            "0".to_owned()
        }),
        "-?(0|[1-9][0-9]{0,30})(\\.[0-9]{1,25})?([eE][+-]?[0-9]{1,3})?",
        Just("-0".to_owned()),
        Just("-0.0".to_owned()),
        Just("1e400".to_owned()),
        Just("-1e400".to_owned()),
        Just("1e-400".to_owned()),
        Just("18446744073709551616".to_owned()),
        Just("-9223372036854775809".to_owned()),
        Just("-9223372036854775808".to_owned()),
        Just("2.2222222222222222e+113".to_owned()),
    ]
}

/// A string's JSON text, with escapes of all kinds (and surrogate pairs).
fn string_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z ]{0,4}",
        any::<char>().prop_map(|c| c.to_string()),
        "\\PC{0,3}",
        Just("\\n".to_owned()),
        Just("\\\"".to_owned()),
        Just("\\\\".to_owned()),
        Just("\\/".to_owned()),
        Just("\\u00e9".to_owned()),
        Just("\\ud83d\\ude00".to_owned()),
        Just("\\u0000".to_owned()),
        any::<char>().prop_map(|c| format!("\\u{:04x}", c as u32 & 0xFFFF)),
    ];
    prop::collection::vec(piece, 0..5).prop_map(|parts| {
        let mut s = String::from("\"");
        for part in parts {
            // Raw characters must not end the string or be control characters.
            if part.starts_with('\\') {
                s.push_str(&part);
            } else {
                for c in part.chars() {
                    match c {
                        '"' => s.push_str("\\\""),
                        '\\' => s.push_str("\\\\"),
                        c if (c as u32) < 0x20 => s.push_str(&format!("\\u{:04x}", c as u32)),
                        c => s.push(c),
                    }
                }
            }
        }
        s.push('"');
        s
    })
}

/// A string's JSON text built of escapes good and bad (lone and broken surrogates, short or
/// bad hex digits, unknown escapes, raw control characters), plain runs and non-ASCII
/// characters, sometimes without its closing quote.
fn escaped_string_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z]{0,12}",
        "\\PC{1,3}",
        prop::sample::select(vec![
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\b",
            "\\f",
            "\\r",
            "\\t",
            "\\x",
            "\\ ",
            "\\",
            "\\u",
            "\\u12",
            "\\u12g4",
            "\\uD83D\\uDE00",
            "\\ud800",
            "\\udc00",
            "\\ud800\\u0041",
            "\\ud800x",
            "\\ud800\\",
            "\\ud800\\n",
            "\\uDBFF\\uDFFF",
            "\\u0000",
            "\\u00E9",
            "\u{1}",
            "\u{1f}",
            "\n",
        ])
        .prop_map(str::to_owned),
        any::<u16>().prop_map(|n| format!("\\u{n:04x}")),
        (0xD800u16..0xDC00, any::<u16>()).prop_map(|(h, l)| format!("\\u{h:04X}\\u{l:04x}")),
    ];
    (prop::collection::vec(piece, 0..8), any::<bool>()).prop_map(|(parts, closed)| {
        let mut s = format!("\"{}", parts.concat());
        if closed {
            s.push('"');
        }
        s
    })
}

fn ws() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just(""), Just(" "), Just("\n"), Just("\t\r\n ")]
}

/// A JSON text, written by hand: whitespace, escapes, number spellings, repeated keys.
pub(crate) fn json_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        number_text(),
        string_text(),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            (prop::collection::vec((inner.clone(), ws()), 0..6)).prop_map(|items| {
                let parts: Vec<String> = items
                    .into_iter()
                    .map(|(v, w)| format!("{w}{v}{w}"))
                    .collect();
                format!("[{}]", parts.join(","))
            }),
            (prop::collection::vec(
                (
                    prop_oneof![
                        Just("\"a\"".to_owned()),
                        Just("\"b\"".to_owned()),
                        Just("\"\\u0061\"".to_owned()),
                        string_text()
                    ],
                    inner,
                    ws()
                ),
                0..6
            ))
            .prop_map(|members| {
                let parts: Vec<String> = members
                    .into_iter()
                    .map(|(k, v, w)| format!("{w}{k}{w}:{w}{v}{w}"))
                    .collect();
                format!("{{{}}}", parts.join(","))
            }),
        ]
    })
}

/// A `Value` (serialized by serde_json, compact or pretty).
pub(crate) fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        any::<String>().prop_map(Value::from),
    ];
    leaf.prop_recursive(6, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((any::<String>(), inner), 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Byte edits to a text: replace, insert, delete.
fn mutate(text: &[u8], edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut out = text.to_vec();
    for &(at, op, byte) in edits {
        let at = if out.is_empty() {
            0
        } else {
            at % (out.len() + 1)
        };
        match op % 3 {
            0 if at < out.len() => out[at] = byte,
            1 => out.insert(at, byte),
            _ if at < out.len() => {
                out.remove(at);
            }
            _ => out.push(byte),
        }
    }
    out
}

/// Bytes that matter to JSON, and some that are not UTF-8.
fn edit_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        prop::sample::select(b"{}[],:\"\\ -+.eE0123456789tfnu\x00\x1f".to_vec()),
        any::<u8>(),
        0x80u8..=0xFF,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn values_as_serde_json(v in json_value()) {
        same_str(&v.to_string())?;
        same_str(&serde_json::to_string_pretty(&v).unwrap())?;
        prop_assert_eq!(from_str::<Value>(&v.to_string()).unwrap(), v);
    }

    #[test]
    fn texts_as_serde_json(text in json_text()) {
        same_str(&text)?;
        same_slice(text.as_bytes())?;
    }

    #[test]
    fn mutated_texts_as_serde_json(
        text in json_text(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), edit_byte()), 1..4),
    ) {
        let bytes = mutate(text.as_bytes(), &edits);
        same_slice(&bytes)?;
        if let Ok(s) = std::str::from_utf8(&bytes) {
            same_str(s)?;
        }
    }

    #[test]
    fn open_objects_kept_as_text_decode_as_maps_are_built(
        text in json_text(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), edit_byte()), 0..3),
    ) {
        // `JsonObject` reads without building (`read`): the same verdict, and the same error
        // (message, offset, pointer) as the `Map` it stands for; its text, when kept, is
        // that map, without whitespace between tokens.
        let bytes = mutate(format!("[{text}]").as_bytes(), &edits);
        let kept = from_slice::<Vec<crate::JsonObject>>(&bytes);
        let built = from_slice::<Vec<serde_json::Map<String, Value>>>(&bytes);
        match (&kept, &built) {
            (Ok(kept), Ok(built)) => {
                prop_assert_eq!(kept.len(), built.len());
                for (k, b) in kept.iter().zip(built) {
                    let text = k.to_text();
                    prop_assert!(crate::object::compact(&text).is_none(), "{}", text);
                    let reread: Value = serde_json::from_str(&text).unwrap();
                    prop_assert_eq!(&reread, &Value::Object(b.clone()));
                    prop_assert_eq!(&**k, b);
                }
            }
            (Err(a), Err(b)) => prop_assert_eq!(
                (a.message(), a.offset(), a.pointer()),
                (b.message(), b.offset(), b.pointer()),
                "{:?}",
                String::from_utf8_lossy(&bytes)
            ),
            _ => prop_assert!(
                false,
                "verdicts differ on {:?}: {:?} vs {:?}",
                String::from_utf8_lossy(&bytes),
                kept.as_ref().map(|_| ()),
                built.as_ref().map(|_| ())
            ),
        }
    }

    #[test]
    fn the_string_scan_stops_where_a_byte_loop_stops(
        bytes in prop::collection::vec(
            prop_oneof![
                4 => b'a'..=b'z',
                1 => prop::sample::select(b"\"\\\x00\x1f\x20\x7f\x80\xff".to_vec()),
                1 => any::<u8>(),
            ],
            0..48,
        ),
    ) {
        // Sixteen bytes at a time (SSE2) or eight (the word scan, kept for other targets):
        // the same offset as the plain loop, from every start, ASCII or not.
        fn by_byte(data: &[u8], i: usize, ascii: bool) -> usize {
            (i..data.len())
                .find(|&k| {
                    let b = data[k];
                    b < b' ' || (ascii && b >= 0x80) || b == b'"' || b == b'\\'
                })
                .unwrap_or(data.len())
        }
        fn by_word<const ASCII: bool>(data: &[u8], mut i: usize) -> usize {
            while let Some(word) = data.get(i..i + 8) {
                let stop = super::parser::swar_stops::<ASCII>(u64::from_le_bytes(word.try_into().unwrap()));
                if stop != 0 {
                    return i + (stop.trailing_zeros() / 8) as usize;
                }
                i += 8;
            }
            by_byte(data, i, ASCII)
        }
        for i in 0..=bytes.len() {
            prop_assert_eq!(super::parser::plain_end::<true>(&bytes, i), by_byte(&bytes, i, true));
            prop_assert_eq!(super::parser::plain_end::<false>(&bytes, i), by_byte(&bytes, i, false));
            prop_assert_eq!(by_word::<true>(&bytes, i), by_byte(&bytes, i, true));
            prop_assert_eq!(by_word::<false>(&bytes, i), by_byte(&bytes, i, false));
        }
    }

    #[test]
    fn keys_compare_as_str_eq(
        a in "[a-zA-Z_/é]{0,24}",
        at in any::<prop::sample::Index>(),
        by in 1u8..=127,
        other in "[a-zA-Z_]{0,24}",
    ) {
        // Key lookup compares without `memcmp` up to 16 bytes (`same_str`): the same answer
        // as `==` for equal strings, strings differing in one byte anywhere (each end of
        // each word loaded included), and unrelated ones.
        prop_assert!(super::object::same_str(&a, &a.clone()));
        let mut b = a.clone().into_bytes();
        if !b.is_empty() {
            let i = at.index(b.len());
            b[i] = if b[i] < 0x80 { b[i] ^ by } else { b[i] };
        }
        if let Ok(b) = String::from_utf8(b) {
            prop_assert_eq!(super::object::same_str(&a, &b), a == b, "{:?} {:?}", a, b);
        }
        prop_assert_eq!(super::object::same_str(&a, &other), a == other);
    }

    #[test]
    fn strings_with_escapes_as_jiter_reads_them(text in escaped_string_text()) {
        // The parser decodes escapes itself (`unescape`) and hands anything it cannot read
        // to jiter: the same string, or jiter's error at jiter's offset; skipping it, the
        // same verdict and error.
        let theirs = jiter::Jiter::new(text.as_bytes())
            .next_str()
            .map(str::to_owned)
            .map_err(|e| (e.error_type.to_string(), e.index));
        let mut p = Parser::new(&text);
        p.peek().unwrap();
        let ours = p.str().map(str::to_owned).map_err(|e| (e.message().to_owned(), e.offset()));
        prop_assert_eq!(&ours, &theirs, "text {:?}", text);
        // Escapes make the text longer than the string: one as long had none.
        let plain = ours.as_ref().ok().map(String::len).filter(|&n| p.mark() == n + 2);
        let mut p = Parser::new(&text);
        p.peek().unwrap();
        let skipped = p.skip().map(|()| p.mark()).map_err(|e| (e.message().to_owned(), e.offset()));
        let mut j = jiter::Jiter::new(text.as_bytes());
        let jiter_skipped = j
            .next_skip()
            .map(|()| j.current_index())
            .map_err(|e| (e.error_type.to_string(), e.index));
        prop_assert_eq!(skipped, jiter_skipped, "text {:?}", text);
        // Checked without decoding (open JSON only read, a union's scoring pass): the same
        // verdict and error as decoding, and the length of a string without escapes.
        let mut p = Parser::new(&text);
        p.peek().unwrap();
        let checked = p.check_str().map_err(|e| (e.message().to_owned(), e.offset()));
        prop_assert_eq!(checked, ours.as_ref().map(|_| plain).map_err(Clone::clone), "text {:?}", text);
        // Twice in one parser: the buffer is reused, not appended to.
        let twice = format!("[{text},{text}]");
        if let (Ok(one), Ok(both)) = (&ours, from_str::<Vec<String>>(&twice)) {
            prop_assert_eq!(both, vec![one.clone(), one.clone()]);
        }
    }

    #[test]
    fn syntax_errors_where_jiter_places_them(
        text in json_text(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), edit_byte()), 1..4),
    ) {
        // The parser reads plain keys itself (`Parser::plain_key`) and hands everything
        // else to jiter: a syntax error is jiter's, at jiter's offset, either way.
        let bytes = mutate(text.as_bytes(), &edits);
        if let Ok(s) = std::str::from_utf8(&bytes) {
            same_syntax_error(s)?;
        }
        same_syntax_error(&text)?;
    }

    #[test]
    fn a_tagless_guess_decodes_as_the_tag_search_does(
        members in prop::collection::vec((0..4usize, 0..6usize), 0..6),
        cut in any::<prop::sample::Index>(),
    ) {
        // Objects of `message`, `url`, `mode` (every kind of value) and an unknown member,
        // in any order, repeated or not; and their truncations.
        const MODES: [&str; 6] = [r#""form""#, r#""url""#, r#""zzz""#, "null", "5", "{}"];
        let parts: Vec<String> = members
            .iter()
            .map(|&(k, v)| match k {
                0 => r#""message":"m""#.to_owned(),
                1 => r#""url":"u""#.to_owned(),
                2 => format!(r#""mode":{}"#, MODES[v]),
                _ => format!(r#""x":{}"#, MODES[v]),
            })
            .collect();
        let text = format!("[{{{}}}]", parts.join(","));
        for text in [text.as_str(), &text[..cut.index(text.len() + 1)]] {
            let one_pass = from_str::<Vec<Guessed>>(text);
            let search = from_str::<Vec<Searched>>(text);
            match (&one_pass, &search) {
                (Ok(a), Ok(b)) => prop_assert!(
                    a.iter().map(|g| &g.0).eq(b.iter().map(|s| &s.0)),
                    "text {:?}: {:?} vs {:?}",
                    text,
                    a,
                    b
                ),
                (Err(a), Err(b)) => prop_assert_eq!(
                    (a.message(), a.offset(), a.pointer()),
                    (b.message(), b.offset(), b.pointer()),
                    "text {:?}",
                    text
                ),
                _ => prop_assert!(false, "{:?}: {:?} vs {:?}", text, one_pass, search),
            }
        }
    }

    #[test]
    fn arbitrary_bytes_as_serde_json(bytes in prop::collection::vec(edit_byte(), 0..24)) {
        same_slice(&bytes)?;
        if let Ok(s) = std::str::from_utf8(&bytes) {
            same_str(s)?;
        }
    }

    #[test]
    fn non_utf8_in_strings_as_serde_json(
        before in "[a-z]{0,3}",
        bad in prop::collection::vec(0x80u8..=0xFF, 1..3),
        after in "[a-z]{0,3}",
        as_key in any::<bool>(),
    ) {
        let mut s = b"\"".to_vec();
        s.extend_from_slice(before.as_bytes());
        s.extend_from_slice(&bad);
        s.extend_from_slice(after.as_bytes());
        s.push(b'"');
        let text = if as_key {
            [b"{".as_slice(), &s, b":1}"].concat()
        } else {
            [b"[1,".as_slice(), &s, b"]"].concat()
        };
        same_slice(&text)?;
        // Typed decoders skipping it: not UTF-8 is refused all the same (at `finish`).
        let tool = [br#"{"name":"n","kind":"tool","tags":[],"x":"#.as_slice(), &s, b"}"].concat();
        prop_assert!(from_slice::<Tool>(&tool).is_err() == std::str::from_utf8(&s).is_err());
    }

    #[test]
    fn merged_scores_as_open_json_would(
        members in prop::collection::vec((0..MERGED_KEYS.len(), 0..MERGED_VALUES.len()), 0..6),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), edit_byte()), 0..2),
    ) {
        let text = format!(
            "{{{}}}",
            members
                .iter()
                .map(|&(k, v)| format!("{:?}:{}", MERGED_KEYS[k], MERGED_VALUES[v]))
                .collect::<Vec<_>>()
                .join(",")
        );
        merged_as_reference(&text)?;
        merged_as_reference(&String::from_utf8_lossy(&mutate(text.as_bytes(), &edits)))?;
    }

    #[test]
    fn one_pass_decodes_as_scoring_then_decoding(
        members in prop::collection::vec(
            (0..FORM_MEMBER_KEYS.len(), prop::bool::weighted(0.9), 0..FORM_VALUES.len()),
            0..6,
        ),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), edit_byte()), 0..2),
    ) {
        let text = form_text(&members);
        one_pass_as_scoring(&text)?;
        one_pass_as_scoring(&String::from_utf8_lossy(&mutate(text.as_bytes(), &edits)))?;
    }

    #[test]
    fn typed_decoders_do_not_panic(bytes in prop::collection::vec(edit_byte(), 0..40)) {
        let _ = from_slice::<Tool>(&bytes);
        let _ = from_slice::<Content>(&bytes);
        let _ = from_slice::<Resource>(&bytes);
        let _ = from_slice::<Counts>(&bytes);
    }
}

#[test]
fn open_json_cases_as_serde_json() {
    for text in [
        "-0",
        "-0.0",
        "0",
        "[-0, 0, -0e0, 1e-400, -1e-400]",
        "1e400",
        "[1E400]",
        "18446744073709551615",
        "18446744073709551616",
        "-9223372036854775808",
        "-9223372036854775809",
        "123456789012345678901234567890",
        "2.2222222222222222e+113",
        "0.1",
        "01",
        "1.",
        ".5",
        "1e",
        "-",
        "+1",
        "NaN",
        "Infinity",
        "-Infinity",
        "[1,]",
        "{\"a\":1,}",
        "{\"a\" 1}",
        "{1:1}",
        "\"\\ud800\"",
        "\"\\udc00\"",
        "\"\\ud800\\u0041\"",
        "\"\\ud83d\\ude00\"",
        "\"\\x\"",
        "\"\t\"",
        "\"\u{7f}\"",
        "{\"a\":1,\"b\":2,\"a\":3}",
        "{\"a\":{\"x\":1},\"a\":[2]}",
        " \n\t\r null \n",
        "\u{feff}null",
        "null\u{a0}",
        "nul",
        "truex",
        "[] []",
        "",
        "  ",
    ] {
        same_str(text).unwrap();
    }
    let v: Value = from_str(r#"{"b":1,"a":2,"b":3}"#).unwrap();
    assert_eq!(v.to_string(), r#"{"b":3,"a":2}"#);
}

#[test]
fn strings_with_escapes_longer_than_the_scratch_room() {
    // A string with escapes longer than the room first reserved for it (8 KiB) is handed
    // over as the buffer it was decoded into; the next such string gets a buffer of its own,
    // and shorter ones are still copied out of the one kept.
    let line = r#"line: the quick brown fox \"quoted\"\t\u00e9\ud83d\ude00 é—\n"#;
    let long = |n: usize| format!("\"{}\"", line.repeat(n));
    let texts = [
        format!(r#"[{},{},"a\nb",{}]"#, long(400), long(400), long(1)),
        format!(r#"{{"a":{},"b":"x\ty","c":{}}}"#, long(1000), long(300)),
        // A bad escape far past the first 8 KiB: the error where jiter puts it.
        format!(r#"[{}\u00g9","ok\n"]"#, &long(600)[..long(600).len() - 1]),
    ];
    for text in &texts {
        same_str(text).unwrap();
    }
    let e = from_str::<Vec<String>>(&texts[2]).unwrap_err();
    let j = jiter::JsonValue::parse(texts[2].as_bytes(), false).unwrap_err();
    assert_eq!(
        (e.message(), e.offset()),
        (&*j.error_type.to_string(), j.index)
    );
    assert!(e.offset() > 8192);
    let strings = from_str::<Vec<String>>(&texts[0]).unwrap();
    assert!(strings[0].len() > 8192 && strings[0] == strings[1]);
    assert_eq!(strings[2], "a\nb");
    // Handed over trimmed to its length, not with the room it grew to.
    assert!(
        strings[0].capacity() < strings[0].len() + 64,
        "{}",
        strings[0].capacity()
    );
}

#[test]
fn numbers() {
    assert_eq!(from_str::<Number>("-0").unwrap().as_f64(), Some(-0.0));
    assert!(from_str::<Number>("-0").unwrap().is_f64());
    assert_eq!(from_str::<Number>("7").unwrap().as_u64(), Some(7));
    assert_eq!(from_str::<Number>("-7").unwrap().as_i64(), Some(-7));
    assert!(from_str::<Number>("18446744073709551616").unwrap().is_f64());
    let e = from_str::<Number>("[1e400]").unwrap_err();
    assert!(e.message().contains("expected a JSON number"), "{e}");
    let e = from_str::<Number>("1e400").unwrap_err();
    assert_eq!(e.message(), "number out of range");
    assert!(e.is_syntax());

    assert_eq!(from_str::<i64>("-5").unwrap(), -5);
    assert_eq!(from_str::<u64>("18446744073709551615").unwrap(), u64::MAX);
    let e = from_str::<i64>("1.5").unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid type: floating point `1.5`, expected i64 at line 1 column 1"
    );
    assert!(!e.is_syntax());
    let e = from_str::<i64>("9223372036854775808").unwrap_err();
    assert_eq!(
        e.message(),
        "invalid value: integer `9223372036854775808`, expected i64"
    );
    let e = from_str::<u64>("-1").unwrap_err();
    assert_eq!(e.message(), "invalid value: integer `-1`, expected u64");
    let e = from_str::<u64>("1e3").unwrap_err();
    assert_eq!(
        e.message(),
        "invalid type: floating point `1000.0`, expected u64"
    );
    let e = from_str::<i64>("\"1\"").unwrap_err();
    assert_eq!(e.message(), "invalid type: string \"1\", expected i64");
    // serde_json: "-0" is a float.
    assert!(from_str::<i64>("-0").is_err());
    assert!(serde_json::from_str::<i64>("-0").is_err());
}

#[test]
fn integers_read_without_jiter_read_as_serde_json_and_jiter_do() {
    // Around `Parser::plain_integer`'s limits (18 digits, a leading zero, `-0`, what may
    // follow the digits): the value serde_json makes, or jiter's syntax error at its offset.
    let texts = [
        "0",
        "-0",
        "7",
        "-7",
        "10",
        "-10",
        "123456789012345678",
        "-123456789012345678",
        "999999999999999999",
        "-999999999999999999",
        "1234567890123456789",
        "-1234567890123456789",
        "9223372036854775807",
        "-9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "00",
        "01",
        "-01",
        "-",
        "--1",
        "1.",
        "1.0",
        "1e2",
        "1E2",
        "1e+2",
        "1-",
        "1+",
        "1-2",
        "1x",
        "1 ",
        " 1",
        "[1,-2,30]",
        "[1 ,2]",
        "[1,]",
        "[01]",
        "[-]",
        r#"{"a":1,"b":-0}"#,
        r#"{"a":12}"#,
        r#"{"a":1"#,
        "[1",
    ];
    for text in texts {
        let ours = from_str::<Value>(text);
        match serde_json::from_str::<Value>(text) {
            Ok(theirs) => {
                let ours = ours.unwrap_or_else(|e| panic!("{text:?}: {e}"));
                assert_eq!(ours, theirs, "{text:?}");
                assert_eq!(ours.to_string(), theirs.to_string(), "{text:?}");
            }
            Err(_) => {
                let e = ours.expect_err(text);
                let theirs = jiter::JsonValue::parse(text.as_bytes(), false).unwrap_err();
                assert_eq!(
                    (e.message(), e.offset()),
                    (theirs.error_type.to_string().as_str(), theirs.index),
                    "{text:?}"
                );
            }
        }
    }
}

#[test]
fn type_errors_in_serde_json_words() {
    let cases: &[(&str, &str)] = &[
        ("\"x\"", "invalid type: string \"x\", expected a boolean"),
        ("null", "invalid type: null, expected a boolean"),
        ("12", "invalid type: integer `12`, expected a boolean"),
        (
            "-1.25",
            "invalid type: floating point `-1.25`, expected a boolean",
        ),
        ("[true]", "invalid type: sequence, expected a boolean"),
        ("{}", "invalid type: map, expected a boolean"),
    ];
    for (text, message) in cases {
        let ours = from_str::<bool>(text).unwrap_err();
        assert_eq!(ours.message(), *message);
        let theirs = serde_json::from_str::<bool>(text).unwrap_err().to_string();
        assert!(theirs.starts_with(message), "{theirs}");
    }
    let e = from_str::<String>("true").unwrap_err();
    assert_eq!(
        e.message(),
        "invalid type: boolean `true`, expected a string"
    );
    // Not JSON: the syntax error, not a type error (as serde_json).
    let e = from_str::<bool>("\"x").unwrap_err();
    assert!(e.is_syntax(), "{e}");
    let e = from_str::<String>("tru").unwrap_err();
    assert!(e.is_syntax(), "{e}");
    assert_eq!(
        from_str::<Vec<Option<String>>>(r#"["a", null]"#).unwrap(),
        vec![Some("a".to_owned()), None]
    );
}

// ---- Errors: pointer, position, kind --------------------------------------------------------

#[test]
fn pointer_line_column_nested() {
    let text = "{\n  \"a\": [1, {\"b~/\": [true, \"é\", 3.5]}],\n  \"c\": [1]\n}";
    let e = from_str::<IndexMap<String, Vec<Value>>>(text);
    assert!(e.is_ok());
    let e = from_str::<IndexMap<String, Vec<IndexMap<String, Vec<bool>>>>>(
        "{\"a\": [{\"b\": [true]}, {\"b~/\": [true,\n  \"é\", 3]}]}",
    )
    .unwrap_err();
    assert_eq!(e.pointer(), "/a/1/b~0~1/1");
    assert_eq!(
        e.message(),
        "invalid type: string \"é\", expected a boolean"
    );
    assert_eq!((e.line(), e.column()), (2, 3));
    assert_eq!(
        e.to_string(),
        "invalid type: string \"é\", expected a boolean at `/a/1/b~0~1/1`, line 2 column 3"
    );
    // Syntax errors deep inside open JSON get the pointer too; columns count characters.
    let e = from_str::<Value>("{\"é\": [1, {\"x\": tru}]}").unwrap_err();
    assert!(e.is_syntax());
    assert_eq!(e.pointer(), "/é/1/x");
    assert_eq!(e.message(), "expected ident");
    assert_eq!(e.line(), 1);
    let offset = e.offset();
    assert_eq!(
        e.column(),
        "{\"é\": [1, {\"x\": tru}]}"[..offset].chars().count() + 1
    );
    // Unknown members kept as open JSON, and typed ones.
    let e = from_str::<Tool>(r#"{"name":"n","tags":[],"x":{"y":[1,2,]}}"#).unwrap_err();
    assert_eq!(e.pointer(), "/x/y");
    assert!(e.is_syntax());
    let e = from_str::<Counts>(r#"{"total":1,"a~b":"x"}"#).unwrap_err();
    assert_eq!(e.pointer(), "/a~0b");
    assert!(!e.is_syntax());
    let e = from_str::<Counts>("{ \"a\\/b\\u00e9\" :\n \"x\", \"total\": 1}").unwrap_err();
    assert_eq!(e.pointer(), "/a~1bé");
    assert_eq!((e.line(), e.column()), (2, 2));
    let e = from_str::<Counts>("{\"total\":1 ,\n \"m\":[]}").unwrap_err();
    assert_eq!(e.pointer(), "/m");
    let c = from_str::<Counts>(r#"{"n":2,"total":1,"m":3}"#).unwrap();
    assert_eq!(c.total, 1);
    assert_eq!(
        c.rest.into_iter().collect::<Vec<_>>(),
        [("n".to_owned(), 2), ("m".to_owned(), 3)]
    );
    // The whole value: no pointer in the text.
    let e = from_str::<Value>("[1, 2").unwrap_err();
    assert_eq!(e.to_string(), "EOF while parsing a list at line 1 column 6");
    assert_eq!(e.pointer(), "");
    let e = from_str::<Value>("{} x").unwrap_err();
    assert_eq!(e.message(), "trailing characters");
    assert_eq!(e.column(), 4);
    assert!(e.is_syntax());
}

#[test]
fn objects() {
    let t = from_str::<Tool>(
        r#"{"kind":"tool","title":null,"name":"n","x":2,"tags":["a"],"y":{"z":[]}}"#,
    )
    .unwrap();
    assert_eq!(
        t,
        Tool {
            name: "n".into(),
            title: None,
            tags: vec!["a".into()],
            size: None,
            extra: json!({"x": 2, "y": {"z": []}})
                .as_object()
                .unwrap()
                .clone()
                .into(),
        }
    );
    // An unknown member twice is refused as a declared one is (it would be written twice).
    let e = from_str::<Tool>(r#"{"kind":"tool","name":"n","tags":[],"x":1,"x":2}"#).unwrap_err();
    assert_eq!(
        (e.message(), e.pointer().as_str()),
        ("duplicate member `x`", "/x")
    );
    let e = from_str::<Tool>(r#"{"title":"t"}"#).unwrap_err();
    assert_eq!(
        e.message(),
        "missing members `name`, `tags`, `kind` in a Tool object"
    );
    assert_eq!(e.pointer(), "");
    assert!(!e.is_syntax());
    let e = from_str::<Tool>(r#"{"kind":"tool","tags":[]}"#).unwrap_err();
    assert_eq!(e.message(), "missing member `name` in a Tool object");
    let e =
        from_str::<Vec<Tool>>(r#"[{"kind":"tool","tags":[],"name":"a","name":"b"}]"#).unwrap_err();
    assert_eq!(e.message(), "duplicate member `name`");
    assert_eq!(e.pointer(), "/0/name");
    let e = from_str::<Tool>(r#"{"kind":"tol","tags":[],"name":"a"}"#).unwrap_err();
    assert_eq!(
        e.message(),
        "invalid value: string \"tol\", expected \"tool\""
    );
    assert_eq!(e.pointer(), "/kind");
    assert_eq!(e.column(), 9);
    let e = from_str::<Tool>(r#"{"kind":"tool","tags":[],"name":"a","size":-1}"#).unwrap_err();
    assert_eq!(e.pointer(), "/size");
    let e = from_str::<Tool>("[]").unwrap_err();
    assert_eq!(
        e.message(),
        "invalid type: sequence, expected a Tool object"
    );

    assert_eq!(
        from_str::<Strict>(r#"{"a":1}"#).unwrap(),
        Strict { a: 1, b: None }
    );
    let e = from_str::<Strict>(r#"{"a":1,"c":2}"#).unwrap_err();
    assert_eq!(e.message(), "unknown member `c`, expected one of `a`, `b`");
    assert_eq!(e.pointer(), "/c");
    assert!(!e.is_syntax());

    let e = required::<u8>(None, "k").unwrap_err();
    assert_eq!(e.to_string(), "missing member `k`");
}

#[test]
fn constants() {
    let mut p = Parser::new("7");
    const_int(&mut p, 7).unwrap();
    let mut p = Parser::new("7.0");
    assert_eq!(
        const_int(&mut p, 7).unwrap_err().message(),
        "invalid value: floating point `7.0`, expected 7"
    );
    let mut p = Parser::new("\"7\"");
    assert_eq!(
        const_int(&mut p, 7).unwrap_err().message(),
        "invalid type: string \"7\", expected 7"
    );
    let mut p = Parser::new("1");
    assert_eq!(
        const_str(&mut p, "a").unwrap_err().message(),
        "invalid type: integer `1`, expected \"a\""
    );
}

fn nested(depth: usize, open: &str, close: &str) -> String {
    format!("{}{}", open.repeat(depth), close.repeat(depth))
}

#[test]
fn recursion_limit_as_serde_json() {
    // serde_json decodes 127 levels and refuses the 128th.
    for (open, close) in [("[", "]"), ("{\"a\":", "}")] {
        let arrays = |n| {
            if open == "[" {
                nested(n, open, close)
            } else {
                format!("{}null{}", open.repeat(n), close.repeat(n))
            }
        };
        let ok = arrays(127);
        assert!(serde_json::from_str::<Value>(&ok).is_ok());
        from_str::<Value>(&ok).unwrap();
        for n in [128, 129, 300] {
            let deep = arrays(n);
            assert!(serde_json::from_str::<Value>(&deep).is_err());
            let e = from_str::<Value>(&deep).unwrap_err();
            assert_eq!(e.message(), "recursion limit exceeded");
            assert!(e.is_syntax());
        }
    }
    // Skipped values count too (an unknown member skipped by a shape pass, a late tag).
    let deep = format!(r#"{{"text":"t","x":{}}}"#, nested(127, "[", "]"));
    let e = from_str::<Resource>(&deep).unwrap_err();
    assert_eq!(e.message(), "recursion limit exceeded");
    let fine = format!(r#"{{"text":"t","x":{}}}"#, nested(126, "[", "]"));
    assert!(
        from_str::<Resource>(&fine)
            .unwrap_err()
            .message()
            .contains("unknown member `x`")
    );
    let deep = format!(
        r#"{{"x":{},"type":"text","text":"t"}}"#,
        nested(127, "[", "]")
    );
    assert_eq!(
        from_str::<Content>(&deep).unwrap_err().message(),
        "recursion limit exceeded"
    );
    // Empty containers at the limit: refused as serde_json refuses them.
    let e = format!("{}{{}}{}", "[".repeat(127), "]".repeat(127));
    assert!(serde_json::from_str::<Value>(&e).is_err());
    assert!(from_str::<Value>(&e).is_err());
}

#[test]
fn from_slice_utf8() {
    assert_eq!(
        from_slice::<Value>(b"[\"\xc3\xa9\"]").unwrap(),
        json!(["é"])
    );
    let e = from_slice::<Value>(b"[\"\xff\"]").unwrap_err();
    assert!(e.is_syntax());
    assert_eq!(e.message(), "invalid unicode code point");
    // Skipped, not read: refused at the end.
    let e = from_slice::<Strict>(b"{\"a\":1} \xff").unwrap_err();
    assert!(e.is_syntax());
    let mut p = Parser::from_slice(b"{\"a\":\"\xff\"}");
    p.skip().unwrap();
    assert!(p.finish().is_err());
}

// ---- Unions ---------------------------------------------------------------------------------

#[test]
fn tagged_unions() {
    // Tag first: one pass.
    let c = from_str::<Content>(r#"{"type":"text","text":"hi","x":1}"#).unwrap();
    assert_eq!(
        c,
        Content::Text(
            Text {
                text: "hi".into(),
                extra: json!({"x": 1}).as_object().unwrap().clone().into()
            },
            true
        )
    );
    // Tag late: the variant goes on after the tag too, the members before it read again.
    let c = from_str::<Vec<Content>>(r#"[{"data":"d","mimeType":"m","type":"image"}]"#).unwrap();
    assert_eq!(
        c,
        [Content::Image(
            Image {
                data: "d".into(),
                mime: "m".into()
            },
            true
        )]
    );
    let c = from_str::<Content>(r#"{"data":"d","type":"image","mimeType":"m"}"#).unwrap();
    let late_in_the_middle = Content::Image(
        Image {
            data: "d".into(),
            mime: "m".into(),
        },
        true,
    );
    assert_eq!(c, late_in_the_middle);
    // Unknown tag: the catch-all gets the whole object, whether the tag comes first or not.
    for text in [
        r#"{"type":"audio","data":[1,{"a":2}]}"#,
        r#"{"data":[1,{"a":2}],"type":"audio"}"#,
    ] {
        let c = from_str::<Content>(text).unwrap();
        assert_eq!(c, Content::Other(serde_json::from_str(text).unwrap()));
    }
    // Absent tag: the variant closure decides (here an error).
    let e = from_str::<Vec<Content>>(r#"[{"text":"hi"}]"#).unwrap_err();
    assert_eq!(e.message(), "missing member `type` in a ContentBlock");
    assert_eq!(e.pointer(), "/0");
    // A tag of the wrong type.
    let e = from_str::<Content>(r#"{"type":1}"#).unwrap_err();
    assert_eq!(e.pointer(), "/type");
    assert_eq!(e.message(), "invalid type: integer `1`, expected a string");
    // Errors inside a variant, one pass or two: the member's pointer.
    let e = from_str::<Content>(r#"{"type":"text","text":5}"#).unwrap_err();
    assert_eq!(e.pointer(), "/text");
    assert_eq!(e.column(), 23);
    let e = from_str::<Content>(r#"{"text":5,"type":"text"}"#).unwrap_err();
    assert_eq!(e.pointer(), "/text");
    assert_eq!(e.column(), 9);
    // A tag repeated: the variant's own loop refuses it.
    let e = from_str::<Content>(r#"{"type":"text","text":"a","type":"text"}"#).unwrap_err();
    assert_eq!(e.message(), "duplicate member `type`");
    let e = from_str::<Content>("[]").unwrap_err();
    assert_eq!(
        e.message(),
        "invalid type: sequence, expected a ContentBlock"
    );
    // Trailing text after a tagged union decoded from a mark is still seen.
    assert!(from_str::<Content>(r#"{"text":"a","type":"text"} x"#).is_err());
    assert!(from_str::<Content>(r#"{"type":"text","text":"a"}"#).is_ok());
}

#[test]
fn shapes() {
    assert_eq!(
        from_str::<Resource>(r#"{"uri":"u","text":"t"}"#).unwrap(),
        Resource::Text("t".into())
    );
    assert_eq!(
        from_str::<Vec<Resource>>(r#"[{"blob":"b","uri":"u"}]"#).unwrap(),
        [Resource::Blob("b".into())]
    );
    let e = from_str::<Resource>(r#"{"uri":"u","text":"t","blob":"b"}"#).unwrap_err();
    assert!(e.message().starts_with("expected a ResourceContents"));

    // Scores from one pass: what each variant's checks say of the members present.
    let score = |text: &str| -> Result<[Score; 3], Error> {
        let mut p = Parser::new(text);
        let mut scores = [None; 3];
        MERGED.score(&mut p, Start::Value, &mut scores)?;
        p.finish()?;
        Ok(scores)
    };
    // 0: the const and its required `n` (an integer) fit; 1: a wrong const; 2: `n` is no
    // number (incomplete), the const and `x` ("on") fit.
    assert_eq!(
        score(r#"{"type":"a","n":1,"x":"on"}"#).unwrap(),
        [Some((true, 1, 2, 3)), None, Some((false, 0, 1, 3))]
    );
    // A float is a number, not an integer; an unknown member rules out the closed variant 0.
    assert_eq!(
        score(r#"{"type":"b","n":1.5,"zz":0,"items":null}"#).unwrap(),
        [None, Some((true, 1, 2, 3)), Some((false, 0, 1, 2))]
    );
    // One level down: `items` must have `k` and `t: "c"` (its last value) or `k: 0`.
    let items = |v: &str| score(&format!(r#"{{"type":"b","items":{v}}}"#)).unwrap()[1];
    assert_eq!(items(r#"{"k":true,"t":"c"}"#), Some((true, 1, 2, 2)));
    assert_eq!(items(r#"{"k":0}"#), Some((true, 1, 2, 2)));
    assert_eq!(items(r#"{"k":1,"t":"c","t":"d"}"#), Some((false, 1, 2, 2)));
    assert_eq!(items(r#"{"t":"c"}"#), Some((false, 1, 2, 2)));
    assert_eq!(items("[]"), Some((false, 1, 2, 2)));
    // `y` is refused by variant 2, required by none: present, it rules 2 out.
    assert_eq!(score(r#"{"type":"a","y":0}"#).unwrap()[2], None);
    // The constant all variants share: a wrong value is named (shown as open JSON, one level
    // deep).
    let e = score(r#"{"v":[2,{"a":[3]}]}"#).unwrap_err();
    assert_eq!(
        e.message(),
        "invalid value for `v`: expected 1, found [2,{}]"
    );
    // After a union read the tag `type` (first, or after other members): the same scores,
    // the members before the tag read again.
    for text in [
        r#"{"type":"b","n":1.5,"zz":0,"items":null}"#,
        r#"{"n":1.5,"zz":0,"type":"b","items":null}"#,
        r#"{"zz":0,"items":{"k":0},"n":1.5,"type":"b"}"#,
        r#"{"type":"a","n":1,"x":"on"}"#,
        r#"{"x":"on","n":1,"type":"a"}"#,
        // Escapes: the tag and a constant compared decoded.
        r#"{"x":"o\u006e","n":1,"type":"\u0061"}"#,
        r#"{"n":1.5,"type":"\u0062","items":{"k":0}}"#,
        // Whitespace around the tag's value (its mark is before it).
        r#"{"x" : "on", "n" : 1, "type" :
            "a" }"#,
        r#"{"n":1.5,"type": "b" ,"items":{"k":0}}"#,
    ] {
        let mut p = Parser::new(text);
        let (mark, after_tag) =
            tagged(&mut p, "type", &["a", "b"], "an A", &mut |p, tag, start| {
                assert!(matches!(tag, Tag::Known(_)), "{text}");
                let mut scores = [None; 3];
                let mark = MERGED.score(p, start, &mut scores)?;
                Ok((mark, scores))
            })
            .unwrap();
        p.finish().unwrap();
        assert_eq!((mark, after_tag), (0, score(text).unwrap()), "{text}");
    }
    // Constants written with escapes are compared decoded.
    assert_eq!(
        score(r#"{"x":"o\u006e","n":1,"type":"\u0061","v":1}"#).unwrap(),
        [Some((true, 1, 2, 3)), None, Some((false, 0, 1, 3))]
    );
    let e = score("[1]").unwrap_err();
    assert_eq!(e.message(), "invalid type: sequence, expected a map");
    let e = score(r#"{"n":1,"n":2}"#).unwrap_err();
    assert!(e.is_repeated());
    assert_eq!(e.pointer(), "/n");
    let e = score(r#"{"zz":1,"zz":2}"#).unwrap_err();
    assert!(e.is_repeated());
    assert!(score(r#"{"a":[1,}"#).unwrap_err().is_syntax());
}

/// A union of three variants over `type` (a constant), `n`, `x` (the constant "on"),
/// `items` (of one of two shapes), `y` (refused by variant 2) and `v` (1 in every variant).
static MERGED: Merged = Merged {
    slots: &["type", "n", "x", "items", "y", "v"],
    variants: &[
        Variant::new(
            &[
                Check::Const(0, Const::Str("a")),
                Check::Field(1, true, Fits::Kinds(KindSet::INTEGER)),
                Check::Field(2, false, Fits::Is("on")),
                Check::Field(4, false, Fits::Kinds(KindSet::ANY)),
            ],
            true,
        ),
        Variant::new(
            &[
                Check::Const(0, Const::Str("b")),
                Check::Field(1, false, Fits::Kinds(KindSet::NUMBER)),
                Check::Field(
                    3,
                    true,
                    Fits::Shaped(
                        KindSet::of(&[crate::Kind::Object, crate::Kind::Null]),
                        &[
                            Shape {
                                required: &["k"],
                                consts: &[("t", Const::Str("c"))],
                            },
                            Shape {
                                required: &[],
                                consts: &[("k", Const::Int(0))],
                            },
                        ],
                    ),
                ),
            ],
            false,
        ),
        Variant::new(
            &[
                Check::Field(0, true, Fits::Kinds(KindSet::STRING)),
                Check::Field(1, false, Fits::Kinds(KindSet::STRING)),
                Check::Field(2, false, Fits::Is("on")),
                Check::Refused(4),
            ],
            false,
        ),
    ],
    common: &[(5, Const::Int(1))],
};

const MERGED_KEYS: [&str; 8] = ["type", "n", "x", "items", "y", "v", "zz", "t"];
const MERGED_VALUES: [&str; 21] = [
    r#""a""#,
    r#""b""#,
    r#""on""#,
    // The same strings with escapes (compared decoded), a string that is no constant, and
    // numbers that are not `1` for `v`: a float, and an integer beyond `i64`.
    r#""\u0061""#,
    r#""o\u006e""#,
    r#""\"b""#,
    "1",
    "1.0",
    "9223372036854775808",
    "0",
    "1.5",
    "-3",
    "null",
    "true",
    "[]",
    r#"[{"k":1}]"#,
    r#"{"k":1}"#,
    r#"{"k":"x","t":"c"}"#,
    r#"{"k":0,"t":"d"}"#,
    r#"{"t":"c","k":[],"t":"d"}"#,
    r#"{"a":{"b":[1e400]}}"#,
];

/// [`MERGED`]'s scores as the generated code computed them before issue 31's tables: on the
/// object kept whole as open JSON (`kept_whole`), with its errors.
fn merged_as_reference(text: &str) -> Result<(), TestCaseError> {
    let fits_value = |v: &Value, fits: &Fits| -> bool {
        let kinds = |set: KindSet| {
            [
                crate::Kind::Null,
                crate::Kind::Boolean,
                crate::Kind::Integer,
                crate::Kind::Number,
                crate::Kind::String,
                crate::Kind::Array,
                crate::Kind::Object,
            ]
            .into_iter()
            .any(|k| set.contains(k) && crate::is_kind(v, k))
        };
        let is = |v: Option<&Value>, c: &Const| match c {
            Const::Str(s) => v.and_then(Value::as_str) == Some(*s),
            Const::Int(i) => v.and_then(Value::as_i64) == Some(*i),
        };
        match fits {
            Fits::Kinds(k) => kinds(*k),
            Fits::Is(s) => v.as_str() == Some(*s),
            Fits::Shaped(k, shapes) => {
                kinds(*k)
                    && (!v.is_object()
                        || shapes.iter().any(|s| {
                            crate::has_keys(Some(v), s.required)
                                && s.consts.iter().all(|(name, c)| is(v.get(*name), c))
                        }))
            }
        }
    };
    let whole = kept_whole(&mut Parser::new(text));
    let mut p = Parser::new(text);
    let mut scores = [None; 3];
    let ours = MERGED
        .score(&mut p, Start::Value, &mut scores)
        .map(|_| scores);
    let obj = match (whole, ours) {
        (Err(w), Err(o)) => {
            prop_assert_eq!(
                (o.message(), o.pointer(), o.line(), o.column()),
                (w.message(), w.pointer(), w.line(), w.column()),
                "{}",
                text
            );
            return Ok(());
        }
        (Ok(obj), ours) => (obj, ours),
        (Err(w), Ok(_)) => {
            return Err(TestCaseError::fail(format!(
                "{text}: kept_whole refuses ({w}), the scores do not"
            )));
        }
    };
    let (obj, ours) = obj;
    let common_wrong = obj.get("v").is_some_and(|v| v.as_i64() != Some(1));
    let ours = match ours {
        Err(e) => {
            prop_assert!(common_wrong, "{}: {}", text, e);
            prop_assert!(
                e.message()
                    .starts_with("invalid value for `v`: expected 1, found ")
            );
            return Ok(());
        }
        Ok(ours) => ours,
    };
    prop_assert!(!common_wrong, "{}", text);
    let reference: Vec<Score> = MERGED
        .variants
        .iter()
        .map(|v| {
            let (mut complete, mut consts, mut required, mut declared) = (true, 0, 0, 0);
            for check in v.checks {
                match *check {
                    Check::Const(slot, c) => match obj.get(MERGED.slots[slot]) {
                        Some(x)
                            if match c {
                                Const::Str(s) => x.as_str() == Some(s),
                                Const::Int(i) => x.as_i64() == Some(i),
                            } =>
                        {
                            consts += 1;
                            required += 1;
                            declared += 1;
                        }
                        Some(_) => return None,
                        None => complete = false,
                    },
                    Check::Field(slot, req, fits) => match obj.get(MERGED.slots[slot]) {
                        Some(x) => {
                            complete &= fits_value(x, &fits);
                            declared += 1;
                            required += u32::from(req);
                        }
                        None => complete &= !req,
                    },
                    Check::Refused(slot) => {
                        if obj.contains_key(MERGED.slots[slot]) {
                            return None;
                        }
                    }
                }
            }
            if v.closed && obj.keys().any(|k| !MERGED.slots.contains(&k.as_str())) {
                return None;
            }
            Some((complete, consts, required, declared))
        })
        .collect();
    prop_assert_eq!(&ours[..], &reference[..], "{}", text);
    Ok(())
}

#[test]
fn parser_marks_and_text() {
    let text = r#"{"a": {"b": [1, "x"]}, "c": 2}"#;
    let mut p = Parser::new(text);
    assert_eq!(p.peek().unwrap(), Kind::Object);
    assert_eq!(p.object_first().unwrap(), Some("a"));
    assert_eq!(p.peek().unwrap(), Kind::Object);
    let start = p.mark();
    p.skip().unwrap();
    let end = p.mark();
    assert_eq!(p.text(start, end), r#"{"b": [1, "x"]}"#);
    assert_eq!(p.object_next().unwrap(), Some("c"));
    p.skip().unwrap();
    skip_rest(&mut p).unwrap();
    p.finish().unwrap();
    let mut q = p.at(start);
    assert_eq!(value(&mut q).unwrap(), json!({"b": [1, "x"]}));
    assert_eq!(p.text(3, 1), "");
    let e = p.error("custom");
    assert_eq!(
        (e.message(), e.offset(), e.is_syntax()),
        ("custom", text.len(), false)
    );
}

#[test]
fn errors_are_small_and_thread_safe() {
    fn check<T: Send + Sync + std::error::Error + 'static>() {}
    check::<Error>();
    assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
}

#[test]
fn best_member_gives_way_unless_a_member_is_named_twice() {
    // 0: a request whose params fail; 1: a notification (it would keep `id` as unknown).
    let scores: [Score; 2] = [Some((true, 1, 3, 4)), Some((true, 1, 2, 3))];
    let shape = |k: usize| {
        if k == 0 {
            Err(Parser::new("").error("invalid type"))
        } else {
            Ok(k)
        }
    };
    assert_eq!(best_member(&scores, &shape).unwrap().unwrap(), 1);
    let twice = |k: usize| {
        if k == 0 {
            Err(Parser::new("").repeated("k").in_member("_meta"))
        } else {
            Ok(k)
        }
    };
    let e = best_member(&scores, &twice).unwrap().unwrap_err();
    assert!(e.is_repeated(), "{e}");
    assert_eq!(e.message(), "duplicate member `k`");
}

#[test]
fn best_member_tries_the_highest_score_first_and_ties_in_schema_order() {
    use std::cell::RefCell;
    // 0 cannot be the object; 1 fits only in part; 2 and 3 fit completely with equal scores
    // (schema order between them); 4 fits completely with a better score.
    let scores: [Score; 5] = [
        None,
        Some((false, 3, 3, 3)),
        Some((true, 1, 1, 1)),
        Some((true, 1, 1, 1)),
        Some((true, 2, 0, 0)),
    ];
    let tried = RefCell::new(Vec::new());
    let fail = |k: usize| -> Result<usize, Error> {
        tried.borrow_mut().push(k);
        Err(Parser::new("").error(&format!("member {k}")))
    };
    // Every complete one is tried, best first, ties in schema order; the partial fit is not
    // tried after them; the error is the first one's.
    let e = best_member(&scores, &fail).unwrap().unwrap_err();
    assert_eq!(*tried.borrow(), [4, 2, 3]);
    assert_eq!(e.message(), "member 4");
    // The first complete one that decodes wins.
    tried.borrow_mut().clear();
    let third = |k: usize| -> Result<usize, Error> {
        tried.borrow_mut().push(k);
        if k == 3 {
            Ok(k)
        } else {
            Err(Parser::new("").error("no"))
        }
    };
    assert_eq!(best_member(&scores, &third).unwrap().unwrap(), 3);
    assert_eq!(*tried.borrow(), [4, 2, 3]);
    // None fits completely: only the closest is tried.
    tried.borrow_mut().clear();
    let partial: [Score; 3] = [Some((false, 0, 1, 1)), None, Some((false, 1, 0, 0))];
    assert!(best_member(&partial, &fail).unwrap().is_err());
    assert_eq!(*tried.borrow(), [2]);
    // Nothing can be the object.
    assert!(best_member::<usize>(&[None, None], &fail).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// `best_member` finds the first member without sorting: the order it tries members in is
    /// a stable sort of the scores, best first (the first, then the others that fit
    /// completely, when the first fits completely), for any scores; small ranges make ties.
    #[test]
    fn best_member_tries_members_in_a_stable_ranking(
        scores in prop::collection::vec(
            prop::option::of((any::<bool>(), 0u32..3, 0u32..3, 0u32..3)),
            0..8,
        ),
    ) {
        use std::cell::RefCell;
        let mut ranking: Vec<(usize, (bool, u32, u32, u32))> =
            scores.iter().enumerate().filter_map(|(k, s)| s.map(|s| (k, s))).collect();
        ranking.sort_by(|a, b| b.1.cmp(&a.1));
        let expected: Vec<usize> = match ranking.first() {
            None => vec![],
            Some(&(k, (false, ..))) => vec![k],
            Some(_) => ranking.iter().take_while(|(_, s)| s.0).map(|&(k, _)| k).collect(),
        };
        let tried = RefCell::new(Vec::new());
        let fail = |k: usize| -> Result<usize, Error> {
            tried.borrow_mut().push(k);
            Err(Parser::new("").error("no"))
        };
        let outcome = best_member(&scores, &fail);
        prop_assert_eq!(outcome.is_none(), expected.is_empty());
        prop_assert_eq!(tried.into_inner(), expected);
    }
}
