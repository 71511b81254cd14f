//! URL-mode elicitation on the client: what to show, the warnings to give, and opening the
//! URL only after the user consented.
//!
//! The spec's rules for a client receiving a URL-mode request: never pre-fetch the URL or
//! open it without the user's explicit consent; show the whole URL before consent, with its
//! domain highlighted; warn about suspicious URLs (Punycode hosts, for instance); let the
//! user decline or cancel; render no other URL (in the message, say) as a link.
//! [`UrlRequest`] gives what to show ([`UrlRequest::parts`], [`UrlRequest::warnings`]) but
//! no openable URL: that takes a [`Consent`], which only the code that asked the user makes.
//!
//! **One parser decides what is shown and what opens**: the WHATWG URL Standard's, which
//! browsers use (the `url` crate). The URL shown is that parse's serialization, split at the
//! host that parse found, and [`ConsentedUrl::url`] is the same parse: the highlighted domain
//! is the domain the browser goes to. The text as the server wrote it is only compared with
//! that parse, to warn where the two read differently: `https://evil.example\@example.com/`
//! reads as `example.com` to a person, but a browser reads the `\` as `/` and opens
//! `evil.example`, so that is the host shown, with [`Rewrite::Backslash`].

use std::collections::BTreeSet;
use std::fmt;
use std::net::IpAddr;

use serde::Serialize;
use serde_json::{Map, Value};
use unicode_security::MixedScript;

use super::answer::FormReply;

/// A URL-mode `elicitation/create` request as received (2025-11-25 and later), or one
/// entry of a `-32042` `URLElicitationRequired` error.
///
/// ```
/// use mcp_typed::elicit::client::{Consent, UrlRequest, UrlWarning};
///
/// let params = serde_json::json!({
///     "mode": "url",
///     "elicitationId": "pay-1",
///     "url": "http://pay.example.com/checkout?order=7",
///     "message": "Pay for your order"
/// });
/// let request = UrlRequest::from_params(&params)?;
/// let parts = request.parts();
/// // Show the whole URL, the host highlighted: "http://" [pay.example.com] "/checkout?order=7"
/// assert_eq!((parts.before_host, parts.host, parts.after_host),
///            ("http://", "pay.example.com", "/checkout?order=7"));
/// assert_eq!(request.warnings(), &[UrlWarning::NotHttps]);
///
/// // Only after the user said yes is there a URL to open: the one shown.
/// let user_said_yes = true;
/// let reply = if user_said_yes {
///     request.consent(Consent::given_by_user())
///         .open_with(|url| -> Result<(), std::io::Error> {
///             // e.g. open::that(url.as_str())
///             assert_eq!(url.host_str(), Some("pay.example.com"));
///             Ok(())
///         })?
/// } else {
///     request.decline()
/// };
/// assert_eq!(reply.to_value(), serde_json::json!({"action": "accept"}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A URL that reads one way and opens another is shown as it opens, with a warning:
///
/// ```
/// use mcp_typed::elicit::client::{Rewrite, UrlRequest, UrlWarning};
///
/// let params = serde_json::json!({
///     "mode": "url", "elicitationId": "e", "message": "Sign in",
///     "url": "https://evil.example\\@example.com/login"
/// });
/// let request = UrlRequest::from_params(&params)?;
/// assert_eq!(request.written(), "https://evil.example\\@example.com/login");
/// assert_eq!(request.shown_url(), "https://evil.example/@example.com/login");
/// assert_eq!(request.parts().host, "evil.example");
/// assert_eq!(request.warnings(), &[UrlWarning::NotAsWritten {
///     rewrite: Rewrite::Backslash,
///     opens: "evil.example".into(),
/// }]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRequest {
    elicitation_id: Option<String>,
    message: String,
    written: String,
    url: url::Url,
    host_unicode: String,
    warnings: Vec<UrlWarning>,
}

