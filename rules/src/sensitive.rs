//! Form field names that look like they ask for sensitive data, which form-mode elicitation
//! must not request (the spec sends such requests to a URL instead).
//!
//! The one copy of this heuristic: `#[derive(Elicit)]` refuses such a field at compile time
//! (unless it is marked `#[elicit(not_sensitive)]`), and `mcp_typed::check` reports a form
//! seen on the wire that asks for one.

/// Words that make a form field name look like it asks for sensitive data.
pub const SENSITIVE_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passphrase",
    "passcode",
    "secret",
    "token",
    "apikey",
    "creditcard",
    "cardnumber",
    "cvv",
    "cvc",
    "ssn",
    "pin",
    "otp",
    "privatekey",
];

/// Adjacent word pairs that do the same (`api_key`, `creditCard`…).
pub const SENSITIVE_PAIRS: &[(&str, &str)] = &[
    ("api", "key"),
    ("credit", "card"),
    ("card", "number"),
    ("private", "key"),
    ("access", "key"),
    ("secret", "key"),
    ("social", "security"),
    ("security", "code"),
];

/// Words of an identifier, lowercased (`apiKey`, `api_key`, `API-KEY` → `api`, `key`).
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for ch in name.chars() {
        if !ch.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase() && prev_lower && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
        current.extend(ch.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// The sensitive word a form field name contains (`password` for `userPassword`, `api_key`
/// for `apiKey`), if any: one of [`SENSITIVE_WORDS`] as a word of the name, or one of
/// [`SENSITIVE_PAIRS`] as two adjacent words.
pub fn sensitive_name(name: &str) -> Option<String> {
    let words = words(name);
    if let Some(w) = words.iter().find(|w| SENSITIVE_WORDS.contains(&w.as_str())) {
        return Some(w.clone());
    }
    words.windows(2).find_map(|pair| {
        SENSITIVE_PAIRS
            .iter()
            .any(|(a, b)| pair[0] == *a && pair[1] == *b)
            .then(|| format!("{}_{}", pair[0], pair[1]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_names() {
        for (name, word) in [
            ("password", "password"),
            ("userPassword", "password"),
            ("api_key", "api_key"),
            ("apiKey", "api_key"),
            ("APIKEY", "apikey"),
            ("API-KEY", "api_key"),
            ("credit_card", "credit_card"),
            ("cardNumber", "card_number"),
            ("cvv", "cvv"),
            ("ssn", "ssn"),
            ("pin", "pin"),
            ("pin_code", "pin"),
            ("secret", "secret"),
            ("client_secret", "secret"),
            ("access_token", "token"),
            ("passwd", "passwd"),
            ("socialSecurityNumber", "social_security"),
        ] {
            assert_eq!(sensitive_name(name).as_deref(), Some(word), "{name}");
        }
        for name in [
            "shipping",
            "opinion",
            "spinner",
            "keyboard",
            "tokens_used_limit_x",
            "name",
            "email",
            "mapping",
            "description",
            "api_version",
            "card_color",
            "",
        ] {
            assert_eq!(sensitive_name(name), None, "{name}");
        }
    }

    #[test]
    fn lists_are_lower_case_words() {
        for w in SENSITIVE_WORDS
            .iter()
            .chain(SENSITIVE_PAIRS.iter().flat_map(|(a, b)| [a, b]))
        {
            assert_eq!(words(w), [*w], "{w} is not one lower-case word");
        }
    }
}
