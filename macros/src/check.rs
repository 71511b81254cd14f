//! Every rule the derive enforces at compile time on what the syntax shows. What it cannot
//! see (the types behind aliases and paths) is checked by the expansion through traits and
//! constants.

use std::collections::HashMap;

use crate::ast::{Container, Data, Field, Shape, Shape2, Variant};
use crate::attr::{DefaultLit, NumLit, Spanned};
use crate::ctxt::Ctxt;
use crate::formats;
use crate::symbol::*;
use mcp_typed_rules::{Format, ProtocolVersion, sensitive_name};

pub fn check(cx: &Ctxt, cont: &Container) {
    check_generics(cx, cont);
    match &cont.data {
        Data::Form(fields) => {
            for field in fields {
                check_field(cx, field);
                check_since(cx, field);
            }
            check_unique(cx, fields.iter().map(|f| (&f.name, f.ident)), "field");
            check_min_revision(cx, cont, fields);
        }
        Data::Select(variants) => check_select(cx, cont, variants),
        Data::Unsupported => {
            let what = match &cont.input.data {
                syn::Data::Union(_) => "unions are not supported",
                syn::Data::Struct(s) if matches!(s.fields, syn::Fields::Unit) => {
                    "unit structs are not supported"
                }
                _ => "tuple structs are not supported",
            };
            cx.error_at(
                cont.keyword_span(),
                format!(
                    "{what}: #[derive(Elicit)] takes a struct with named fields (a form) or an enum of unit variants (a select)"
                ),
            );
        }
    }
}

fn check_generics(cx: &Ctxt, cont: &Container) {
    let generics = &cont.input.generics;
    if !generics.params.is_empty() || generics.where_clause.is_some() {
        cx.error_spanned_by(
            generics,
            "generic types are not supported by #[derive(Elicit)]: a form's schema is fixed per type; use concrete field types",
        );
    }
}

fn check_unique<'a>(
    cx: &Ctxt,
    names: impl Iterator<Item = (&'a String, &'a syn::Ident)>,
    what: &str,
) {
    let mut seen: HashMap<&String, &syn::Ident> = HashMap::new();
    for (name, ident) in names {
        if let Some(first) = seen.get(name) {
            cx.error_spanned_by(
                ident,
                format!("`{name}` is already the name of {what} `{first}` (after renaming); names must be unique"),
            );
        } else {
            seen.insert(name, ident);
        }
    }
}

fn check_select(cx: &Ctxt, cont: &Container, variants: &[Variant]) {
    if variants.is_empty() {
        cx.error_at(
            cont.keyword_span(),
            "an enum deriving Elicit is a select and needs at least one variant",
        );
    }
    for variant in variants {
        if !matches!(variant.fields, syn::Fields::Unit) {
            cx.error_spanned_by(
                variant.fields,
                format!(
                    "variant `{}` has data: a select's options are unit variants (enums with data are not supported)",
                    variant.ident
                ),
            );
        }
    }
    check_unique(cx, variants.iter().map(|v| (&v.name, v.ident)), "variant");
}

// ---- revisions ----

/// Whether the field is listed in `required`: not an `Option`, no `default`.
pub fn is_required(field: &Field) -> bool {
    field.option.is_none() && field.attrs.default.is_none()
}

fn check_since(cx: &Ctxt, field: &Field) {
    let Some(since) = &field.attrs.since else {
        return;
    };
    if is_required(field) {
        cx.error_spanned_by(
            since,
            format!(
                "`since` on field `{}`: a required field cannot be left out of older revisions: make it `Option<_>` or give it a default",
                field.ident
            ),
        );
    }
    let elicitation = ProtocolVersion::ELICITATION;
    if since.value <= elicitation {
        cx.error_spanned_by(
            since,
            format!(
                "`since = \"{}\"` leaves field `{}` out of no revision: forms exist from {elicitation} on; name a later revision, or remove `since`",
                since.value, field.ident
            ),
        );
    }
}

/// The first revision whose schema has `field`, when the form serves revisions from `min` on.
fn first_revision(field: &Field, min: ProtocolVersion) -> ProtocolVersion {
    field
        .attrs
        .since
        .as_ref()
        .map_or(min, |since| since.value.max(min))
}

/// Why `field` fails the form's `min_revision = min` when its type is a multi-select: the
/// message of the derive's check and of the expansion's constant check (for types the derive
/// cannot see).
pub fn multi_select_message(field: &Field, min: ProtocolVersion) -> String {
    let multi = ProtocolVersion::MULTI_SELECT;
    let fix = if is_required(field) {
        format!(
            "make it `Option<{}>` with `#[elicit(since = \"{multi}\")]`",
            type_name(field.ty)
        )
    } else {
        format!("add `#[elicit(since = \"{multi}\")]`")
    };
    let what = if is_required(field) {
        "a required multi-select"
    } else {
        "a multi-select"
    };
    format!(
        "field `{}` is {what}, which {min} (the form's `min_revision`) cannot express: multi-selects exist from {multi} on; {fix} so that older revisions leave it out, or raise `min_revision` to \"{multi}\"",
        field.ident
    )
}