/// The URL that opens, as text, split so that a client can highlight the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UrlParts<'a> {
    /// The scheme and anything before the host (`https://`, `https://user@`).
    pub before_host: &'a str,
    /// The host the browser goes to, in ASCII (an international domain in Punycode, an IPv6
    /// address in brackets); [`UrlRequest::host_unicode`] is how it reads.
    pub host: &'a str,
    /// Port, path, query and fragment.
    pub after_host: &'a str,
}

/// Something about a URL the user should be warned of before consenting. `Display` gives a
/// sentence to show as is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlWarning {
    /// Plain `http` to a host that is not this machine: what the user types there can be read
    /// or changed on the way.
    NotHttps,
    /// The URL as written reads differently from what a browser opens: the host a reader
    /// finds in the text may not be `opens`.
    NotAsWritten {
        /// What the browser reads differently.
        rewrite: Rewrite,
        /// The host it opens, as it reads (Unicode).
        opens: String,
    },
    /// The domain has labels outside ASCII (written in Unicode, or as Punycode `xn--…`): it
    /// may imitate another domain.
    InternationalDomain {
        /// The domain as it reads.
        unicode: String,
        /// The domain as it is registered and sent (Punycode).
        ascii: String,
    },
    /// A label of the host mixes scripts (Latin and Cyrillic letters, say), a common way to
    /// imitate a domain (Unicode TS #39's mixed-script test).
    MixedScript {
        /// The label, in Unicode.
        label: String,
    },
    /// The URL carries a user name or password (`https://user:pass@host`), which can disguise
    /// the real host.
    Credentials,
    /// The host is an IP address, not a domain name.
    IpAddress,
}

/// How a browser reads a URL differently from its text. Each is a validation error of the
/// WHATWG URL Standard that browsers nevertheless accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rewrite {
    /// Spaces or control characters at either end, or tabs and line breaks inside: browsers
    /// drop them.
    HiddenCharacters,
    /// A backslash before the query, which browsers read as `/` in an `http(s)` URL
    /// (`https://evil.example\@example.com/` opens `evil.example`).
    Backslash,
    /// Not exactly `//` after the scheme (`https:example.com`, `https:///example.com`):
    /// browsers open the host anyway.
    Slashes,
    /// The user, host or port is written in a form the browser rewrites: percent-encoded
    /// (`%65xample.com`), a numeric IPv4 form (`0x7f.1`), full-width or other characters that
    /// IDNA maps (`ｅｘａｍｐｌｅ.com`).
    Authority,
}

impl fmt::Display for Rewrite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rewrite::HiddenCharacters => "it contains invisible characters that browsers drop",
            Rewrite::Backslash => "it contains a backslash (\\), which browsers read as \"/\"",
            Rewrite::Slashes => "it is not written with \"//\" after the scheme",
            Rewrite::Authority => "its domain is written in a disguised form",
        })
    }
}

impl fmt::Display for UrlWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlWarning::NotHttps => f.write_str("not encrypted (http, not https)"),
            UrlWarning::NotAsWritten { rewrite, opens } => {
                write!(
                    f,
                    "the URL is not what it seems: {rewrite}; it opens {opens}"
                )
            }
            UrlWarning::InternationalDomain { unicode, ascii } => {
                write!(
                    f,
                    "the domain has letters outside ASCII: it reads as {unicode} (sent as {ascii}); make sure it is the one you expect"
                )
            }
            UrlWarning::MixedScript { label } => {
                write!(
                    f,
                    "the domain mixes alphabets in \"{label}\" (it may imitate another)"
                )
            }
            UrlWarning::Credentials => f.write_str("the URL contains a user name or password"),
            UrlWarning::IpAddress => f.write_str("the host is an IP address, not a domain name"),
        }
    }
}

