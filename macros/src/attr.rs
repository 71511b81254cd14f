//! Reads `#[elicit(..)]`, `#[serde(rename/rename_all)]` and doc comments.
//!
//! Every problem is recorded in the [`Ctxt`] and parsing goes on, so one run reports all of
//! them. Values are kept with their spans for the checks and the expansion.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr, UnOp};

use crate::case::RenameRule;
use crate::ctxt::Ctxt;
use crate::symbol::*;
use mcp_typed_rules::ProtocolVersion;

/// A value of an attribute with where it was written.
#[derive(Clone, Debug)]
pub struct Spanned<T> {
    pub value: T,
    /// The span of the value.
    pub span: Span,
    /// `key = value`, to span errors over the whole attribute.
    pub tokens: TokenStream,
}

impl<T> ToTokens for Spanned<T> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.tokens.clone());
    }
}

/// A number as written: integer or floating-point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumLit {
    Int(i128),
    Float(f64),
}

impl NumLit {
    pub fn as_f64(self) -> f64 {
        match self {
            NumLit::Int(i) => i as f64,
            NumLit::Float(f) => f,
        }
    }
}

impl std::fmt::Display for NumLit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NumLit::Int(i) => write!(f, "{i}"),
            NumLit::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// The value of `default = ..`.
#[derive(Clone, Debug)]
pub enum DefaultLit {
    Str(String),
    Bool(bool),
    Num(NumLit),
    List(Vec<String>),
}

impl DefaultLit {
    /// What kind of literal this is, for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            DefaultLit::Str(_) => "a string",
            DefaultLit::Bool(_) => "a boolean",
            DefaultLit::Num(NumLit::Int(_)) => "an integer",
            DefaultLit::Num(NumLit::Float(_)) => "a floating-point number",
            DefaultLit::List(_) => "a list",
        }
    }
}

/// `#[elicit(..)]` and `#[serde(..)]` on the struct or enum, and its doc comment.
#[derive(Default)]
pub struct ContainerAttrs {
    pub krate: Option<syn::Path>,
    pub rename_all: Option<Spanned<RenameRule>>,
    pub serde_rename_all: Option<RenameRule>,
    pub title: Option<Spanned<String>>,
    pub description: Option<Spanned<String>>,
    pub doc: Option<String>,
    /// The oldest revision the form must render for (structs only).
    pub min_revision: Option<Spanned<ProtocolVersion>>,
}

/// `#[elicit(..)]` and `#[serde(rename)]` on a variant.
#[derive(Default)]
pub struct VariantAttrs {
    pub rename: Option<Spanned<String>>,
    pub serde_rename: Option<String>,
    pub title: Option<Spanned<String>>,
}

/// `#[elicit(..)]`, `#[serde(rename)]` and the doc comment of a field.
#[derive(Default)]
pub struct FieldAttrs {
    pub rename: Option<Spanned<String>>,
    pub serde_rename: Option<String>,
    pub title: Option<Spanned<String>>,
    pub description: Option<Spanned<String>>,
    pub doc: Option<String>,
    pub default: Option<Spanned<DefaultLit>>,
    pub format: Option<Spanned<String>>,
    pub min_length: Option<Spanned<u64>>,
    pub max_length: Option<Spanned<u64>>,
    pub pattern: Option<Spanned<String>>,
    pub minimum: Option<Spanned<NumLit>>,
    pub maximum: Option<Spanned<NumLit>>,
    pub min_items: Option<Spanned<u64>>,
    pub max_items: Option<Spanned<u64>>,
    pub not_sensitive: Option<Spanned<()>>,
    pub legacy_enum_names: Option<Spanned<()>>,
    /// The first revision whose schema has the field.
    pub since: Option<Spanned<ProtocolVersion>>,
}

impl FieldAttrs {
    /// The type-specific keys given, with their names, in a fixed order.
    pub fn typed_keys(&self) -> Vec<(Symbol, TokenStream)> {
        let mut keys = Vec::new();
        macro_rules! push {
            ($($field:ident => $sym:expr),*) => {$(
                if let Some(v) = &self.$field {
                    keys.push(($sym, v.tokens.clone()));
                }
            )*};
        }
        push!(
            format => FORMAT, min_length => MIN_LENGTH, max_length => MAX_LENGTH,
            pattern => PATTERN, minimum => MINIMUM, maximum => MAXIMUM,
            min_items => MIN_ITEMS, max_items => MAX_ITEMS,
            legacy_enum_names => LEGACY_ENUM_NAMES
        );
        keys
    }
}

