//! The string formats, to check a `default` at compile time. Same rules as the runtime
//! (`mcp_typed::elicit::format_matches`, `generated/src/elicit/formats.rs`, which cites the
//! RFCs' productions); the tests check both agree.

/// The formats the spec allows, in its order. (`idn-email`, which a client reads in a
/// received form, is not one: the derive does not send it.)
pub const FORMATS: &[&str] = &["date", "date-time", "email", "uri"];

/// Whether `value` is in `format` (one of [`FORMATS`]).
pub fn matches(format: &str, value: &str) -> bool {
    match format {
        "email" => is_email(value),
        "uri" => fluent_uri::Uri::parse(value).is_ok(),
        "date" => is_full_date(value),
        "date-time" => is_date_time(value),
        _ => false,
    }
}

/// An RFC 5321 `Mailbox` (section 4.1.2), ASCII only, within section 4.5.3.1's sizes.
fn is_email(s: &str) -> bool {
    let b = s.as_bytes();
    let Some(end) = local_part_end(b) else {
        return false;
    };
    let (local, rest) = b.split_at(end);
    let Some(domain) = rest.strip_prefix(b"@") else {
        return false;
    };
    if local.len() > 64 || domain.len() > 255 {
        return false;
    }
    match domain {
        [b'[', literal @ .., b']'] => is_address_literal(literal),
        _ => domain
            .split(|&c| c == b'.')
            .all(|label| label.len() <= 63 && is_sub_domain(label)),
    }
}

/// RFC 5322 `atext`.
fn is_atext(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&c)
}

/// `Local-part = Dot-string / Quoted-string`: where it ends.
fn local_part_end(b: &[u8]) -> Option<usize> {
    if let [b'"', quoted @ ..] = b {
        let mut i = 0;
        loop {
            match *quoted.get(i)? {
                b'"' => return Some(i + 2),
                // quoted-pairSMTP = %d92 %d32-126
                b'\\' => {
                    if !(32..=126).contains(quoted.get(i + 1)?) {
                        return None;
                    }
                    i += 2;
                }
                // qtextSMTP = %d32-33 / %d35-91 / %d93-126
                32..=126 => i += 1,
                _ => return None,
            }
        }
    }
    // Dot-string = Atom *("."  Atom), Atom = 1*atext
    let end = b.iter().position(|&c| c == b'@').unwrap_or(b.len());
    b[..end]
        .split(|&c| c == b'.')
        .all(|atom| !atom.is_empty() && atom.iter().all(|&c| is_atext(c)))
        .then_some(end)
}

/// `sub-domain = Let-dig [Ldh-str]`.
fn is_sub_domain(label: &[u8]) -> bool {
    matches!(label, [first, ..] if first.is_ascii_alphanumeric()) && is_ldh_str_or_empty(label)
}

/// `Ldh-str = *( ALPHA / DIGIT / "-" ) Let-dig`, or nothing.
fn is_ldh_str_or_empty(s: &[u8]) -> bool {
    s.iter().all(|&c| c.is_ascii_alphanumeric() || c == b'-') && s.last() != Some(&b'-')
}

/// The inside of an `address-literal` (section 4.1.3): IPv4, `IPv6:` + IPv6-addr, or
/// `Standardized-tag ":" 1*dcontent`.
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

/// `IPv4-address-literal = Snum 3("."  Snum)`, `Snum` = 1 to 3 digits, 0 to 255.
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

/// `IPv6-addr = IPv6-full / IPv6-comp / IPv6v4-full / IPv6v4-comp` (section 4.1.3: `::`
/// stands for at least 2 groups).
fn is_ipv6_addr(s: &[u8]) -> bool {
    let last_colon = s.iter().rposition(|&c| c == b':');
    let (groups, full, compressed_max) = match last_colon {
        Some(i) if s[i + 1..].contains(&b'.') => {
            if !is_ipv4_literal(&s[i + 1..]) {
                return false;
            }
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

fn digits(s: &[u8]) -> Option<u32> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    s.iter().try_fold(0u32, |acc, d| {
        acc.checked_mul(10)?.checked_add(u32::from(d - b'0'))
    })
}

fn is_full_date(s: &str) -> bool {
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

fn is_date_time(s: &str) -> bool {
    let Some((date, time)) = s.split_at_checked(10) else {
        return false;
    };
    if !is_full_date(date) {
        return false;
    }
    let b = time.as_bytes();
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

/// The runtime's validators, to check that compile time and run time agree.
#[cfg(test)]
#[path = "../../generated/src/elicit/formats.rs"]
mod runtime;

#[cfg(test)]
mod tests {
    use super::{FORMATS, matches, runtime};
    use proptest::prelude::*;

    fn at_runtime(format: &str, value: &str) -> bool {
        match format {
            "email" => runtime::is_email(value),
            "uri" => runtime::is_uri(value),
            "date" => runtime::is_full_date(value),
            _ => runtime::is_date_time(value),
        }
    }

    /// Strings near each format, valid or not.
    fn candidates() -> impl Strategy<Value = String> {
        prop_oneof![
            "[0-9]{4}-[0-9]{2}-[0-9]{2}",
            "[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{0,3})?([Zz]|[+-][0-9]{2}:[0-9]{2})?",
            "[a-z.]{0,6}@[a-z.-]{0,8}",
            // Email's corners: quoted local parts, atext, underscores, non-ASCII, literals.
            "(\"[ a-z@\\\\\"]{0,4}\"|[a-z!#_~.é]{0,4})@([a-z0-9_é-]{0,4}\\.?){0,3}",
            "[a-z]{1,2}@\\[([0-9]{1,3}\\.){0,4}[0-9]{0,3}\\]",
            "[a-z]{1,2}@\\[(IPv6|ipv6|x-y|-)?:([0-9a-f]{0,4}:{0,2}){0,9}([0-9]{1,3}\\.[0-9]{1,3}\\.[0-9.]{3,6})?\\]",
            "[a-z+.-]{0,6}:[/a-z?#%0-9]{0,10}",
            ".{0,16}",
        ]
    }

    proptest! {
        #[test]
        fn compile_time_and_run_time_agree(value in candidates()) {
            for format in FORMATS {
                prop_assert_eq!(matches(format, &value), at_runtime(format, &value), "{} {:?}", format, value);
            }
        }
    }

    #[test]
    fn formats() {
        assert!(matches("date", "2024-02-29"));
        assert!(!matches("date", "2023-02-29"));
        assert!(matches("date-time", "2024-02-29T23:59:60.5Z"));
        assert!(matches("date-time", "2024-03-01T00:59:60+01:00"));
        assert!(!matches("date-time", "2024-02-29T23:59:60+01:00"));
        assert!(!matches("date-time", "2024-02-29 23:59:00Z"));
        assert!(matches("email", "a@example.com"));
        assert!(!matches("email", "a.example.com"));
        assert!(matches("email", "\"a b\"@[IPv6:2001:db8::1]"));
        assert!(!matches("email", "Ada <ada@example.com>"));
        assert!(!matches("email", "ada@exa_mple.com"));
        assert!(!matches("email", "zoë@example.com"));
        assert!(!matches(
            "email",
            &format!("{}@example.com", "a".repeat(65))
        ));
        assert!(matches("uri", "https://example.com/a?b#c"));
        assert!(!matches("uri", "/relative"));
    }
}
