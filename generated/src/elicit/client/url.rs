//! URL-mode elicitation on the client: what to show, the warnings to give, and opening the
//! URL only after the user consented.
//!
//! The spec's rules for a client receiving a URL-mode request: never pre-fetch the URL or
//! open it without the user's explicit consent; show the whole URL before consent, with its
//! domain highlighted; warn about suspicious URLs (Punycode hosts, for instance); let the
//! user decline or cancel; render no other URL (in the message, say) as a link.
//! [`UrlRequest`] gives what to show ([`UrlRequest::parts`], [`UrlRequest::warnings`]) but
//! no openable URL: that takes a [`Consent`], which only the code that asked the user makes.

use std::collections::BTreeSet;
use std::fmt;
use std::net::IpAddr;

use serde::Serialize;
use serde_json::{Map, Value};

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
/// // Only after the user said yes is there a URL to open.
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRequest {
    elicitation_id: Option<String>,
    message: String,
    text: String,
    url: url::Url,
    host_span: (usize, usize),
    host_unicode: String,
    warnings: Vec<UrlWarning>,
}

/// The URL as text, split so that a client can highlight the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UrlParts<'a> {
    /// The scheme and anything before the host (`https://`, `https://user@`).
    pub before_host: &'a str,
    /// The host, as the server wrote it.
    pub host: &'a str,
    /// Port, path, query and fragment.
    pub after_host: &'a str,
}

/// Something about a URL the user should be warned of before consenting.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlWarning {
    /// Plain `http` to a host that is not this machine: what the user types there can be read
    /// or changed on the way.
    NotHttps,
    /// The host has Punycode labels (`xn--…`): it may imitate another domain. `unicode` is how
    /// it reads.
    Punycode {
        /// The host in Unicode.
        unicode: String,
    },
    /// A label of the host mixes scripts (Latin and Cyrillic letters, say), a common way to
    /// imitate a domain.
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

impl fmt::Display for UrlWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlWarning::NotHttps => f.write_str("not encrypted (http, not https)"),
            UrlWarning::Punycode { unicode } => {
                write!(f, "the domain is encoded (Punycode); it reads as {unicode}")
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
        text: String,
    ) -> Result<UrlRequest, String> {
        let url = url::Url::parse(&text).map_err(|e| format!("not a URL ({e})"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!(
                "`{}:` URLs are not opened; only http and https are",
                url.scheme()
            ));
        }
        let host = url.host().ok_or("the URL has no host")?;
        let ascii_host = url.host_str().unwrap_or_default().to_owned();
        let host_span = host_span(&text).ok_or("the URL has no host")?;
        let (host_unicode, _) = idna::domain_to_unicode(&ascii_host);
        let mut warnings = Vec::new();
        let is_ip = matches!(host, url::Host::Ipv4(_) | url::Host::Ipv6(_));
        let loopback = match host {
            url::Host::Ipv4(ip) => IpAddr::V4(ip).is_loopback(),
            url::Host::Ipv6(ip) => IpAddr::V6(ip).is_loopback(),
            url::Host::Domain(d) => d == "localhost" || d.ends_with(".localhost"),
        };
        if url.scheme() == "http" && !loopback {
            warnings.push(UrlWarning::NotHttps);
        }
        if !is_ip && ascii_host.split('.').any(|l| l.starts_with("xn--")) {
            warnings.push(UrlWarning::Punycode {
                unicode: host_unicode.clone(),
            });
        }
        if !is_ip {
            for label in host_unicode.split('.') {
                if mixes_scripts(label) {
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
            text,
            url,
            host_span,
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

    /// The whole URL as the server wrote it, to show before asking for consent.
    pub fn shown_url(&self) -> &str {
        &self.text
    }

    /// The URL split around its host, for highlighting.
    pub fn parts(&self) -> UrlParts<'_> {
        let (start, end) = self.host_span;
        UrlParts {
            before_host: &self.text[..start],
            host: &self.text[start..end],
            after_host: &self.text[end..],
        }
    }

    /// The host in Unicode (Punycode decoded), as a user reads it.
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

/// Byte range of the host in a URL as written (`scheme://[userinfo@]host[:port]…`).
fn host_span(text: &str) -> Option<(usize, usize)> {
    let after_scheme = text.find("://")? + 3;
    let rest = &text[after_scheme..];
    let authority_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_len];
    let host_start = authority.rfind('@').map_or(0, |i| i + 1);
    let host_and_port = &authority[host_start..];
    let host_len = if host_and_port.starts_with('[') {
        host_and_port
            .find(']')
            .map_or(host_and_port.len(), |i| i + 1)
    } else {
        host_and_port.find(':').unwrap_or(host_and_port.len())
    };
    let start = after_scheme + host_start;
    Some((start, start + host_len))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Other(u32),
}

fn script(c: char) -> Option<Script> {
    let u = c as u32;
    if !c.is_alphabetic() {
        return None;
    }
    Some(match u {
        0x41..=0x5A | 0x61..=0x7A | 0xC0..=0x24F | 0x1E00..=0x1EFF => Script::Latin,
        0x370..=0x3FF | 0x1F00..=0x1FFF => Script::Greek,
        0x400..=0x52F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Script::Cyrillic,
        // Other scripts by Unicode block (256 code points).
        _ => Script::Other(u >> 8),
    })
}

/// Whether a label mixes letters of several scripts.
fn mixes_scripts(label: &str) -> bool {
    label
        .chars()
        .filter_map(script)
        .collect::<BTreeSet<_>>()
        .len()
        > 1
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

    #[test]
    fn the_host_is_split_out_as_written() {
        for (url, parts) in [
            ("https://example.com", ("https://", "example.com", "")),
            (
                "https://example.com:8443/a?b#c",
                ("https://", "example.com", ":8443/a?b#c"),
            ),
            (
                "https://user:pw@bank.example/x",
                ("https://user:pw@", "bank.example", "/x"),
            ),
            ("http://[::1]:9/p", ("http://", "[::1]", ":9/p")),
            (
                "https://Straße.example/",
                ("https://", "Straße.example", "/"),
            ),
        ] {
            let r = read(url).unwrap();
            let p = r.parts();
            assert_eq!((p.before_host, p.host, p.after_host), parts, "{url}");
        }
    }

    #[test]
    fn each_warning_is_given_when_it_applies_and_only_then() {
        let warnings = |url: &str| read(url).unwrap().warnings().to_vec();
        assert_eq!(warnings("https://pay.example.com/checkout"), []);
        assert_eq!(warnings("http://localhost:3000/cb"), []);
        assert_eq!(warnings("http://127.0.0.1:3000/cb"), []);
        assert_eq!(warnings("http://pay.example.com/"), [UrlWarning::NotHttps]);
        assert_eq!(
            warnings("https://xn--pple-43d.com/"),
            [
                UrlWarning::Punycode {
                    unicode: "аpple.com".into()
                },
                UrlWarning::MixedScript {
                    label: "аpple".into()
                }
            ]
        );
        // Written in Unicode, it is the same host.
        assert_eq!(warnings("https://аpple.com/").len(), 2);
        // One script alone is not suspicious in itself, but still Punycode on the wire.
        assert_eq!(
            warnings("https://пример.рф/"),
            [UrlWarning::Punycode {
                unicode: "пример.рф".into()
            }]
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
            warnings("http://203.0.113.7/login"),
            [UrlWarning::NotHttps, UrlWarning::IpAddress]
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