/// The doc comment: lines with the one leading space of `/// ` removed, trimmed; `None` if
/// empty.
pub fn doc(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if attr.path() != DOC {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
        {
            let line = s.value();
            lines.push(
                line.strip_prefix(' ')
                    .unwrap_or(&line)
                    .trim_end()
                    .to_owned(),
            );
        }
    }
    let text = lines.join("\n").trim().to_owned();
    (!text.is_empty()).then_some(text)
}

/// Stores `value` in `slot`, or reports a duplicate.
fn set<T>(cx: &Ctxt, slot: &mut Option<Spanned<T>>, key: Symbol, value: Spanned<T>) {
    if slot.is_some() {
        cx.error_spanned_by(&value.tokens, format!("duplicate `{key}` attribute"));
    } else {
        *slot = Some(value);
    }
}

/// Walks every `#[elicit(..)]` in `attrs`; for each key in `allowed`, calls `f`, which
/// reads the value. Unknown keys are reported with the keys allowed at `position`.
fn each_elicit_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    allowed: &[Symbol],
    position: &str,
    mut f: impl FnMut(Symbol, &ParseNestedMeta) -> syn::Result<()>,
) {
    for attr in attrs {
        if attr.path() != ELICIT {
            continue;
        }
        if let syn::Meta::Path(_) = attr.meta {
            cx.error_spanned_by(
                attr,
                format!(
                    "expected `#[elicit(..)]` with keys; on {position}: {}",
                    list(allowed)
                ),
            );
            continue;
        }
        let result = attr.parse_nested_meta(|meta| {
            let known = allowed.iter().copied().find(|s| meta.path == *s);
            match known {
                Some(key) => f(key, &meta),
                None => {
                    let name = meta.path.to_token_stream().to_string().replace(' ', "");
                    cx.error_spanned_by(
                        &meta.path,
                        format!(
                            "unknown attribute `{name}` on {position}; supported: {}",
                            list(allowed)
                        ),
                    );
                    skip_value(&meta)
                }
            }
        });
        if let Err(e) = result {
            cx.syn_error(e);
        }
    }
}

/// Consumes `= value` or `(..)` after an unknown key.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::Group>()?;
    }
    Ok(())
}

/// `key = <expr>`, as an expression with its tokens.
fn value_expr(meta: &ParseNestedMeta) -> syn::Result<(Expr, TokenStream)> {
    let path = meta.path.clone();
    let expr: Expr = meta.value()?.parse()?;
    let tokens = quote!(#path = #expr);
    Ok((expr, tokens))
}

fn spanned<T>(value: T, expr: &Expr, tokens: TokenStream) -> Spanned<T> {
    Spanned {
        value,
        span: expr.span(),
        tokens,
    }
}

fn string_value(
    cx: &Ctxt,
    key: Symbol,
    meta: &ParseNestedMeta,
) -> syn::Result<Option<Spanned<String>>> {
    let (expr, tokens) = value_expr(meta)?;
    match &expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Ok(Some(spanned(s.value(), &expr, tokens))),
        _ => {
            cx.error_spanned_by(
                &tokens,
                format!("`{key}` takes a string literal: {key} = \"..\""),
            );
            Ok(None)
        }
    }
}

fn count_value(
    cx: &Ctxt,
    key: Symbol,
    meta: &ParseNestedMeta,
) -> syn::Result<Option<Spanned<u64>>> {
    let (expr, tokens) = value_expr(meta)?;
    let parsed = match &expr {
        Expr::Lit(ExprLit {
            lit: Lit::Int(i), ..
        }) => i.base10_parse::<u64>().ok(),
        _ => None,
    };
    match parsed {
        Some(n) => Ok(Some(spanned(n, &expr, tokens))),
        None => {
            cx.error_spanned_by(
                &tokens,
                format!("`{key}` takes a non-negative integer literal: {key} = 3"),
            );
            Ok(None)
        }
    }
}

/// A number literal, possibly negated.
fn num_lit(expr: &Expr) -> Option<NumLit> {
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => match lit {
            Lit::Int(i) => i.base10_parse::<i128>().ok().map(NumLit::Int),
            Lit::Float(f) => f
                .base10_parse::<f64>()
                .ok()
                .filter(|f| f.is_finite())
                .map(NumLit::Float),
            _ => None,
        },
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match num_lit(&u.expr)? {
            NumLit::Int(i) => Some(NumLit::Int(-i)),
            NumLit::Float(f) => Some(NumLit::Float(-f)),
        },
        Expr::Group(g) => num_lit(&g.expr),
        _ => None,
    }
}

fn num_value(
    cx: &Ctxt,
    key: Symbol,
    meta: &ParseNestedMeta,
) -> syn::Result<Option<Spanned<NumLit>>> {
    let (expr, tokens) = value_expr(meta)?;
    match num_lit(&expr) {
        Some(n) => Ok(Some(spanned(n, &expr, tokens))),
        None => {
            cx.error_spanned_by(
                &tokens,
                format!("`{key}` takes a number literal: {key} = 10"),
            );
            Ok(None)
        }
    }
}

