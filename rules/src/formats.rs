//! The string formats of the spec's `StringSchema` (`email`, `uri`, `date`, `date-time`), and
//! `idn-email`, which a received form may use, each by the RFC that JSON Schema names for it:
//! [`Format`] names them, one function per format checks a value.
//!
//! The one copy of these rules: `#[derive(Elicit)]` checks a field's `default` with them at
//! compile time, and `mcp_typed::elicit` checks answers with them at run time. `is_uri` needs
//! the feature `uri` (the `fluent-uri` crate), `is_idn_email` the feature `idn-email` (the
//! `idna` crate); the others use `std` only.

use std::fmt;

/// A string format: the four the spec's `StringSchema` allows ([`Format::ALL`]), and
/// `idn-email`, which a client reads in a received form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `email`
    Email,
    /// `uri` (RFC 3986 URI, with a scheme)
    Uri,
    /// `date` (RFC 3339 full-date)
    Date,
    /// `date-time` (RFC 3339 date-time)
    DateTime,
    /// `idn-email` (RFC 6531 mailbox: `email` that may hold UTF-8). Not in the spec's
    /// `StringSchema`: a client reads it in a received form and checks answers with it (be
    /// lenient in what you accept), but the derive refuses it and `FormSchema::check` (in
    /// `mcp_typed::elicit`) refuses to send it (be strict in what you send).
    IdnEmail,
}

impl Format {
    /// The formats the spec's `StringSchema` allows, in the order it lists them (not
    /// [`Format::IdnEmail`]).
    pub const ALL: [Format; 4] = [Format::Date, Format::DateTime, Format::Email, Format::Uri];

    /// The name in the schema.
    pub const fn as_str(self) -> &'static str {
        match self {
            Format::Email => "email",
            Format::Uri => "uri",
            Format::Date => "date",
            Format::DateTime => "date-time",
            Format::IdnEmail => "idn-email",
        }
    }

    /// The format with this name: one of [`Format::ALL`], or `idn-email`.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .chain([Format::IdnEmail])
            .find(|f| f.as_str() == name)
    }

    /// Whether the spec's `StringSchema` allows it (all but [`Format::IdnEmail`]).
    pub const fn in_spec(self) -> bool {
        !matches!(self, Format::IdnEmail)
    }

    /// The format in words, as a person is asked for it: `a date as year-month-day`.
    pub fn describe(self) -> &'static str {
        match self {
            Format::Date => "a date as year-month-day",
            Format::DateTime => "a date and time with its time zone",
            Format::Email => "an email address",
            Format::IdnEmail => "an email address (letters of any script allowed)",
            Format::Uri => "a full address with its scheme",
        }
    }

    /// A value in this format, to show as an example: `2026-03-14`, `2026-03-14T09:30:00Z`,
    /// `ada@example.com` (`email` and `idn-email`), `https://example.com/`.
    pub fn example(self) -> &'static str {
        match self {
            Format::Date => "2026-03-14",
            Format::DateTime => "2026-03-14T09:30:00Z",
            Format::Email | Format::IdnEmail => "ada@example.com",
            Format::Uri => "https://example.com/",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An RFC 5321 mailbox, as the `email` format of JSON Schema means it: section 4.1.2's
/// `Mailbox = Local-part "@" ( Domain / address-literal )`, ASCII only, within the sizes of
/// section 4.5.3.1 (local part at most 64 octets, domain at most 255, a label at most 63 as
/// RFC 1035 section 2.3.4 says). No display name (`Ada <ada@example.com>` is RFC 5322's
/// `name-addr`, not a mailbox), no comments, no folding white space.
pub fn is_email(s: &str) -> bool {
    is_mailbox(s, false)
}

/// An RFC 6531 mailbox, as the `idn-email` format of JSON Schema means it: the grammar of
/// [`is_email`] where section 3.3 also allows UTF-8 beyond ASCII in `atext` and `qtextSMTP`,
/// and a domain label may be a U-label (RFC 5890 section 2.3.2.1; checked with the `idna`
/// crate: it converts to an A-label of at most 63 octets and is already in the form that
/// A-label converts back to: lower case, NFC). Needs the feature `idn-email`.
#[cfg(feature = "idn-email")]
pub fn is_idn_email(s: &str) -> bool {
    is_mailbox(s, true)
}

/// `Mailbox = Local-part "@" ( Domain / address-literal )` (RFC 5321 section 4.1.2); `utf8`:
/// with RFC 6531 section 3.3's additions.
fn is_mailbox(s: &str, utf8: bool) -> bool {
    let b = s.as_bytes();
    let Some(end) = local_part_end(b, utf8) else {
        return false;
    };
    let (local, rest) = b.split_at(end);
    let Some(domain) = rest.strip_prefix(b"@") else {
        return false;
    };
    // Section 4.5.3.1.1: a local part of at most 64 octets; 4.5.3.1.2: a domain name or
    // number of at most 255.
    if local.len() > 64 || domain.len() > 255 {
        return false;
    }
    match domain {
        [b'[', literal @ .., b']'] => is_address_literal(literal),
        _ => is_domain(&s[end + 1..], utf8),
    }
}

/// RFC 5322 `atext` (which RFC 5321 uses): ALPHA / DIGIT / one of ``!#$%&'*+-/=?^_`{|}~``;
/// with `utf8`, also any byte of a UTF-8 sequence beyond ASCII (RFC 6531: `atext =/
/// UTF8-non-ascii`; the input is a `str`, so such bytes always form whole characters).
fn is_atext(c: u8, utf8: bool) -> bool {
    c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&c) || (utf8 && c >= 0x80)
}