fn check_min_revision(cx: &Ctxt, cont: &Container, fields: &[Field]) {
    let Some(min) = &cont.attrs.min_revision else {
        return;
    };
    let elicitation = ProtocolVersion::ELICITATION;
    if min.value < elicitation {
        cx.error_spanned_by(
            min,
            format!(
                "`min_revision = \"{}\"`: {} has no elicitation (forms exist from {elicitation} on); the oldest revision a form can serve is \"{elicitation}\"",
                min.value, min.value
            ),
        );
        return;
    }
    for field in fields {
        // A `since` that is itself refused is reported once, by `check_since`.
        let since_refused = field
            .attrs
            .since
            .as_ref()
            .is_some_and(|s| s.value <= elicitation);
        if matches!(field.shape, Shape::Collection(_, _, Shape2::Opaque))
            && !since_refused
            && first_revision(field, min.value) < ProtocolVersion::MULTI_SELECT
        {
            cx.error_spanned_by(field.ty, multi_select_message(field, min.value));
        }
    }
}

// ---- sensitive data ----

fn check_sensitive(cx: &Ctxt, field: &Field) {
    if field.attrs.not_sensitive.is_some() {
        return;
    }
    let ident = crate::ast::unraw(field.ident);
    if let Some(word) = sensitive_name(&ident).or_else(|| sensitive_name(&field.name)) {
        cx.error_spanned_by(
            field.ident,
            format!(
                "field `{ident}` looks like it asks for sensitive data (`{word}`): the MCP spec forbids requesting passwords, secrets, tokens, API keys or payment data in form mode; \
                 send the user to a URL instead (URL-mode elicitation, `mcp_typed::elicit::UrlElicitation`), \
                 or add `#[elicit(not_sensitive)]` if this field is not sensitive"
            ),
        );
    }
}

// ---- fields ----

/// What a field is, in words, and the type-specific keys it takes.
fn kind(shape: &Shape) -> Option<(String, &'static [Symbol])> {
    Some(match shape {
        Shape::String => (
            "a string field".to_owned(),
            &[FORMAT, MIN_LENGTH, MAX_LENGTH, PATTERN],
        ),
        Shape::Bool => ("a boolean field".to_owned(), &[]),
        Shape::Int(_) => ("an integer field".to_owned(), &[MINIMUM, MAXIMUM]),
        Shape::Float(_) => ("a number field".to_owned(), &[MINIMUM, MAXIMUM]),
        Shape::Typed(t) => (
            format!("a `{}` string whose type implies its format", t.format()),
            &[],
        ),
        Shape::Collection(..) => ("a multi-select field".to_owned(), &[MIN_ITEMS, MAX_ITEMS]),
        Shape::Opaque | Shape::Rejected(_) => return None,
    })
}

/// A type as written, for messages.
pub fn type_name(ty: &syn::Type) -> String {
    quote::ToTokens::to_token_stream(ty)
        .to_string()
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
}

