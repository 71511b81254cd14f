//! `rename_all` rules, with serde's names and semantics.

use self::RenameRule::*;

/// A `rename_all` rule.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

static RULES: &[(&str, RenameRule)] = &[
    ("lowercase", Lower),
    ("UPPERCASE", Upper),
    ("PascalCase", Pascal),
    ("camelCase", Camel),
    ("snake_case", Snake),
    ("SCREAMING_SNAKE_CASE", ScreamingSnake),
    ("kebab-case", Kebab),
    ("SCREAMING-KEBAB-CASE", ScreamingKebab),
];

impl RenameRule {
    pub fn from_str(name: &str) -> Option<RenameRule> {
        RULES.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
    }

    /// The names accepted, for messages.
    pub fn names() -> String {
        RULES
            .iter()
            .map(|(n, _)| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Renames a variant (written in PascalCase).
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            Pascal => variant.to_owned(),
            Lower => variant.to_ascii_lowercase(),
            Upper => variant.to_ascii_uppercase(),
            Camel => {
                let mut chars = variant.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            Snake => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            ScreamingSnake => Snake.apply_to_variant(variant).to_ascii_uppercase(),
            Kebab => Snake.apply_to_variant(variant).replace('_', "-"),
            ScreamingKebab => ScreamingSnake.apply_to_variant(variant).replace('_', "-"),
        }
    }

    /// Renames a field (written in snake_case).
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            Lower | Snake => field.to_owned(),
            Upper | ScreamingSnake => field.to_ascii_uppercase(),
            Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            Camel => {
                let pascal = Pascal.apply_to_field(field);
                let mut chars = pascal.chars();
                match chars.next() {
                    Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                    None => String::new(),
                }
            }
            Kebab => field.replace('_', "-"),
            ScreamingKebab => ScreamingSnake.apply_to_field(field).replace('_', "-"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_variants() {
        assert_eq!(Camel.apply_to_field("alternative_date"), "alternativeDate");
        assert_eq!(Pascal.apply_to_field("alternative_date"), "AlternativeDate");
        assert_eq!(Kebab.apply_to_field("a_b"), "a-b");
        assert_eq!(ScreamingKebab.apply_to_field("a_b"), "A-B");
        assert_eq!(Snake.apply_to_variant("WindowSeat"), "window_seat");
        assert_eq!(Camel.apply_to_variant("WindowSeat"), "windowSeat");
        assert_eq!(Kebab.apply_to_variant("WindowSeat"), "window-seat");
        assert_eq!(Lower.apply_to_variant("WindowSeat"), "windowseat");
        assert_eq!(ScreamingSnake.apply_to_variant("WindowSeat"), "WINDOW_SEAT");
    }
}