fn default_value(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Spanned<DefaultLit>>> {
    let (expr, tokens) = value_expr(meta)?;
    let value = match &expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(DefaultLit::Str(s.value())),
        Expr::Lit(ExprLit {
            lit: Lit::Bool(b), ..
        }) => Some(DefaultLit::Bool(b.value)),
        Expr::Array(array) => array
            .elems
            .iter()
            .map(|e| match e {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .map(DefaultLit::List),
        other => num_lit(other).map(DefaultLit::Num),
    };
    match value {
        Some(value) => Ok(Some(spanned(value, &expr, tokens))),
        None => {
            cx.error_spanned_by(
                &tokens,
                "`default` takes a literal: a string, a number, `true`/`false`, or a list of strings for a multi-select ([\"a\", \"b\"])",
            );
            Ok(None)
        }
    }
}

fn flag(cx: &Ctxt, key: Symbol, meta: &ParseNestedMeta) -> syn::Result<Option<Spanned<()>>> {
    let path = &meta.path;
    if meta.input.peek(syn::Token![=]) || meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            path,
            format!("`{key}` takes no value: write `#[elicit({key})]`"),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    Ok(Some(Spanned {
        value: (),
        span: path.span(),
        tokens: path.to_token_stream(),
    }))
}

/// `key = "2025-11-25"`: a revision mcp-typed knows.
fn revision_value(
    cx: &Ctxt,
    key: Symbol,
    meta: &ParseNestedMeta,
) -> syn::Result<Option<Spanned<ProtocolVersion>>> {
    let example = if key == MIN_REVISION {
        ProtocolVersion::ELICITATION
    } else {
        ProtocolVersion::MULTI_SELECT
    };
    let example = format!("{key} = \"{example}\"");
    if !meta.input.peek(syn::Token![=]) {
        cx.error_spanned_by(
            &meta.path,
            format!("`{key}` takes a protocol revision: {example}"),
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let (expr, tokens) = value_expr(meta)?;
    let Expr::Lit(ExprLit {
        lit: Lit::Str(s), ..
    }) = &expr
    else {
        cx.error_spanned_by(
            &tokens,
            format!("`{key}` takes a protocol revision as a string literal: {example}"),
        );
        return Ok(None);
    };
    let name = s.value();
    match name.parse::<ProtocolVersion>() {
        Ok(revision) => Ok(Some(spanned(revision, &expr, tokens))),
        Err(_) => {
            cx.error_spanned_by(
                &tokens,
                format!(
                    "unknown protocol revision \"{name}\" in `{key}`; known revisions: {}",
                    ProtocolVersion::ALL.map(|r| format!("\"{r}\"")).join(", ")
                ),
            );
            Ok(None)
        }
    }
}

fn rename_rule(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Spanned<RenameRule>>> {
    let Some(name) = string_value(cx, RENAME_ALL, meta)? else {
        return Ok(None);
    };
    match RenameRule::from_str(&name.value) {
        Some(rule) => Ok(Some(Spanned {
            value: rule,
            span: name.span,
            tokens: name.tokens,
        })),
        None => {
            cx.error_spanned_by(
                &name.tokens,
                format!(
                    "unknown `rename_all` rule \"{}\"; supported: {}",
                    name.value,
                    RenameRule::names()
                ),
            );
            Ok(None)
        }
    }
}

/// `rename = ".."` and `rename_all = ".."` of `#[serde(..)]`; everything else there is
/// serde's business and is skipped without complaint.
fn serde_renames(attrs: &[Attribute]) -> (Option<String>, Option<RenameRule>) {
    let (mut rename, mut rename_all) = (None, None);
    for attr in attrs {
        if attr.path() != SERDE {
            continue;
        }
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path == RENAME || meta.path == RENAME_ALL {
                let all = meta.path == RENAME_ALL;
                if meta.input.peek(syn::Token![=]) {
                    let s: LitStr = meta.value()?.parse()?;
                    if all {
                        rename_all = RenameRule::from_str(&s.value());
                    } else {
                        rename = Some(s.value());
                    }
                } else {
                    // rename(serialize = "..", deserialize = ".."): content is deserialized.
                    meta.parse_nested_meta(|inner| {
                        let s: LitStr = inner.value()?.parse()?;
                        if inner.path.is_ident("deserialize") {
                            if all {
                                rename_all = RenameRule::from_str(&s.value());
                            } else {
                                rename = Some(s.value());
                            }
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            } else {
                skip_value(&meta)
            }
        });
    }
    (rename, rename_all)
}

impl ContainerAttrs {
    pub fn from_ast(cx: &Ctxt, attrs: &[Attribute], is_enum: bool) -> ContainerAttrs {
        let mut out = ContainerAttrs {
            doc: doc(attrs),
            serde_rename_all: serde_renames(attrs).1,
            ..ContainerAttrs::default()
        };
        let (allowed, position) = if is_enum {
            (ENUM_KEYS, "an enum")
        } else {
            (STRUCT_KEYS, "a struct")
        };
        each_elicit_key(cx, attrs, allowed, position, |key, meta| {
            match key {
                RENAME_ALL => {
                    if let Some(rule) = rename_rule(cx, meta)? {
                        set(cx, &mut out.rename_all, key, rule);
                    }
                }
                TITLE => {
                    if let Some(v) = string_value(cx, key, meta)? {
                        set(cx, &mut out.title, key, v);
                    }
                }
                DESCRIPTION => {
                    if let Some(v) = string_value(cx, key, meta)? {
                        set(cx, &mut out.description, key, v);
                    }
                }
                MIN_REVISION => {
                    if let Some(v) = revision_value(cx, key, meta)? {
                        set(cx, &mut out.min_revision, key, v);
                    }
                }
                CRATE => {
                    if let Some(v) = string_value(cx, key, meta)? {
                        match syn::parse_str::<syn::Path>(&v.value) {
                            Ok(path) => out.krate = Some(path),
                            Err(_) => cx.error_spanned_by(
                                &v.tokens,
                                "`crate` takes the path of the mcp-typed crate, e.g. crate = \"::mcp_typed\"",
                            ),
                        }
                    }
                }
                _ => {}
            }
            Ok(())
        });
        out
    }

    pub fn rename_rule(&self) -> Option<RenameRule> {
        self.rename_all
            .as_ref()
            .map(|r| r.value)
            .or(self.serde_rename_all)
    }
}

impl VariantAttrs {
    pub fn from_ast(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
        let mut out = VariantAttrs {
            serde_rename: serde_renames(attrs).0,
            ..VariantAttrs::default()
        };
        each_elicit_key(cx, attrs, VARIANT_KEYS, "an enum variant", |key, meta| {
            if let Some(v) = string_value(cx, key, meta)? {
                match key {
                    RENAME => set(cx, &mut out.rename, key, v),
                    TITLE => set(cx, &mut out.title, key, v),
                    _ => {}
                }
            }
            Ok(())
        });
        out
    }
}

impl FieldAttrs {
    pub fn from_ast(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
        let mut out = FieldAttrs {
            doc: doc(attrs),
            serde_rename: serde_renames(attrs).0,
            ..FieldAttrs::default()
        };
        each_elicit_key(cx, attrs, FIELD_KEYS, "a field", |key, meta| {
            match key {
                RENAME | TITLE | DESCRIPTION | FORMAT | PATTERN => {
                    if let Some(v) = string_value(cx, key, meta)? {
                        let slot = match key {
                            RENAME => &mut out.rename,
                            TITLE => &mut out.title,
                            DESCRIPTION => &mut out.description,
                            FORMAT => &mut out.format,
                            _ => &mut out.pattern,
                        };
                        set(cx, slot, key, v);
                    }
                }
                MIN_LENGTH | MAX_LENGTH | MIN_ITEMS | MAX_ITEMS => {
                    if let Some(v) = count_value(cx, key, meta)? {
                        let slot = match key {
                            MIN_LENGTH => &mut out.min_length,
                            MAX_LENGTH => &mut out.max_length,
                            MIN_ITEMS => &mut out.min_items,
                            _ => &mut out.max_items,
                        };
                        set(cx, slot, key, v);
                    }
                }
                MINIMUM | MAXIMUM => {
                    if let Some(v) = num_value(cx, key, meta)? {
                        let slot = if key == MINIMUM {
                            &mut out.minimum
                        } else {
                            &mut out.maximum
                        };
                        set(cx, slot, key, v);
                    }
                }
                DEFAULT => {
                    if let Some(v) = default_value(cx, meta)? {
                        set(cx, &mut out.default, key, v);
                    }
                }
                SINCE => {
                    if let Some(v) = revision_value(cx, key, meta)? {
                        set(cx, &mut out.since, key, v);
                    }
                }
                NOT_SENSITIVE | LEGACY_ENUM_NAMES => {
                    if let Some(v) = flag(cx, key, meta)? {
                        let slot = if key == NOT_SENSITIVE {
                            &mut out.not_sensitive
                        } else {
                            &mut out.legacy_enum_names
                        };
                        set(cx, slot, key, v);
                    }
                }
                _ => {}
            }
            Ok(())
        });
        out
    }
}