fn check_field(cx: &Ctxt, field: &Field) {
    check_sensitive(cx, field);
    match &field.shape {
        Shape::Rejected(why) => {
            let span_on = if field.option.is_some() && option_twice(field) {
                field.ty
            } else {
                field.inner
            };
            cx.error_spanned_by(span_on, format!("field `{}`: {why}", field.ident));
            return;
        }
        Shape::Collection(collection, item, Shape2::NotEnum(what)) => {
            cx.error_spanned_by(
                item,
                format!(
                    "field `{}`: a `{}` is a multi-select, whose items must be a fieldless enum deriving `Elicit`, but these items are {what}; \
                     `Vec`s of anything but such an enum are not supported",
                    field.ident,
                    collection.name()
                ),
            );
            return;
        }
        _ => {}
    }
    let a = &field.attrs;
    if let Some((what, keys)) = kind(&field.shape) {
        for (key, tokens) in a.typed_keys() {
            if !keys.contains(&key) {
                let takes = if keys.is_empty() {
                    "no type-specific attributes".to_owned()
                } else {
                    list(keys)
                };
                let why = if key == LEGACY_ENUM_NAMES {
                    "; it applies to single-select (enum) fields"
                } else {
                    ""
                };
                cx.error_spanned_by(
                    tokens,
                    format!(
                        "`{key}` does not apply to field `{}`: its type `{}` makes it {what}{why}; such fields take {takes} (besides `title`, `description` and `default`)",
                        field.ident,
                        type_name(field.inner),
                    ),
                );
            }
        }
    }

    if let Some(format) = &a.format
        && formats::in_spec(&format.value).is_none()
    {
        let allowed = Format::ALL
            .iter()
            .map(|f| format!("\"{f}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let message = if format.value == "idn-email" {
            // JSON Schema's, and a client reads it, but a form that uses it may be refused.
            format!(
                "format \"idn-email\" is not in the spec's StringSchema, so a client may refuse the form; the spec allows: {allowed} (\"email\" takes ASCII addresses only)"
            )
        } else {
            format!(
                "unknown format \"{}\"; the spec allows: {allowed}",
                format.value
            )
        };
        cx.error_spanned_by(format, message);
    }
    if let Some(pattern) = &a.pattern
        && let Err(e) = regex::Regex::new(&pattern.value)
    {
        cx.error_spanned_by(pattern, format!("invalid `pattern` regex: {e}"));
    }

    min_max(cx, &a.min_length, &a.max_length, MIN_LENGTH, MAX_LENGTH);
    min_max(cx, &a.min_items, &a.max_items, MIN_ITEMS, MAX_ITEMS);
    if let (Some(min), Some(max)) = (&a.minimum, &a.maximum)
        && min.value.as_f64() > max.value.as_f64()
    {
        cx.error_spanned_by(
            max,
            format!(
                "`maximum = {}` is less than `minimum = {}`",
                max.value, min.value
            ),
        );
    }

    if let Shape::Int(int) = field.shape {
        for (bound, key) in [(&a.minimum, MINIMUM), (&a.maximum, MAXIMUM)] {
            let Some(bound) = bound else { continue };
            match bound.value {
                NumLit::Float(_) => cx.error_spanned_by(
                    bound,
                    format!(
                        "`{key}` of integer field `{}` must be an integer",
                        field.ident
                    ),
                ),
                NumLit::Int(v) if v < int.min || v > int.max => cx.error_spanned_by(
                    bound,
                    format!(
                        "`{key} = {v}` is outside the range of `{}` ({}..={})",
                        int.name, int.min, int.max
                    ),
                ),
                NumLit::Int(_) => {}
            }
        }
    }

    if let Some(default) = &a.default {
        check_default(cx, field, default);
    }
}

fn option_twice(field: &Field) -> bool {
    field.option.and_then(crate::ast::option_inner).is_some()
}

fn min_max(
    cx: &Ctxt,
    min: &Option<Spanned<u64>>,
    max: &Option<Spanned<u64>>,
    min_key: Symbol,
    max_key: Symbol,
) {
    if let (Some(min), Some(max)) = (min, max)
        && min.value > max.value
    {
        cx.error_spanned_by(
            max,
            format!(
                "`{max_key} = {}` is less than `{min_key} = {}`",
                max.value, min.value
            ),
        );
    }
}

fn wrong_default(cx: &Ctxt, field: &Field, default: &Spanned<DefaultLit>, expected: &str) {
    cx.error_spanned_by(
        default,
        format!(
            "`default` of field `{}` must be {expected}, but it is {}",
            field.ident,
            default.value.describe()
        ),
    );
}

fn check_default(cx: &Ctxt, field: &Field, default: &Spanned<DefaultLit>) {
    let a = &field.attrs;
    let ident = field.ident;
    match (&field.shape, &default.value) {
        (Shape::String, DefaultLit::Str(s)) => check_str_default(cx, field, default, s),
        (Shape::String, _) => wrong_default(cx, field, default, "a string"),
        (Shape::Typed(t), DefaultLit::Str(s)) => {
            check_default_format(cx, field, default, t.format(), s)
        }
        (Shape::Typed(t), _) => {
            wrong_default(cx, field, default, &format!("a {} string", t.format()))
        }
        (Shape::Bool, DefaultLit::Bool(_)) => {}
        (Shape::Bool, _) => wrong_default(cx, field, default, "`true` or `false`"),
        (Shape::Int(int), DefaultLit::Num(NumLit::Int(v))) => {
            let min = a
                .minimum
                .as_ref()
                .map(|m| m.value.as_f64())
                .unwrap_or(f64::MIN);
            let max = a
                .maximum
                .as_ref()
                .map(|m| m.value.as_f64())
                .unwrap_or(f64::MAX);
            if *v < int.min || *v > int.max {
                cx.error_spanned_by(
                    default,
                    format!(
                        "`default = {v}` of field `{ident}` is outside the range of `{}` ({}..={})",
                        int.name, int.min, int.max
                    ),
                );
            } else if (*v as f64) < min || (*v as f64) > max {
                cx.error_spanned_by(
                    default,
                    format!(
                        "`default = {v}` of field `{ident}` is outside its `minimum`/`maximum`"
                    ),
                );
            }
        }
        (Shape::Int(_), _) => wrong_default(cx, field, default, "an integer"),
        (Shape::Float(_), DefaultLit::Num(n)) => {
            let v = n.as_f64();
            let below = a.minimum.as_ref().is_some_and(|m| v < m.value.as_f64());
            let above = a.maximum.as_ref().is_some_and(|m| v > m.value.as_f64());
            if below || above {
                cx.error_spanned_by(
                    default,
                    format!(
                        "`default = {n}` of field `{ident}` is outside its `minimum`/`maximum`"
                    ),
                );
            }
        }
        (Shape::Float(_), _) => wrong_default(cx, field, default, "a number"),
        (Shape::Collection(..), DefaultLit::List(items)) => {
            check_list_default(cx, field, default, items)
        }
        (Shape::Collection(..), _) => wrong_default(
            cx,
            field,
            default,
            "a list of option values ([\"a\", \"b\"])",
        ),
        // Opaque types: whether the default fits the type is checked through traits and
        // constants by the expansion; whether it fits the other attributes is checked here.
        (Shape::Opaque, DefaultLit::Str(s)) => check_str_default(cx, field, default, s),
        (Shape::Opaque, DefaultLit::Num(n)) => check_num_default(cx, field, default, *n),
        (Shape::Opaque, DefaultLit::List(items)) => check_list_default(cx, field, default, items),
        (Shape::Opaque, DefaultLit::Bool(_)) | (Shape::Rejected(_), _) => {}
    }
}

/// A string default against `min_length`, `max_length`, `pattern` and `format`.
fn check_str_default(cx: &Ctxt, field: &Field, default: &Spanned<DefaultLit>, s: &str) {
    let a = &field.attrs;
    let ident = field.ident;
    let len = s.chars().count() as u64;
    if let Some(min) = &a.min_length
        && len < min.value
    {
        cx.error_spanned_by(
            default,
            format!(
                "`default` of field `{ident}` has {len} characters, fewer than `min_length = {}`",
                min.value
            ),
        );
    }
    if let Some(max) = &a.max_length
        && len > max.value
    {
        cx.error_spanned_by(
            default,
            format!(
                "`default` of field `{ident}` has {len} characters, more than `max_length = {}`",
                max.value
            ),
        );
    }
    if let Some(pattern) = &a.pattern
        && let Ok(re) = regex::Regex::new(&pattern.value)
        && !re.is_match(s)
    {
        cx.error_spanned_by(
            default,
            format!("`default` of field `{ident}` does not match its `pattern`"),
        );
    }
    if let Some(format) = &a.format {
        check_default_format(cx, field, default, &format.value, s);
    }
}

/// A numeric default against `minimum` and `maximum`.
fn check_num_default(cx: &Ctxt, field: &Field, default: &Spanned<DefaultLit>, n: NumLit) {
    let a = &field.attrs;
    let v = n.as_f64();
    let below = a.minimum.as_ref().is_some_and(|m| v < m.value.as_f64());
    let above = a.maximum.as_ref().is_some_and(|m| v > m.value.as_f64());
    if below || above {
        cx.error_spanned_by(
            default,
            format!(
                "`default = {n}` of field `{}` is outside its `minimum`/`maximum`",
                field.ident
            ),
        );
    }
}

/// A list default against `min_items`, `max_items`, and for repeated values.
fn check_list_default(cx: &Ctxt, field: &Field, default: &Spanned<DefaultLit>, items: &[String]) {
    let a = &field.attrs;
    let ident = field.ident;
    let n = items.len() as u64;
    if let Some(min) = &a.min_items
        && n < min.value
    {
        cx.error_spanned_by(
            default,
            format!(
                "`default` of field `{ident}` selects {n} options, fewer than `min_items = {}`",
                min.value
            ),
        );
    }
    if let Some(max) = &a.max_items
        && n > max.value
    {
        cx.error_spanned_by(
            default,
            format!(
                "`default` of field `{ident}` selects {n} options, more than `max_items = {}`",
                max.value
            ),
        );
    }
    for (i, item) in items.iter().enumerate() {
        if items[..i].contains(item) {
            cx.error_spanned_by(
                default,
                format!("`default` of field `{ident}` selects \"{item}\" twice"),
            );
        }
    }
}

fn check_default_format(
    cx: &Ctxt,
    field: &Field,
    default: &Spanned<DefaultLit>,
    format: &str,
    value: &str,
) {
    if let Some(format) = formats::in_spec(format)
        && !formats::matches(format, value)
    {
        cx.error_spanned_by(
            default,
            format!(
                "`default` of field `{}` is not a valid {format}",
                field.ident
            ),
        );
    }
}
