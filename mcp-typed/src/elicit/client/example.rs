//! Values of string formats for programs that answer without a person.

/// A value of the string format named `format` (as JSON Schema names it: `email`, `uri`,
/// `date`, `date-time`, `uuid`, `ipv4`, `hostname`…), for a program that fills a form or a
/// tool's arguments without a person ([`Form::example_answer`](super::Form::example_answer),
/// the `mcp-typed` command's generated tool arguments): the `variant`-th of a fixed series
/// (`user@example.com`, `user1@example.com`…; `2024-01-01`, `2024-01-02`…), lengthened towards
/// `min` characters where the format allows. `None` for a format not known here.
///
/// ```
/// use mcp_typed::elicit::client::format_example;
///
/// assert_eq!(format_example("email", 0, 0).as_deref(), Some("user@example.com"));
/// assert_eq!(format_example("date", 1, 0).as_deref(), Some("2024-01-02"));
/// assert_eq!(format_example("uri", 0, 24).as_deref(), Some("https://example.com/aaaa"));
/// assert_eq!(format_example("color", 0, 0), None);
/// ```
pub fn format_example(format: &str, variant: usize, min: usize) -> Option<String> {
    let k = variant;
    let pad = |s: &str| -> String {
        if s.len() >= min {
            String::new()
        } else {
            "a".repeat(min - s.len())
        }
    };
    let n = if k == 0 { String::new() } else { k.to_string() };
    Some(match format {
        "email" | "idn-email" => {
            let tail = format!("{n}@example.com");
            format!("user{}{tail}", pad(&format!("user{tail}")))
        }
        "uri" | "iri" | "uri-reference" | "iri-reference" | "url" => {
            let s = format!("https://example.com/{n}");
            format!("{s}{}", pad(&s))
        }
        "uri-template" => {
            let s = format!("https://example.com/{n}{{id}}");
            format!("{s}{}", pad(&s))
        }
        "hostname" | "idn-hostname" => {
            let tail = format!("{n}.example.com");
            let label = format!("host{}", pad(&format!("host{tail}")));
            if label.len() > 63 {
                return None;
            }
            format!("{label}{tail}")
        }
        "date" => format!("2024-01-{:02}", 1 + k % 28),
        "date-time" => format!("2024-01-{:02}T00:00:00Z", 1 + k % 28),
        "time" => format!("00:00:{:02}Z", k % 60),
        "duration" => format!("P{}D", k + 1),
        "uuid" => format!("00000000-0000-4000-8000-{:012x}", k),
        "ipv4" => format!("192.0.2.{}", 1 + k % 254),
        "ipv6" => format!("2001:db8::{:x}", 1 + k),
        "json-pointer" => format!("/a{n}"),
        "relative-json-pointer" => format!("{k}"),
        "regex" => format!("a{n}"),
        _ => return None,
    })
}