/// A URL request that cannot be shown; answer it with a JSON-RPC error (`-32602`, this text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot show this URL elicitation: `{pointer}`: {message}")]
pub struct UrlError {
    /// Where, as a JSON Pointer into what was read.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

fn url_error(pointer: &str, message: impl Into<String>) -> UrlError {
    UrlError {
        pointer: pointer.to_owned(),
        message: message.into(),
    }
}

/// The user's explicit consent to open a URL. Make one only where the user answered "open"
/// after seeing the whole URL and its warnings.
#[derive(Debug)]
pub struct Consent(());

impl Consent {
    /// The user consented (a click, a key press): the code that asked says so.
    pub fn given_by_user() -> Consent {
        Consent(())
    }
}

/// A URL the user consented to open: the only way to an openable [`url::Url`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsentedUrl {
    request: UrlRequest,
}

impl ConsentedUrl {
    /// The URL to open.
    pub fn url(&self) -> &url::Url {
        &self.request.url
    }

    /// The request consented to.
    pub fn request(&self) -> &UrlRequest {
        &self.request
    }

    /// Opens the URL with `open` (a browser launcher; this crate never opens anything), then
    /// gives the `accept` reply. If opening fails, the error comes back and nothing is
    /// replied: the client may retry or decline.
    pub fn open_with<E>(
        self,
        open: impl FnOnce(&url::Url) -> Result<(), E>,
    ) -> Result<FormReply, E> {
        open(&self.request.url)?;
        Ok(FormReply::Accept(Map::new()))
    }
}

impl UrlRequest {
    /// Reads the params of a URL-mode request (`mode: "url"`): any revision's generated type,
    /// rmcp's, or raw JSON. Refuses a URL that is not `http` or `https`.
    pub fn from_params(params: &impl Serialize) -> Result<UrlRequest, UrlError> {
        let value = crate::runtime::json_value(params).map_err(|e| url_error("", e.to_string()))?;
        let Value::Object(p) = value else {
            return Err(url_error("", "the params are not an object"));
        };
        UrlRequest::from_object(&p, "")
    }

