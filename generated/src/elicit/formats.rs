//! The string formats of the spec's `StringSchema`: `email`, `uri`, `date`, `date-time`.
//!
//! Self-contained on purpose: the derive checks defaults at compile time with its own copy
//! (`mcp-typed-macros/src/formats.rs`), and that crate's tests include this file to check
//! that both agree.

/// An RFC 5321 mailbox (`local@domain`), as the `email` format of JSON Schema means it.
pub fn is_email(s: &str) -> bool {
    is_plain_email(s) || email_address::EmailAddress::is_valid(s)
}

/// Whether `s` is a plain ASCII address, `dot-atom@domain`, that `email_address` accepts: a
/// fast path that decides most real addresses in one pass over the bytes. `false` says
/// nothing: the address may still be valid in a form it leaves to `email_address` (quoted
/// local part, domain literal, display name, non-ASCII, `atext` other than `-` in the domain).
fn is_plain_email(s: &str) -> bool {
    // RFC 5322 `atext` (ASCII only), by byte.
    const ATEXT: [bool; 256] = {
        const SPECIALS: &[u8] = b"!#$%&'*+-/=?^_`{|}~";
        let mut table = [false; 256];
        let mut c = 0;
        while c < 256 {
            table[c] = (c as u8).is_ascii_alphanumeric();
            c += 1;
        }
        let mut i = 0;
        while i < SPECIALS.len() {
            table[SPECIALS[i] as usize] = true;
            i += 1;
        }
        table
    };
    let b = s.as_bytes();
    let Some(at) = b.iter().position(|&c| c == b'@') else {
        return false;
    };
    let (local, domain) = (&b[..at], &b[at + 1..]);
    // `email_address`'s limits: a local part of at most 64 bytes, a domain of at most 254, a
    // label of at most 63.
    local.len() <= 64
        && domain.len() <= 254
        && local
            .split(|&c| c == b'.')
            .all(|atom| !atom.is_empty() && atom.iter().all(|&c| ATEXT[usize::from(c)]))
        && domain.split(|&c| c == b'.').all(|label| match label {
            [first, .., last] | [first @ last] => {
                first.is_ascii_alphanumeric()
                    && last.is_ascii_alphanumeric()
                    && label.len() <= 63
                    && label
                        .iter()
                        .all(|&c| c.is_ascii_alphanumeric() || c == b'-')
            }
            [] => false,
        })
}

/// An RFC 3986 URI: a scheme, then the rest per the RFC's grammar (no relative references).
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

/// An RFC 3339 `full-date` (`YYYY-MM-DD`, a real calendar day).
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

/// An RFC 3339 `date-time` (`full-date "T" full-time`, `T`/`Z` in either case, leap second
/// `:60` only at 23:59 UTC, offset required).
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
    fn dates() {
        assert!(is_full_date("2000-02-29") && is_full_date("2024-12-31"));
        for bad in [
            "1900-02-29",
            "2024-00-10",
            "2024-13-01",
            "2024-04-31",
            "24-01-01",
            "2024-1-1",
        ] {
            assert!(!is_full_date(bad), "{bad}");
        }
    }

    #[test]
    fn date_times() {
        for good in [
            "1985-04-12T23:20:50.52Z",
            "1996-12-19T16:39:57-08:00",
            "1990-12-31T23:59:60Z",
            "1990-12-31t15:59:60-08:00",
        ] {
            assert!(is_date_time(good), "{good}");
        }
        for bad in [
            "1990-12-31T23:59:60+01:00",
            "1985-04-12T23:20:50",
            "1985-04-12 23:20:50Z",
            "1985-04-12T24:00:00Z",
            "1985-04-12T23:20:50.Z",
            "1985-04-12T23:20:50+2400",
            "é985-04-12T23:20:50Z",
        ] {
            assert!(!is_date_time(bad), "{bad}");
        }
    }

    #[test]
    fn plain_emails_agree_with_email_address() {
        let long_local = format!("{}@example.org", "a".repeat(64));
        let too_long_local = format!("{}@example.org", "a".repeat(65));
        let long_label = format!("a@{}.org", "b".repeat(63));
        let too_long_label = format!("a@{}.org", "b".repeat(64));
        let long_domain = format!("a@{}c", "b.".repeat(126));
        let too_long_domain = format!("a@{}cd", "b.".repeat(126));
        let cases = [
            "ada@example.com",
            "a.b+c@example.org",
            "!#$%&'*+-/=?^_`{|}~@example.org",
            "a@b",
            "a@1.2",
            "a@b-c.d",
            "a@xn--r8jz45g.jp",
            long_local.as_str(),
            long_label.as_str(),
            long_domain.as_str(),
            // Decided by `email_address`, not by the fast path.
            too_long_local.as_str(),
            too_long_label.as_str(),
            too_long_domain.as_str(),
            "\"quoted local\"@example.org",
            "a@[127.0.0.1]",
            "Ada <ada@example.com>",
            "ada@exa_mple.com",
            "ada@exam+ple.com",
            "δοκιμή@παράδειγμα.δοκιμή",
            "a@-b.c",
            "a@b-.c",
            "a@b..c",
            "a@b.",
            "a@.b",
            ".a@b",
            "a.@b",
            "a..b@c",
            "a b@c",
            "a@b c",
            "a@@b",
            "a@b@c",
            "@b",
            "a@",
            "",
            "plain",
            "a\0@b",
            "a@b\n",
        ];
        for case in cases {
            let expected = email_address::EmailAddress::is_valid(case);
            assert_eq!(is_email(case), expected, "{case:?}");
            // The fast path never accepts what `email_address` rejects.
            assert!(!is_plain_email(case) || expected, "{case:?}");
        }
        // The fast path decides the common addresses itself.
        for plain in ["ada@example.com", "a.b+c@example.org", long_domain.as_str()] {
            assert!(is_plain_email(plain), "{plain:?}");
        }
    }

    #[test]
    fn emails_and_uris() {
        assert!(is_email("a.b+c@example.org"));
        assert!(!is_email("a@@b") && !is_email("@b.c") && !is_email("plain"));
        assert!(is_uri("urn:isbn:0451450523") && is_uri("https://xn--r8jz45g.jp/%E3%81%82"));
        // RFC 3986, not RFC 3987: non-ASCII must be percent-encoded.
        assert!(!is_uri("https://例え.jp/"));
        assert!(!is_uri("//no-scheme") && !is_uri("http://a b") && !is_uri(""));
    }
}
