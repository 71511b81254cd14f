//! The string formats a field may declare, to check a `default` at compile time: the spec's
//! four ([`Format::ALL`]), each checked by the rules `mcp_typed::elicit` uses at run time
//! (`mcp-typed-rules`, one copy for both).

use mcp_typed_rules::Format;
use mcp_typed_rules::formats::{is_date_time, is_email, is_full_date, is_uri};

/// The format named `name`, if the spec's `StringSchema` allows it (`idn-email`, which a
/// client reads in a received form, is not one: the derive does not send it).
pub fn in_spec(name: &str) -> Option<Format> {
    Format::from_name(name).filter(|f| f.in_spec())
}

/// Whether `value` is in `format`; `idn-email` is refused before a default is checked (see
/// [`in_spec`]), and matches nothing here.
pub fn matches(format: Format, value: &str) -> bool {
    match format {
        Format::Email => is_email(value),
        Format::Uri => is_uri(value),
        Format::Date => is_full_date(value),
        Format::DateTime => is_date_time(value),
        Format::IdnEmail => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{Format, in_spec, matches};

    #[test]
    fn the_spec_formats() {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
        assert_eq!(names, ["date", "date-time", "email", "uri"]);
        assert_eq!(in_spec("idn-email"), None);
        assert_eq!(in_spec("phone"), None);
        for f in Format::ALL {
            assert_eq!(in_spec(f.as_str()), Some(f));
            assert!(matches(f, f.example()), "{f}");
        }
    }

    #[test]
    fn each_format_reaches_its_rule() {
        assert!(matches(Format::Date, "2024-02-29"));
        assert!(!matches(Format::Date, "2023-02-29"));
        assert!(matches(Format::DateTime, "2024-03-01T00:59:60+01:00"));
        assert!(!matches(Format::DateTime, "2024-02-29T23:59:60+01:00"));
        assert!(matches(Format::Email, "\"a b\"@[IPv6:2001:db8::1]"));
        assert!(!matches(Format::Email, "zoë@example.com"));
        assert!(matches(Format::Uri, "https://example.com/a?b#c"));
        assert!(!matches(Format::Uri, "/relative"));
        assert!(!matches(Format::IdnEmail, "zoë@example.com"));
    }
}