/// Where the local part ends (the index of the `@` that must follow it), if `b` starts with
/// one:
///
/// ```text
/// Local-part     = Dot-string / Quoted-string
/// Dot-string     = Atom *("."  Atom)
/// Atom           = 1*atext
/// Quoted-string  = DQUOTE *QcontentSMTP DQUOTE
/// QcontentSMTP   = qtextSMTP / quoted-pairSMTP
/// quoted-pairSMTP  = %d92 %d32-126
/// qtextSMTP      = %d32-33 / %d35-91 / %d93-126
/// ```
fn local_part_end(b: &[u8], utf8: bool) -> Option<usize> {
    if let [b'"', quoted @ ..] = b {
        let mut i = 0;
        loop {
            match *quoted.get(i)? {
                b'"' => return Some(i + 2),
                // quoted-pairSMTP (RFC 6531 leaves it ASCII).
                b'\\' => {
                    if !(32..=126).contains(quoted.get(i + 1)?) {
                        return None;
                    }
                    i += 2;
                }
                // qtextSMTP (`"` and `\` are handled above).
                32..=126 => i += 1,
                // RFC 6531: qtextSMTP =/ UTF8-non-ascii.
                0x80.. if utf8 => i += 1,
                _ => return None,
            }
        }
    }
    let end = b.iter().position(|&c| c == b'@').unwrap_or(b.len());
    b[..end]
        .split(|&c| c == b'.')
        .all(|atom| !atom.is_empty() && atom.iter().all(|&c| is_atext(c, utf8)))
        .then_some(end)
}

/// `Domain = sub-domain *("." sub-domain)` (RFC 5321 section 4.1.2); each label at most 63
/// octets (RFC 1035 section 2.3.4). With `utf8`, a label beyond ASCII must be a U-label
/// (RFC 6531 section 3.3: `sub-domain =/ U-label`).
fn is_domain(d: &str, utf8: bool) -> bool {
    d.split('.').all(|label| {
        if label.is_ascii() {
            label.len() <= 63 && is_sub_domain(label.as_bytes())
        } else {
            // Only `is_idn_email` (feature `idn-email`) asks with `utf8`.
            #[cfg(feature = "idn-email")]
            {
                utf8 && is_u_label(label)
            }
            #[cfg(not(feature = "idn-email"))]
            {
                let _ = utf8;
                false
            }
        }
    })
}

/// `sub-domain = Let-dig [Ldh-str]`, `Let-dig = ALPHA / DIGIT`,
/// `Ldh-str = *( ALPHA / DIGIT / "-" ) Let-dig`: letters, digits and hyphens, starting and
/// ending with a letter or digit.
fn is_sub_domain(label: &[u8]) -> bool {
    matches!(label, [first, ..] if first.is_ascii_alphanumeric()) && is_ldh_str_or_empty(label)
}

/// `Ldh-str` (or nothing): letters, digits and hyphens, not ending with a hyphen.
fn is_ldh_str_or_empty(s: &[u8]) -> bool {
    s.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-') && s.last() != Some(&b'-')
}

/// A U-label (RFC 5890 section 2.3.2.1), as UTS #46 (the `idna` crate, with the STD3 rules,
/// hyphen checks and DNS lengths) sees it: it converts to an A-label of at most 63 octets
/// and converts back unchanged (no mapping: lower case, NFC). UTS #46 is wider than IDNA2008
/// in one way: it keeps some code points RFC 5892 disallows, such as emoji (`😀.example`).
#[cfg(feature = "idn-email")]
fn is_u_label(label: &str) -> bool {
    match idna::domain_to_ascii_strict(label) {
        Ok(a_label) => {
            a_label.len() <= 63
                && !a_label.contains('.')
                && idna::domain_to_unicode(&a_label).0 == label
        }
        Err(_) => false,
    }
}