    fn from_object(p: &Map<String, Value>, at: &str) -> Result<UrlRequest, UrlError> {
        match p.get("mode") {
            Some(Value::String(m)) if m == "url" => {}
            Some(other) => {
                return Err(url_error(
                    &format!("{at}/mode"),
                    format!("expected \"url\", found {other}"),
                ));
            }
            None => {
                return Err(url_error(
                    &format!("{at}/mode"),
                    "missing: not a URL-mode request",
                ));
            }
        }
        let string = |key: &str| -> Result<Option<String>, UrlError> {
            match p.get(key) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(other) => Err(url_error(
                    &format!("{at}/{key}"),
                    format!("expected a string, found {other}"),
                )),
            }
        };
        let text = string("url")?.ok_or_else(|| url_error(&format!("{at}/url"), "missing"))?;
        let message = string("message")?.unwrap_or_default();
        let elicitation_id = string("elicitationId")?;
        UrlRequest::new(elicitation_id, message, text)
            .map_err(|e| url_error(&format!("{at}/url"), e))
    }

    /// The URL elicitations a `-32042` `URLElicitationRequired` error asks for: from the
    /// error object (`{code, message, data}`) or the whole error response.
    pub fn from_error(error: &impl Serialize) -> Result<Vec<UrlRequest>, UrlError> {
        let value = crate::runtime::json_value(error).map_err(|e| url_error("", e.to_string()))?;
        let (error, at) = match value.get("error") {
            Some(inner) => (inner, "/error"),
            None => (&value, ""),
        };
        if error.get("code").and_then(Value::as_i64)
            != Some(crate::elicit::URL_ELICITATION_REQUIRED)
        {
            return Err(url_error(
                &format!("{at}/code"),
                format!(
                    "not a URLElicitationRequired error (code {})",
                    crate::elicit::URL_ELICITATION_REQUIRED
                ),
            ));
        }
        let Some(Value::Array(list)) = error.pointer("/data/elicitations") else {
            return Err(url_error(&format!("{at}/data/elicitations"), "missing"));
        };
        list.iter()
            .enumerate()
            .map(|(i, e)| {
                let at = format!("{at}/data/elicitations/{i}");
                match e {
                    Value::Object(p) => UrlRequest::from_object(p, &at),
                    other => Err(url_error(&at, format!("expected an object, found {other}"))),
                }
            })
            .collect()
    }

    fn new(
        elicitation_id: Option<String>,
        message: String,
        written: String,
    ) -> Result<UrlRequest, String> {
        let url = url::Url::parse(&written).map_err(|e| format!("not a URL ({e})"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!(
                "`{}:` URLs are not opened; only http and https are",
                url.scheme()
            ));
        }
        let host = url.host().ok_or("the URL has no host")?;
        let ascii_host = url.host_str().unwrap_or_default().to_owned();
        let is_ip = matches!(host, url::Host::Ipv4(_) | url::Host::Ipv6(_));
        let host_unicode = if is_ip {
            ascii_host.clone()
        } else {
            idna::domain_to_unicode(&ascii_host).0
        };
        let loopback = match host {
            url::Host::Ipv4(ip) => IpAddr::V4(ip).is_loopback(),
            url::Host::Ipv6(ip) => IpAddr::V6(ip).is_loopback(),
            url::Host::Domain(d) => d == "localhost" || d.ends_with(".localhost"),
        };

        let mut warnings = Vec::new();
        for rewrite in rewrites(&written, &url, &host_unicode) {
            warnings.push(UrlWarning::NotAsWritten {
                rewrite,
                opens: host_unicode.clone(),
            });
        }
        if url.scheme() == "http" && !loopback {
            warnings.push(UrlWarning::NotHttps);
        }
        if !is_ip && ascii_host.split('.').any(|l| l.starts_with("xn--")) {
            warnings.push(UrlWarning::InternationalDomain {
                unicode: host_unicode.clone(),
                ascii: ascii_host.clone(),
            });
        }
        if !is_ip {
            for label in host_unicode.split('.') {
                if !label.is_single_script() {
                    warnings.push(UrlWarning::MixedScript {
                        label: label.to_owned(),
                    });
                }
            }
        }
        if !url.username().is_empty() || url.password().is_some() {
            warnings.push(UrlWarning::Credentials);
        }
        if is_ip && !loopback {
            warnings.push(UrlWarning::IpAddress);
        }
        Ok(UrlRequest {
            elicitation_id,
            message,
            written,
            url,
            host_unicode,
            warnings,
        })
    }

    /// The server's `elicitationId` (2025-11-25; later revisions have none).
    pub fn elicitation_id(&self) -> Option<&str> {
        self.elicitation_id.as_deref()
    }

    /// The message to show. Show it as plain text: the spec says no URL in it may be
    /// rendered as a link.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The whole URL as it will open, to show before asking for consent: the WHATWG
    /// serialization of what the server wrote (`https://Example.COM` shows as
    /// `https://example.com/`), the very text [`ConsentedUrl::url`] hands to the browser.
    pub fn shown_url(&self) -> &str {
        self.url.as_str()
    }

    /// The URL exactly as the server wrote it. Where it reads differently from
    /// [`shown_url`](Self::shown_url), [`warnings`](Self::warnings) says how
    /// ([`UrlWarning::NotAsWritten`]); show it beside the URL that opens, never instead.
    pub fn written(&self) -> &str {
        &self.written
    }

    /// Whether the text as written reads as the URL that opens: no
    /// [`UrlWarning::NotAsWritten`]. Normalisation a reader does not notice (case, a final
    /// `/`, a default port, percent-encoding in the path) keeps it `true`; show
    /// [`written`](Self::written) beside the URL when it is `false`.
    pub fn is_as_written(&self) -> bool {
        !self
            .warnings
            .iter()
            .any(|w| matches!(w, UrlWarning::NotAsWritten { .. }))
    }

    /// [`shown_url`](Self::shown_url) split around the host that opens, for highlighting.
    pub fn parts(&self) -> UrlParts<'_> {
        use url::Position::{AfterHost, BeforeHost};
        UrlParts {
            before_host: &self.url[..BeforeHost],
            host: &self.url[BeforeHost..AfterHost],
            after_host: &self.url[AfterHost..],
        }
    }

    /// The host that opens as a person reads it: an international domain in Unicode
    /// (Punycode decoded); otherwise the same as `parts().host`.
    pub fn host_unicode(&self) -> &str {
        &self.host_unicode
    }

    /// Everything to warn the user of before consenting; empty for an https URL to an
    /// ordinary domain.
    pub fn warnings(&self) -> &[UrlWarning] {
        &self.warnings
    }

    /// The user consented: the URL may now be opened ([`ConsentedUrl::open_with`]).
    pub fn consent(self, _consent: Consent) -> ConsentedUrl {
        ConsentedUrl { request: self }
    }

    /// The user declined: `{"action": "decline"}`.
    pub fn decline(&self) -> FormReply {
        FormReply::Decline
    }

    /// The user dismissed the request: `{"action": "cancel"}`.
    pub fn cancel(&self) -> FormReply {
        FormReply::Cancel
    }
}

