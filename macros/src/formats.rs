//! The string formats, to check a `default` at compile time. Same rules as the runtime
//! (`mcp_typed::elicit::format_matches`); the tests check both agree.

/// The formats the spec allows, in its order.
pub const FORMATS: &[&str] = &["date", "date-time", "email", "uri"];

/// Whether `value` is in `format` (one of [`FORMATS`]).
pub fn matches(format: &str, value: &str) -> bool {
    match format {
        "email" => email_address::EmailAddress::is_valid(value),
        "uri" => fluent_uri::Uri::parse(value).is_ok(),
        "date" => is_full_date(value),
        "date-time" => is_date_time(value),
        _ => false,
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
        assert!(matches("uri", "https://example.com/a?b#c"));
        assert!(!matches("uri", "/relative"));
    }
}