/// The inside of `address-literal = "[" ( IPv4-address-literal / IPv6-address-literal /
/// General-address-literal ) "]"` (RFC 5321 section 4.1.3):
///
/// ```text
/// IPv6-address-literal  = "IPv6:" IPv6-addr
/// General-address-literal  = Standardized-tag ":" 1*dcontent
/// Standardized-tag  = Ldh-str
/// dcontent       = %d33-90 / %d94-126
/// ```
///
/// The tag `IPv6` (ABNF strings ignore case) is the IPv6 literal's, so what follows it must
/// be an `IPv6-addr`; any other tag is taken as written (the RFC asks that it be registered
/// with IANA, which a validator cannot know).
fn is_address_literal(inner: &[u8]) -> bool {
    if is_ipv4_literal(inner) {
        return true;
    }
    let Some(colon) = inner.iter().position(|&c| c == b':') else {
        return false;
    };
    let (tag, content) = (&inner[..colon], &inner[colon + 1..]);
    if tag.eq_ignore_ascii_case(b"IPv6") {
        is_ipv6_addr(content)
    } else {
        !tag.is_empty()
            && is_ldh_str_or_empty(tag)
            && !content.is_empty()
            && content.iter().all(|&c| matches!(c, 33..=90 | 94..=126))
    }
}

/// `IPv4-address-literal = Snum 3("."  Snum)`, `Snum = 1*3DIGIT` of value 0 to 255 (leading
/// zeros allowed, unlike RFC 3986's `dec-octet`).
fn is_ipv4_literal(s: &[u8]) -> bool {
    let mut parts = 0;
    let all = s.split(|&c| c == b'.').all(|snum| {
        parts += 1;
        (1..=3).contains(&snum.len())
            && snum.iter().all(u8::is_ascii_digit)
            && snum.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0')) <= 255
    });
    all && parts == 4
}

/// `IPv6-addr` of RFC 5321 section 4.1.3:
///
/// ```text
/// IPv6-addr      = IPv6-full / IPv6-comp / IPv6v4-full / IPv6v4-comp
/// IPv6-hex       = 1*4HEXDIG
/// IPv6-full      = IPv6-hex 7(":" IPv6-hex)
/// IPv6-comp      = [IPv6-hex *5(":" IPv6-hex)] "::" [IPv6-hex *5(":" IPv6-hex)]
///                ; The "::" represents at least 2 16-bit groups of zeros. No more than 6
///                ; groups in addition to the "::" may be present.
/// IPv6v4-full    = IPv6-hex 5(":" IPv6-hex) ":" IPv4-address-literal
/// IPv6v4-comp    = [IPv6-hex *3(":" IPv6-hex)] "::" [IPv6-hex *3(":" IPv6-hex) ":"]
///                  IPv4-address-literal
///                ; No more than 4 groups in addition to the "::" and IPv4-address-literal.
/// ```
///
/// (`std::net::Ipv6Addr` is not used: it lets `::` stand for one group, and its IPv4 part
/// refuses the leading zeros `Snum` allows.)
fn is_ipv6_addr(s: &[u8]) -> bool {
    // An IPv4 tail: after the last colon, when that part has a dot.
    let last_colon = s.iter().rposition(|&c| c == b':');
    let (groups, full, compressed_max) = match last_colon {
        Some(i) if s[i + 1..].contains(&b'.') => {
            if !is_ipv4_literal(&s[i + 1..]) {
                return false;
            }
            // Keep a "::" right before the IPv4 part whole.
            let head = if i > 0 && s[i - 1] == b':' {
                &s[..=i]
            } else {
                &s[..i]
            };
            (head, 6, 4)
        }
        _ => (s, 8, 6),
    };
    let hex_groups = |part: &[u8]| -> Option<usize> {
        if part.is_empty() {
            return Some(0);
        }
        let mut n = 0;
        for group in part.split(|&c| c == b':') {
            if !(1..=4).contains(&group.len()) || !group.iter().all(u8::is_ascii_hexdigit) {
                return None;
            }
            n += 1;
        }
        Some(n)
    };
    match groups.windows(2).position(|w| w == b"::") {
        None => !groups.is_empty() && hex_groups(groups) == Some(full),
        Some(at) => match (hex_groups(&groups[..at]), hex_groups(&groups[at + 2..])) {
            (Some(left), Some(right)) => left + right <= compressed_max,
            _ => false,
        },
    }
}

/// An RFC 3986 `URI` (section 3): a scheme, then the rest per the RFC's grammar; no relative
/// references, ASCII only (RFC 3987's IRIs are `iri`, not `uri`). `fluent-uri` parses by
/// that grammar: percent escapes need two hex digits, an IP literal is an `IPv6address` or
/// `IPvFuture`, a port is digits. Needs the feature `uri`.
#[cfg(feature = "uri")]
pub fn is_uri(s: &str) -> bool {
    fluent_uri::Uri::parse(s).is_ok()
}

fn digits(s: &[u8]) -> Option<u32> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    s.iter().try_fold(0u32, |acc, d| {
        acc.checked_mul(10)?.checked_add(u32::from(d - b'0'))
    })
}