/// Where the text as written reads differently from the WHATWG parse `url` of it. The text
/// is never scanned for a host: it is compared with the authority the parse rebuilt.
fn rewrites(written: &str, url: &url::Url, host_unicode: &str) -> Vec<Rewrite> {
    let mut out = Vec::new();
    // The URL Standard's first steps: C0 controls and spaces at either end, and every ASCII
    // tab or newline, are removed before anything is read.
    let trimmed = written.trim_matches(|c: char| c <= ' ');
    let text: String = trimmed
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    if text.len() != written.len() {
        out.push(Rewrite::HiddenCharacters);
    }
    // `http`/`https` are special schemes: `\` is a path separator up to the query.
    let before_query = text
        .find(['?', '#'])
        .map_or(text.as_str(), |end| &text[..end]);
    if before_query.contains('\\') {
        out.push(Rewrite::Backslash);
    }
    // The scheme as parsed is ASCII and the text starts with it (case aside): what follows
    // its colon should be exactly two slashes, then the authority.
    let Some(after_scheme) = text.get(url.scheme().len() + 1..) else {
        return out;
    };
    let slashes = after_scheme
        .bytes()
        .take_while(|b| matches!(b, b'/' | b'\\'))
        .count();
    if slashes != 2 {
        out.push(Rewrite::Slashes);
    }
    // The authority as the parse rebuilds it, host in either form, with the port as the
    // parse kept it or as a default written out (`:443`) or left empty (`:`); the text should
    // start with one of them, followed by the end of the authority.
    let authority = &after_scheme[slashes..];
    let userinfo = match (url.username(), url.password()) {
        ("", None) => String::new(),
        (user, None) => format!("{user}@"),
        (user, Some(password)) => format!("{user}:{password}@"),
    };
    let ports: Vec<String> = match (url.port(), url.port_or_known_default()) {
        (Some(port), _) => vec![format!(":{port}")],
        (None, Some(default)) => vec![String::new(), ":".into(), format!(":{default}")],
        (None, None) => vec![String::new(), ":".into()],
    };
    let (userinfo, lower) = (userinfo.as_str(), authority.to_lowercase());
    let written_as_parsed = [url.host_str().unwrap_or_default(), host_unicode]
        .iter()
        .flat_map(|host| {
            ports
                .iter()
                .map(move |port| format!("{userinfo}{host}{port}"))
        })
        .any(|candidate| {
            lower
                .strip_prefix(&candidate.to_lowercase())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '\\', '?', '#']))
        });
    if !written_as_parsed {
        out.push(Rewrite::Authority);
    }
    out
}

