//! The client side of elicitation: a received form as a model to show, pre-fill and check,
//! the reply to send, and URL mode with the spec's consent rules built in.
//!
//! The spec's elicitation chapter asks a client to show which server asks, let the user
//! review and change the answer, decline or cancel at any time, use a field's `default` to
//! pre-fill, and validate answers against the schema; in URL mode, never to open or fetch the
//! URL without explicit consent and to show the whole URL, its domain highlighted, with
//! warnings for suspicious ones. This module gives each of those a type:
//!
//! - [`Form`]: the form of any revision's `elicitation/create` params (typed, rmcp's or raw
//!   JSON), fields in the server's order with their kind, limits, title, description, default
//!   and required flag. A schema that is not a flat form is refused with a [`FormError`]
//!   naming every property at fault, for the `-32602` error reply.
//! - [`Answer`]: an answer pre-filled from defaults, typed setters (and [`Answer::parse`] for
//!   typed text), validation with every violation at once, and the [`FormReply`].
//! - [`UrlRequest`]: what a URL-mode request asks to show, its [`UrlWarning`]s, and
//!   [`Consent`] → [`ConsentedUrl`], the only way to an openable URL; [`PendingUrls`] matches
//!   `notifications/elicitation/complete`.
//!
//! A derived form and a received one are checked by the same code:
//! [`Form::from_schema`] turns a `#[derive(Elicit)]` form into this model, and
//! `Elicit::from_content` and [`Form::validate`] give the same verdicts.

mod answer;
mod example;
mod form;
mod url;
mod words;

pub use answer::{Answer, FormReply, SetError};
pub use example::format_example;
pub use form::{Choice, Field, FieldKind, Form, FormError, FormProblem, SelectStyle};
pub use url::{
    Consent, ConsentedUrl, PendingUrls, Rewrite, UrlError, UrlParts, UrlRequest, UrlWarning,
};