/// An RFC 3339 `full-date` (section 5.6: `date-fullyear "-" date-month "-" date-mday`), a
/// real calendar day (section 5.7's table of days per month, leap years by appendix C).
pub fn is_full_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) =
        (digits(&b[0..4]), digits(&b[5..7]), digits(&b[8..10]))
    else {
        return false;
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// An RFC 3339 `date-time` (section 5.6: `full-date "T" full-time`, `partial-time =
/// time-hour ":" time-minute ":" time-second [time-secfrac]`, `time-offset = "Z" /
/// time-numoffset`, `time-numoffset = ("+" / "-") time-hour ":" time-minute`): `T` and `Z`
/// in either case (section 5.6's note), the offset required, a leap second `:60` only at
/// 23:59 UTC (section 5.7).
pub fn is_date_time(s: &str) -> bool {
    let Some((date, time)) = s.split_at_checked(10) else {
        return false;
    };
    if !is_full_date(date) {
        return false;
    }
    let b = time.as_bytes();
    // "T" HH ":" MM ":" SS
    if b.len() < 9 || !matches!(b[0], b'T' | b't') || b[3] != b':' || b[6] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) =
        (digits(&b[1..3]), digits(&b[4..6]), digits(&b[7..9]))
    else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut rest = &b[9..];
    if let [b'.', tail @ ..] = rest {
        let n = tail.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &tail[n..];
    }
    // The offset, in minutes east of UTC.
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            match (digits(&[*h1, *h2]), digits(&[*m1, *m2])) {
                (Some(h), Some(m)) if h <= 23 && m <= 59 => {
                    let minutes = (h * 60 + m) as i32;
                    if *sign == b'-' { -minutes } else { minutes }
                }
                _ => return false,
            }
        }
        _ => return false,
    };
    // A leap second is 23:59:60 in UTC.
    second != 60 || ((hour * 60 + minute) as i32 - offset).rem_euclid(24 * 60) == 23 * 60 + 59
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_by_name() {
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.as_str()), Some(f));
            assert_eq!(f.to_string(), f.as_str());
            assert!(f.in_spec());
        }
        assert_eq!(Format::from_name("idn-email"), Some(Format::IdnEmail));
        assert!(!Format::IdnEmail.in_spec());
        assert_eq!(Format::from_name("phone"), None);
        assert_eq!(Format::from_name("Email"), None);
    }

    /// Named in `cargo test`'s list of ignored tests when the features are off.
    #[cfg(not(all(feature = "uri", feature = "idn-email")))]
    #[test]
    #[ignore = "the tests of is_uri and is_idn_email need --features uri,idn-email (or --all-features)"]
    fn uri_and_idn_email_tests_need_their_features() {}

    /// Each format's example is in the format.
    #[test]
    fn examples_are_valid() {
        assert!(is_full_date(Format::Date.example()));
        assert!(is_date_time(Format::DateTime.example()));
        assert!(is_email(Format::Email.example()));
        #[cfg(feature = "idn-email")]
        assert!(is_idn_email(Format::IdnEmail.example()));
        #[cfg(feature = "uri")]
        assert!(is_uri(Format::Uri.example()));
    }

    /// Checks each case both ways; the message names the case and the rule it shows.
    fn table(name: &str, check: fn(&str) -> bool, cases: &[(&str, bool, &str)]) {
        let wrong: Vec<String> = cases
            .iter()
            .filter(|(value, valid, _)| check(value) != *valid)
            .map(|(value, valid, why)| {
                let verdict = if *valid { "refused" } else { "accepted" };
                format!("{name} {verdict} {value:?} ({why})")
            })
            .collect();
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    fn long_cases() -> Vec<(String, bool, &'static str)> {
        let label = |n: usize| "b".repeat(n);
        vec![
            (
                format!("{}@example.org", "a".repeat(64)),
                true,
                "a local part of 64 octets (4.5.3.1.1)",
            ),
            (
                format!("{}@example.org", "a".repeat(65)),
                false,
                "a local part of 65 octets (4.5.3.1.1)",
            ),
            (
                format!("\"{}\"@example.org", " ".repeat(63)),
                false,
                "a quoted local part of 65 octets, quotes included (4.5.3.1.1)",
            ),
            (
                format!("a@{}.org", label(63)),
                true,
                "a label of 63 octets (RFC 1035 2.3.4)",
            ),
            (
                format!("a@{}.org", label(64)),
                false,
                "a label of 64 octets (RFC 1035 2.3.4)",
            ),
            (
                // 63 + 1 + 63 + 1 + 63 + 1 + 63 = 255 octets.
                format!("a@{0}.{0}.{0}.{0}", label(63)),
                true,
                "a domain of 255 octets (4.5.3.1.2)",
            ),
            (
                // 63 + 1 + 63 + 1 + 63 + 1 + 62 + 1 + 1 = 256 octets, no label too long.
                format!("a@{0}.{0}.{0}.{1}.b", label(63), label(62)),
                false,
                "a domain of 256 octets (4.5.3.1.2)",
            ),
        ]
    }

    /// RFC 5321 section 4.1.2 and 4.1.3, the examples of RFC 5321 / 5322 and RFC 3696
    /// section 3, and what lenient validators let through.
    #[rustfmt::skip]
    const EMAILS: &[(&str, bool, &str)] = &[
        ("ada@example.com", true, "Dot-string @ Domain"),
        ("a.b+c@example.co.uk", true, "atoms joined by dots"),
        ("!#$%&'*+-/=?^_`{|}~@example.org", true, "every atext special"),
        ("Postmaster@example.com", true, "RFC 5321 4.1.1.3's postmaster"),
        ("jsmith@example.com", true, "RFC 5322 appendix A.1.1"),
        ("a@b", true, "a single-label Domain is in the grammar"),
        ("a@1.2", true, "sub-domain = Let-dig [Ldh-str]: digits are Let-dig"),
        ("a@b-c.d", true, "a hyphen inside a label"),
        ("a@a--b.c", true, "hyphens together inside a label"),
        ("a@xn--r8jz45g.jp", true, "an A-label is LDH"),
        ("a@EXAMPLE.COM", true, "labels in any case"),
        ("\"Abc@def\"@example.com", true, "RFC 3696: @ inside a Quoted-string"),
        ("\"Fred Bloggs\"@example.com", true, "RFC 3696: space is qtextSMTP"),
        ("\"Joe\\\\Blow\"@example.com", true, "RFC 3696: quoted-pairSMTP of a backslash"),
        ("\"a\\\"b\"@example.com", true, "quoted-pairSMTP of a quote"),
        ("\"\"@example.com", true, "Quoted-string = DQUOTE *QcontentSMTP DQUOTE: may be empty"),
        ("\"a..b.\"@example.com", true, "dots are free inside quotes"),
        ("a@[192.0.2.1]", true, "IPv4-address-literal"),
        ("a@[192.000.002.001]", true, "Snum = 1*3DIGIT: leading zeros"),
        ("a@[IPv6:2001:db8::1]", true, "IPv6-comp"),
        ("a@[ipv6:2001:DB8::1]", true, "ABNF strings and HEXDIG ignore case"),
        ("a@[IPv6:2001:db8:0:0:0:0:2:1]", true, "IPv6-full"),
        ("a@[IPv6:::]", true, "IPv6-comp with no groups"),
        ("a@[IPv6:1:2:3::6]", true, "IPv6-comp, groups on both sides"),
        ("a@[IPv6:1:2:3:4:5::6]", true, "IPv6-comp with 6 groups"),
        ("a@[IPv6:1:2:3:4:5:6:192.0.2.1]", true, "IPv6v4-full"),
        ("a@[IPv6:::ffff:192.0.2.1]", true, "IPv6v4-comp"),
        ("a@[IPv6:1::2:3:192.0.2.1]", true, "IPv6v4-comp, groups on both sides"),
        ("a@[x-tag:any!content]", true, "General-address-literal"),
        ("a@[tag:a:b]", true, "dcontent includes the colon"),
        // Counter-examples.
        ("Ada <ada@example.com>", false, "a display name is RFC 5322 name-addr, not a Mailbox"),
        ("<ada@example.com>", false, "angle brackets are the Path's, not the Mailbox's"),
        ("ada@exa_mple.com", false, "an underscore is not in Ldh-str"),
        ("ada@exam+ple.com", false, "atext is not allowed in a Domain"),
        ("zoë@example.com", false, "non-ASCII atext is RFC 6531's (idn-email)"),
        ("ada@bücher.example", false, "a U-label is RFC 6531's (idn-email)"),
        ("\"zoë\"@example.com", false, "non-ASCII qtext is RFC 6531's"),
        ("δοκιμή@παράδειγμα.δοκιμή", false, "RFC 6530's example is not ASCII"),
        (".a@b.c", false, "Dot-string: a leading dot"),
        ("a.@b.c", false, "Dot-string: a trailing dot"),
        ("a..b@c.d", false, "Dot-string: two dots"),
        ("a@.b", false, "Domain: a leading dot"),
        ("a@b.", false, "Domain: a trailing dot (the root) is not in the grammar"),
        ("a@b..c", false, "Domain: two dots"),
        ("a@-b.c", false, "sub-domain starts with Let-dig"),
        ("a@b-.c", false, "Ldh-str ends with Let-dig"),
        ("a b@c.d", false, "space is not atext"),
        ("a@b c.d", false, "space is not in a Domain"),
        ("a(comment)@b.c", false, "RFC 5322 comments are not in RFC 5321"),
        ("a@@b.c", false, "one @"),
        ("a@b@c.d", false, "@ is not atext"),
        ("@b.c", false, "Atom = 1*atext"),
        ("a@", false, "a Domain has a label"),
        ("", false, "empty"),
        ("plain", false, "no @"),
        ("\"a\"b@c.d", false, "a Quoted-string is the whole local part"),
        ("\"a@c.d", false, "an unclosed Quoted-string"),
        ("\"a\"\"@c.d", false, "a quote is not qtextSMTP"),
        ("\"a\\\"@c.d", false, "quoted-pairSMTP takes the closing quote"),
        ("\"a\tb\"@c.d", false, "a tab is not qtextSMTP (no folding white space)"),
        ("\"a\\\u{7}\"@c.d", false, "quoted-pairSMTP is %d92 %d32-126"),
        ("a\0@b.c", false, "NUL"),
        ("a@b.c\n", false, "a trailing newline"),
        (" a@b.c", false, "leading space"),
        ("a@[192.0.2.256]", false, "Snum is at most 255"),
        ("a@[192.0.2]", false, "IPv4-address-literal has four Snum"),
        ("a@[192.0.2.1.5]", false, "IPv4-address-literal has four Snum"),
        ("a@[1922.0.2.1]", false, "Snum is 1*3DIGIT"),
        ("a@[192.0.2.1", false, "an unclosed literal"),
        ("a@192.0.2.1]", false, "] outside a literal"),
        ("a@[]", false, "an empty literal"),
        // Without its `IPv6:` tag, an IPv6 address still matches General-address-literal
        // (tag `2001`, an Ldh-str): the grammar takes it, whether IANA registers the tag or not.
        ("a@[2001:db8::1]", true, "General-address-literal with the tag 2001"),
        ("a@[::1]", false, "General-address-literal: Standardized-tag is not empty"),
        ("a@[IPv6:2001:db8::g]", false, "IPv6-hex is HEXDIG"),
        ("a@[IPv6:12345::]", false, "IPv6-hex is 1*4HEXDIG"),
        ("a@[IPv6:1:2:3:4:5:6:7]", false, "IPv6-full has 8 groups"),
        ("a@[IPv6:1:2:3:4:5:6:7:8:9]", false, "IPv6-full has 8 groups"),
        ("a@[IPv6:1:2:3:4:5:6::7]", false, "IPv6-comp: at most 6 groups besides ::"),
        ("a@[IPv6:1::2::3]", false, "one ::"),
        ("a@[IPv6::1:2]", false, "a single leading colon"),
        ("a@[IPv6:1:2:]", false, "a single trailing colon"),
        ("a@[IPv6:1:2:3:4:5::192.0.2.1]", false, "IPv6v4-comp: at most 4 groups besides ::"),
        ("a@[IPv6:1:2:3:4:5:192.0.2.1]", false, "IPv6v4-full has 6 groups"),
        ("a@[IPv6:::192.0.2.256]", false, "the IPv4 part's Snum"),
        ("a@[IPv6:]", false, "IPv6-addr is not empty"),
        ("a@[tag:]", false, "General-address-literal: 1*dcontent"),
        ("a@[-tag:x]", true, "Ldh-str = *( ALPHA / DIGIT / \"-\" ) Let-dig may start with a hyphen"),
        ("a@[tag-:x]", false, "Standardized-tag = Ldh-str ends with Let-dig"),
        ("a@[tag:a[b]", false, "[ is not dcontent"),
        ("a@[tag:a\\b]", false, "\\ is not dcontent"),
        ("a@[tag:a b]", false, "space is not dcontent"),
        ("a@[tag_x:b]", false, "an underscore is not in a Standardized-tag"),
    ];

    #[test]
    fn email_by_rfc_5321() {
        table("email", is_email, EMAILS);
        let long = long_cases();
        let long: Vec<(&str, bool, &str)> =
            long.iter().map(|(s, v, w)| (s.as_str(), *v, *w)).collect();
        table("email", is_email, &long);
    }

    /// RFC 6531: UTF-8 in atext, qtextSMTP and U-labels.
    #[cfg(feature = "idn-email")]
    #[rustfmt::skip]
    const IDN_EMAILS: &[(&str, bool, &str)] = &[
        ("δοκιμή@παράδειγμα.δοκιμή", true, "RFC 6530 section 4.1's example"),
        ("실례@실례.테스트", true, "Hangul (JSON Schema's test suite)"),
        ("zoë@example.com", true, "atext =/ UTF8-non-ascii"),
        ("ada@bücher.example", true, "sub-domain =/ U-label"),
        ("用户@例子.广告", true, "RFC 6530 section 4.1"),
        ("\"zoë smith\"@example.com", true, "qtextSMTP =/ UTF8-non-ascii"),
        ("ada@xn--bcher-kva.example", true, "the A-label of bücher"),
        ("😀@example.com", true, "any UTF8-non-ascii is atext"),
        // Counter-examples.
        ("Zoë <zoë@example.com>", false, "a display name is not a Mailbox"),
        ("zoë@bü_cher.example", false, "an underscore is not in a label"),
        ("ada@Bücher.example", false, "a U-label is lower case (IDNA2008)"),
        ("ada@bu\u{308}cher.example", false, "a U-label is NFC"),
        ("ada@-bücher.example", false, "a U-label does not start with a hyphen"),
        ("ada@bücher-.example", false, "a U-label does not end with a hyphen"),
        ("ada@a\u{3002}b", false, "an ideographic full stop is not in a label"),
        ("zoë..x@example.com", false, "Dot-string: two dots"),
        ("\"a\\ë\"@example.com", false, "quoted-pairSMTP stays ASCII"),
        ("ada@[IPv6:2001:db8::ë]", false, "an address literal stays ASCII"),
        ("ada@\u{a0}example.com", false, "a no-break space is no label"),
    ];

    #[cfg(feature = "idn-email")]
    #[test]
    fn idn_email_by_rfc_6531() {
        // Everything ASCII decides as `email` does.
        let ascii: Vec<(&str, bool, &str)> = EMAILS
            .iter()
            .copied()
            .filter(|(s, _, _)| s.is_ascii())
            .collect();
        table("idn-email", is_idn_email, &ascii);
        let long = long_cases();
        let long: Vec<(&str, bool, &str)> =
            long.iter().map(|(s, v, w)| (s.as_str(), *v, *w)).collect();
        table("idn-email", is_idn_email, &long);
        table("idn-email", is_idn_email, IDN_EMAILS);
        // The limits count octets: 32 two-octet characters fill the local part.
        assert!(is_idn_email(&format!("{}@example.com", "é".repeat(32))));
        assert!(!is_idn_email(&format!("{}a@example.com", "é".repeat(32))));
        // A U-label's A-label is at most 63 octets.
        let u = format!("ü{}", "a".repeat(50));
        assert!(is_idn_email(&format!("a@{u}.example")), "{u}");
        let u = format!("ü{}", "a".repeat(60));
        assert!(!is_idn_email(&format!("a@{u}.example")), "{u}");
    }

    /// RFC 3986: section 1.1.2's examples, other productions, and counter-examples.
    #[cfg(feature = "uri")]
    #[rustfmt::skip]
    const URIS: &[(&str, bool, &str)] = &[
        // RFC 3986 section 1.1.2.
        ("ftp://ftp.is.co.za/rfc/rfc1808.txt", true, "1.1.2"),
        ("http://www.ietf.org/rfc/rfc2396.txt", true, "1.1.2"),
        ("ldap://[2001:db8::7]/c=GB?objectClass?one", true, "1.1.2"),
        ("mailto:John.Doe@example.com", true, "1.1.2"),
        ("news:comp.infosystems.www.servers.unix", true, "1.1.2"),
        ("tel:+1-816-555-1212", true, "1.1.2"),
        ("telnet://192.0.2.16:80/", true, "1.1.2"),
        ("urn:oasis:names:specification:docbook:dtd:xml:4.1.2", true, "1.1.2"),
        // Section 3's example and other productions.
        ("foo://example.com:8042/over/there?name=ferret#nose", true, "section 3"),
        ("urn:example:animal:ferret:nose", true, "section 3"),
        ("urn:isbn:0451450523", true, "path-rootless"),
        ("https://xn--r8jz45g.jp/%E3%81%82", true, "pct-encoded"),
        ("https://u:p@example.com/", true, "userinfo"),
        ("http://[v7.addr:x]/", true, "IPvFuture"),
        ("http://[::ffff:192.0.2.1]/", true, "IPv6address with an IPv4 part"),
        ("http://[1:2:3:4:5:6::8]/", true, "'::' may stand for one group"),
        ("file:///etc/hosts", true, "an empty authority"),
        ("a:", true, "hier-part may be path-empty"),
        ("http://example.com:/", true, "port = *DIGIT may be empty"),
        ("http://256.1.1.1/", true, "not an IPv4address, but a reg-name"),
        ("HTTP://EXAMPLE.COM/", true, "scheme and host in any case"),
        // Counter-examples.
        ("//example.com/a", false, "a network-path reference is relative (4.2)"),
        ("/rfc/rfc2396.txt", false, "an absolute-path reference is relative"),
        ("rfc2396.txt", false, "a relative-path reference"),
        ("#frag", false, "a same-document reference"),
        ("", false, "empty"),
        ("1http://example.com/", false, "scheme = ALPHA *( ALPHA / DIGIT / + - . )"),
        ("ht tp://example.com/", false, "space in the scheme"),
        ("http://exa mple.com/", false, "space in the host"),
        ("http://example.com/a b", false, "space in the path"),
        ("https://例え.jp/", false, "non-ASCII is RFC 3987's (iri)"),
        ("http://example.com/ä", false, "non-ASCII in the path"),
        ("http://example.com/%zz", false, "pct-encoded = % HEXDIG HEXDIG"),
        ("http://example.com/%4", false, "a short escape"),
        ("http://example.com/%", false, "a lone %"),
        ("http://[2001:db8::7::1]/", false, "one '::' in an IPv6address"),
        ("http://[2001:db8:7]/", false, "too few groups"),
        ("http://[12345::]/", false, "h16 = 1*4HEXDIG"),
        ("http://[::1/", false, "an unclosed IP-literal"),
        ("http://[192.0.2.1]/", false, "an IPv4 address is not an IP-literal"),
        ("http://[::01.2.3.4]/", false, "dec-octet has no leading zero"),
        ("http://example.com:80a/", false, "port = *DIGIT"),
        ("http://a:b:c/", false, "one port"),
        ("http://example.com/<>", false, "< and > are not pchar"),
        ("http://example.com/a\\b", false, "\\ is not pchar"),
        ("http://example.com/#a#b", false, "# is not in a fragment"),
        ("http://example.com/{x}", false, "{ } are not pchar"),
    ];

    #[cfg(feature = "uri")]
    #[test]
    fn uri_by_rfc_3986() {
        table("uri", is_uri, URIS);
    }

    /// RFC 3339 `full-date`.
    #[rustfmt::skip]
    const DATES: &[(&str, bool, &str)] = &[
        ("1985-04-12", true, "5.8"),
        ("2000-02-29", true, "divisible by 400: a leap year (appendix C)"),
        ("2024-02-29", true, "a leap year"),
        ("2024-12-31", true, "the last day"),
        ("0000-01-01", true, "date-fullyear = 4DIGIT"),
        ("1900-02-29", false, "divisible by 100, not by 400: no leap year"),
        ("2023-02-29", false, "no leap year"),
        ("2024-00-10", false, "date-month = 01-12"),
        ("2024-13-01", false, "date-month = 01-12"),
        ("2024-04-31", false, "date-mday: April has 30 days"),
        ("2024-01-00", false, "date-mday starts at 01"),
        ("24-01-01", false, "date-fullyear = 4DIGIT"),
        ("2024-1-1", false, "date-month = 2DIGIT"),
        ("12024-01-01", false, "date-fullyear = 4DIGIT"),
        ("2024/01/01", false, "the separator is -"),
        ("2024-01-01T00:00:00Z", false, "a date-time is no full-date"),
        ("２０２４-01-01", false, "DIGIT is ASCII"),
        ("", false, "empty"),
    ];

    #[test]
    fn date_by_rfc_3339() {
        table("date", is_full_date, DATES);
    }

    /// RFC 3339 `date-time`: section 5.8's examples, and counter-examples.
    #[rustfmt::skip]
    const DATE_TIMES: &[(&str, bool, &str)] = &[
        // Section 5.8.
        ("1985-04-12T23:20:50.52Z", true, "5.8"),
        ("1996-12-19T16:39:57-08:00", true, "5.8"),
        ("1990-12-31T23:59:60Z", true, "5.8: a leap second"),
        ("1990-12-31T15:59:60-08:00", true, "5.8: the same leap second"),
        ("1937-01-01T12:00:27.87+00:20", true, "5.8: Amsterdam's offset"),
        ("1990-12-31t15:59:60-08:00", true, "5.6's note: t in lower case"),
        ("1985-04-12T23:20:50.52z", true, "5.6's note: z in lower case"),
        ("1985-04-12T23:20:50.123456789Z", true, "time-secfrac = . 1*DIGIT"),
        ("1985-04-12T23:20:50-00:00", true, "-00:00 (4.3: offset unknown)"),
        ("1985-04-12T23:20:50+23:59", true, "time-numoffset's limits"),
        ("1990-12-31T00:59:60+01:00", true, "23:59:60 in UTC"),
        ("1990-12-31T23:29:60-00:30", true, "23:59:60 in UTC"),
        // Counter-examples.
        ("1990-12-31T23:59:60+01:00", false, "5.7: a leap second is 23:59:60 UTC"),
        ("1990-12-31T23:59:60-00:30", false, "5.7: a leap second is 23:59:60 UTC"),
        ("1990-12-31T12:00:60Z", false, "5.7: a leap second is 23:59:60 UTC"),
        ("1985-04-12T23:20:50", false, "time-offset is required"),
        ("1985-04-12 23:20:50Z", false, "the grammar wants T (the note allows space only by agreement)"),
        ("1985-04-12T24:00:00Z", false, "time-hour = 00-23"),
        ("1985-04-12T23:60:00Z", false, "time-minute = 00-59"),
        ("1985-04-12T23:59:61Z", false, "time-second = 00-60"),
        ("1985-04-12T23:20:50.Z", false, "time-secfrac = . 1*DIGIT"),
        ("1985-04-12T23:20:50+2400", false, "time-numoffset has a colon"),
        ("1985-04-12T23:20:50+0100", false, "time-numoffset has a colon"),
        ("1985-04-12T23:20:50+01", false, "time-numoffset has minutes"),
        ("1985-04-12T23:20:50+24:00", false, "time-hour = 00-23 in an offset"),
        ("1985-04-12T23:20:50+01:60", false, "time-minute = 00-59 in an offset"),
        ("1985-04-12T23:20Z", false, "partial-time has seconds"),
        ("1985-04-12T3:20:50Z", false, "time-hour = 2DIGIT"),
        ("1985-02-30T23:20:50Z", false, "the full-date is a real day"),
        ("1985-04-12", false, "a full-date alone"),
        ("é985-04-12T23:20:50Z", false, "not ASCII"),
        ("1985-04-12T23:20:50ZZ", false, "trailing text"),
    ];

    #[test]
    fn date_time_by_rfc_3339() {
        table("date-time", is_date_time, DATE_TIMES);
    }
}