/// The URL elicitations a client waits on, matched with `notifications/elicitation/complete`
/// by `elicitationId` (2025-11-25): each completes once; unknown and already completed ids
/// are ignored, as the spec says.
#[derive(Debug, Clone, Default)]
pub struct PendingUrls {
    pending: BTreeSet<String>,
}

impl PendingUrls {
    /// Nothing pending.
    pub fn new() -> PendingUrls {
        PendingUrls::default()
    }

    /// Waits on `request` (one without an `elicitationId` cannot be completed by
    /// notification, and is not tracked).
    pub fn track(&mut self, request: &UrlRequest) {
        if let Some(id) = request.elicitation_id() {
            self.pending.insert(id.to_owned());
        }
    }

    /// Whether `elicitation_id` is awaited.
    pub fn is_pending(&self, elicitation_id: &str) -> bool {
        self.pending.contains(elicitation_id)
    }

    /// Reads a `notifications/elicitation/complete` notification (typed, or raw JSON with or
    /// without its envelope, or its params): the id it completes, if it was pending; `None`
    /// for anything else.
    pub fn complete(&mut self, notification: &impl Serialize) -> Option<String> {
        let value = crate::runtime::json_value(notification).ok()?;
        let params = value.get("params").unwrap_or(&value);
        if let Some(method) = value.get("method")
            && method != crate::elicit::ELICITATION_COMPLETE_METHOD
        {
            return None;
        }
        let id = params.get("elicitationId")?.as_str()?;
        self.pending.take(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(url: &str) -> Result<UrlRequest, UrlError> {
        UrlRequest::from_params(&serde_json::json!({
            "mode": "url", "elicitationId": "e1", "url": url, "message": "m"
        }))
    }

    /// Each case: the URL as written, the URL a browser opens and the host it goes to (the
    /// URL Standard's parser, as in the web-platform-tests' `urltestdata.json`), and the
    /// rewrites of the text to warn of.
    #[test]
    fn the_host_shown_is_the_host_that_opens() {
        use Rewrite::*;
        let cases: &[(&str, &str, &str, &[Rewrite])] = &[
            (
                "https://example.com",
                "https://example.com/",
                "example.com",
                &[],
            ),
            (
                "HTTPS://Example.COM/a?b#c",
                "https://example.com/a?b#c",
                "example.com",
                &[],
            ),
            (
                "https://example.com:443/",
                "https://example.com/",
                "example.com",
                &[],
            ),
            (
                "https://example.com:/",
                "https://example.com/",
                "example.com",
                &[],
            ),
            (
                "https://example.com:8443/a",
                "https://example.com:8443/a",
                "example.com",
                &[],
            ),
            (
                "https://user:pw@bank.example/x",
                "https://user:pw@bank.example/x",
                "bank.example",
                &[],
            ),
            ("http://[::1]:9/p", "http://[::1]:9/p", "[::1]", &[]),
            (
                "https://example.com/a b",
                "https://example.com/a%20b",
                "example.com",
                &[],
            ),
            // A backslash is a slash to a browser: the host is what precedes it.
            (
                "https://evil.example\\@example.com/login",
                "https://evil.example/@example.com/login",
                "evil.example",
                &[Backslash],
            ),
            (
                "https://example.com\\@evil.example/",
                "https://example.com/@evil.example/",
                "example.com",
                &[Backslash],
            ),
            (
                "https:\\\\evil.example/",
                "https://evil.example/",
                "evil.example",
                &[Backslash],
            ),
            // After the query, a backslash is text.
            (
                "https://example.com/?next=a\\b",
                "https://example.com/?next=a\\b",
                "example.com",
                &[],
            ),
            // Slashes the eye expects but the parser does not need.
            (
                "https:example.com/x",
                "https://example.com/x",
                "example.com",
                &[Slashes],
            ),
            (
                "https:/example.com",
                "https://example.com/",
                "example.com",
                &[Slashes],
            ),
            (
                "https:////example.com",
                "https://example.com/",
                "example.com",
                &[Slashes],
            ),
            // What browsers drop before reading.
            (
                "  https://example.com/\n",
                "https://example.com/",
                "example.com",
                &[HiddenCharacters],
            ),
            (
                "https://exa\tmple.com/",
                "https://example.com/",
                "example.com",
                &[HiddenCharacters],
            ),
            // Hosts written in a form the browser rewrites.
            (
                "https://%65xample.com/",
                "https://example.com/",
                "example.com",
                &[Authority],
            ),
            (
                "http://0x7f.1/",
                "http://127.0.0.1/",
                "127.0.0.1",
                &[Authority],
            ),
            (
                "http://2130706433/",
                "http://127.0.0.1/",
                "127.0.0.1",
                &[Authority],
            ),
            (
                "https://ｅｘａｍｐｌｅ.com/",
                "https://example.com/",
                "example.com",
                &[Authority],
            ),
            (
                "https://example。com/",
                "https://example.com/",
                "example.com",
                &[Authority],
            ),
            (
                "https://a@b@evil.example/",
                "https://a%40b@evil.example/",
                "evil.example",
                &[Authority],
            ),
            // International domains: either spelling is as written.
            (
                "https://Straße.example/",
                "https://xn--strae-oqa.example/",
                "xn--strae-oqa.example",
                &[],
            ),
            (
                "https://xn--strae-oqa.example/",
                "https://xn--strae-oqa.example/",
                "xn--strae-oqa.example",
                &[],
            ),
            (
                "https://ПРИМЕР.рф/",
                "https://xn--e1afmkfd.xn--p1ai/",
                "xn--e1afmkfd.xn--p1ai",
                &[],
            ),
        ];
        for &(written, shown, host, rewrites) in cases {
            let r = read(written).unwrap();
            assert_eq!(
                (r.shown_url(), r.parts().host),
                (shown, host),
                "{written:?}"
            );
            let p = r.parts();
            assert_eq!(
                [p.before_host, p.host, p.after_host].concat(),
                shown,
                "{written:?}"
            );
            assert_eq!(r.written(), written);
            let found: Vec<Rewrite> = r
                .warnings()
                .iter()
                .filter_map(|w| match w {
                    UrlWarning::NotAsWritten { rewrite, opens } => {
                        assert_eq!(opens, r.host_unicode(), "{written:?}");
                        Some(*rewrite)
                    }
                    _ => None,
                })
                .collect();
            assert_eq!(found, rewrites, "{written:?}");
            assert_eq!(r.is_as_written(), rewrites.is_empty(), "{written:?}");
            // What is shown is what opens.
            let consented = r.consent(Consent::given_by_user());
            assert_eq!(consented.url().as_str(), shown);
            assert_eq!(consented.url().host_str(), Some(host));
        }
    }

    #[test]
    fn each_warning_is_given_when_it_applies_and_only_then() {
        let warnings = |url: &str| read(url).unwrap().warnings().to_vec();
        assert_eq!(warnings("https://pay.example.com/checkout"), []);
        assert_eq!(warnings("http://localhost:3000/cb"), []);
        assert_eq!(warnings("http://127.0.0.1:3000/cb"), []);
        assert_eq!(warnings("http://[::1]:3000/cb"), []);
        assert_eq!(warnings("http://pay.example.com/"), [UrlWarning::NotHttps]);
        let apple = [
            UrlWarning::InternationalDomain {
                unicode: "аpple.com".into(),
                ascii: "xn--pple-43d.com".into(),
            },
            UrlWarning::MixedScript {
                label: "аpple".into(),
            },
        ];
        assert_eq!(warnings("https://xn--pple-43d.com/"), apple);
        // Written in Unicode, it is the same host and the same warnings.
        assert_eq!(warnings("https://аpple.com/"), apple);
        // One script alone is not mixed, but still an international domain.
        let russian = [UrlWarning::InternationalDomain {
            unicode: "пример.рф".into(),
            ascii: "xn--e1afmkfd.xn--p1ai".into(),
        }];
        assert_eq!(warnings("https://пример.рф/"), russian);
        assert_eq!(warnings("https://xn--e1afmkfd.xn--p1ai/"), russian);
        // Japanese mixes Han, Hiragana and Katakana as one writing system (UTS #39).
        let japanese = warnings("https://日本語ドメイン.jp/");
        assert!(
            !japanese
                .iter()
                .any(|w| matches!(w, UrlWarning::MixedScript { .. })),
            "{japanese:?}"
        );
        // Greek omicron among Latin letters.
        assert!(
            warnings("https://gοοgle.com/").contains(&UrlWarning::MixedScript {
                label: "gοοgle".into()
            })
        );
        assert_eq!(
            warnings("https://user:secret@bank.example/"),
            [UrlWarning::Credentials]
        );
        assert_eq!(
            warnings("https://203.0.113.7/login"),
            [UrlWarning::IpAddress]
        );
        assert_eq!(
            warnings("https://[2001:db8::1]/login"),
            [UrlWarning::IpAddress]
        );
        assert_eq!(
            warnings("http://203.0.113.7/login"),
            [UrlWarning::NotHttps, UrlWarning::IpAddress]
        );
        assert_eq!(
            warnings("https://evil.example\\@example.com/login"),
            [UrlWarning::NotAsWritten {
                rewrite: Rewrite::Backslash,
                opens: "evil.example".into()
            }]
        );
        assert_eq!(
            warnings("https://evil.example\\@example.com/login")[0].to_string(),
            "the URL is not what it seems: it contains a backslash (\\), which browsers read \
             as \"/\"; it opens evil.example"
        );
    }

    #[test]
    fn only_web_urls_are_accepted() {
        for url in [
            "javascript:alert(1)",
            "data:text/html,<b>x</b>",
            "file:///etc/passwd",
            "ftp://example.com/",
            "not a url",
        ] {
            let e = read(url).unwrap_err();
            assert_eq!(e.pointer, "/url", "{url}");
        }
        let e = UrlRequest::from_params(&serde_json::json!({"mode": "form", "message": "m"}))
            .unwrap_err();
        assert_eq!(e.pointer, "/mode");
    }

    #[test]
    fn completion_matches_pending_ids_once() {
        let mut pending = PendingUrls::new();
        pending.track(&read("https://example.com/").unwrap());
        let note = |id: &str| {
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
                "params": {"elicitationId": id}})
        };
        assert_eq!(pending.complete(&note("other")), None);
        assert_eq!(pending.complete(&note("e1")), Some("e1".into()));
        assert_eq!(pending.complete(&note("e1")), None, "completed already");
        pending.track(&read("https://example.com/").unwrap());
        let wrong_method = serde_json::json!({"method": "notifications/progress", "params": {"elicitationId": "e1"}});
        assert_eq!(pending.complete(&wrong_method), None);
        assert_eq!(
            pending.complete(&serde_json::json!({"elicitationId": "e1"})),
            Some("e1".into())
        );
    }

    #[test]
    fn a_url_elicitation_required_error_lists_its_requests() {
        let error = crate::elicit::url_elicitation_required_error(
            "authorize first",
            &[
                crate::elicit::UrlElicitation::new("a", "https://auth.example/a", "Sign in")
                    .unwrap(),
            ],
            crate::ProtocolVersion::V2025_11_25,
        )
        .unwrap();
        let response = serde_json::json!({"jsonrpc": "2.0", "id": 4, "error": error});
        for read in [&error, &response] {
            let requests = UrlRequest::from_error(read).unwrap();
            assert_eq!(requests.len(), 1);
            assert_eq!(requests[0].elicitation_id(), Some("a"));
            assert_eq!(requests[0].parts().host, "auth.example");
        }
        let other = serde_json::json!({"code": -32602, "message": "x"});
        assert_eq!(UrlRequest::from_error(&other).unwrap_err().pointer, "/code");
    }
}
