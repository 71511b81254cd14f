//! Shared by the `elicit_*` modules of this binary: the official schema definitions as
//! validators, and forms covering every shape the derive supports.

#![allow(dead_code)]

use std::collections::{BTreeSet, HashSet};

use mcp_typed::Elicit;
use serde_json::{Value, json};

/// The schema folder name of a revision.
pub fn dir(version: mcp_typed::ProtocolVersion) -> &'static str {
    match version {
        mcp_typed::ProtocolVersion::Draft => "draft",
        v => v.as_str(),
    }
}

/// A validator for the definition `name` of `revision`'s official schema.json.
pub fn definition(revision: &str, name: &str) -> jsonschema::Validator {
    let mut root = mcp_tests::schema(revision);
    let defs = if root.get("$defs").is_some() {
        "$defs"
    } else {
        "definitions"
    };
    assert!(
        root[defs].get(name).is_some(),
        "{revision} has no definition {name}"
    );
    root["$ref"] = json!(format!("#/{defs}/{name}"));
    jsonschema::options()
        .should_validate_formats(true)
        .build(&root)
        .unwrap_or_else(|e| panic!("{revision}/{name}: {e}"))
}

/// Validates `instance` against `revision`'s definition `name`; panics with every error.
pub fn assert_valid(revision: &str, name: &str, instance: &Value) {
    let validator = definition(revision, name);
    let errors: Vec<String> = validator
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{revision}/{name} rejects\n{}\n{errors:#?}",
        serde_json::to_string_pretty(instance).unwrap()
    );
}

// ---- enums ----

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seating {
    #[elicit(title = "Window seat")]
    Window,
    #[elicit(title = "Aisle seat")]
    Aisle,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[elicit(rename_all = "snake_case")]
pub enum Extra {
    #[elicit(rename = "extra_legroom")]
    Legroom,
    Meal,
    Wifi,
}

#[derive(
    Elicit,
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Color {
    DeepRed,
    #[serde(rename = "GREEN")]
    Green,
    #[elicit(rename = "blue!")]
    Blue,
}

// ---- the example ----

#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(rename_all = "camelCase")]
pub struct Booking {
    /// Date you want instead
    #[elicit(title = "Alternative date", format = "date")]
    pub alternative_date: String,
    #[elicit(default = true)]
    pub check_alternative: bool,
    #[elicit(min_length = 1, max_length = 50, pattern = "^[A-Za-z ]+$")]
    pub name: String,
    #[elicit(format = "email")]
    pub email: Option<String>,
    #[elicit(minimum = 1, maximum = 12, default = 2)]
    pub guests: u8,
    pub budget: Option<f64>,
    pub seating: Seating,
    #[elicit(min_items = 1, max_items = 2)]
    pub extras: Vec<Extra>,
}

// ---- every integer and number type, every collection ----

/// Every numeric type.
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(title = "Numbers", description = "One of each numeric type")]
pub struct Numbers {
    pub a_i8: i8,
    pub a_i16: i16,
    pub a_i32: i32,
    pub a_i64: i64,
    pub a_isize: isize,
    pub a_u8: u8,
    pub a_u16: u16,
    pub a_u32: u32,
    pub a_u64: u64,
    pub a_usize: usize,
    #[elicit(minimum = -1.5, maximum = 2.5)]
    pub a_f32: f32,
    pub a_f64: Option<f64>,
    #[elicit(minimum = -10, maximum = 10, default = -3)]
    pub small: i32,
    #[elicit(minimum = 0, maximum = 1, default = 0.5)]
    pub ratio: f64,
}

/// Multi-selects of each collection, and single-selects.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Selects {
    pub vec: Vec<Extra>,
    #[elicit(min_items = 0, max_items = 3, default = ["meal", "wifi"])]
    pub btree: BTreeSet<Extra>,
    #[elicit(title = "Colours")]
    pub hash: Option<HashSet<Color>>,
    #[elicit(default = "GREEN")]
    pub color: Color,
    pub seating: Option<Seating>,
    #[elicit(default = ["Window"])]
    pub titled_multi: Vec<Seating>,
    #[elicit(legacy_enum_names, default = "Aisle")]
    pub legacy: Seating,
}

/// Strings of each format, with defaults.
#[derive(Elicit, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub struct Strings {
    #[elicit(format = "email", default = "a@example.com")]
    pub email: String,
    #[elicit(format = "uri")]
    pub homepage: Option<String>,
    #[elicit(format = "date", default = "2024-02-29")]
    pub day: Option<String>,
    #[elicit(format = "date-time")]
    pub when: Option<String>,
    #[serde(rename = "plain")]
    #[elicit(min_length = 2, max_length = 5, default = "héllo")]
    pub text: String,
    pub r#type: Option<String>,
}

/// A form that 2025-06-18 can express: no multi-select, defaults on booleans only.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Legacy {
    /// A name
    #[elicit(min_length = 1)]
    pub name: String,
    #[elicit(default = false)]
    pub subscribe: bool,
    #[elicit(minimum = 0, maximum = 150)]
    pub age: Option<u8>,
    pub score: Option<f64>,
    pub seating: Seating,
    pub extra: Option<Extra>,
    #[elicit(format = "date-time")]
    pub when: Option<String>,
}

// Defaults on every kind of single value, and no multi-select: 2025-06-18 takes this form,
// sending only the booleans' defaults. (No doc comment: it would become the description.)
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(rename_all = "camelCase")]
pub struct Preferences {
    #[elicit(default = true)]
    pub notify: bool,
    #[elicit(default = false)]
    pub newsletter: Option<bool>,
    #[elicit(minimum = 1, maximum = 10, default = 3)]
    pub party_size: u8,
    #[elicit(default = -40)]
    pub offset: Option<i32>,
    #[elicit(minimum = 0, maximum = 1, default = 0.25)]
    pub tip_ratio: f64,
    #[elicit(default = "Aisle")]
    pub seating: Seating,
    #[elicit(default = "meal")]
    pub extra: Extra,
    #[elicit(max_length = 20, default = "none")]
    pub note: String,
    pub nickname: Option<String>,
}

/// No fields at all.
#[derive(Elicit, Debug, Clone, PartialEq)]
pub struct Empty {}

// Everything the everything server asks for, written as one struct (no doc comment: it
// would become the form's description).
#[derive(Elicit, Debug, Clone, PartialEq)]
#[elicit(rename_all = "camelCase")]
pub struct EverythingForm {
    /// Your full, legal name
    #[elicit(title = "String")]
    pub name: String,
    /// Agree to the terms and conditions
    #[elicit(title = "Boolean")]
    pub check: Option<bool>,
    /// Favorite first line of a story
    #[elicit(
        title = "String with default",
        default = "It was a dark and stormy night."
    )]
    pub first_line: String,
    /// Your email address (will be verified, and never shared with anyone else)
    #[elicit(title = "String with email format", format = "email")]
    pub email: Option<String>,
    /// Portfolio / personal website
    #[elicit(title = "String with uri format", format = "uri")]
    pub homepage: Option<String>,
    /// Your date of birth
    #[elicit(title = "String with date format", format = "date")]
    pub birthdate: Option<String>,
    /// Your favorite integer (do not give us your phone number, pin, or other sensitive info)
    #[elicit(title = "Integer", minimum = 1, maximum = 100, default = 42)]
    pub integer: i64,
    /// Favorite number (there are no wrong answers)
    #[elicit(
        title = "Number in range 1-1000",
        minimum = 0,
        maximum = 1000,
        default = 3.14
    )]
    pub number: f64,
    /// Choose your favorite friend
    #[elicit(title = "Untitled Single Select Enum", default = "Monica")]
    pub untitled_single_select_enum: Friend,
    /// Choose your favorite instruments
    #[elicit(
        title = "Untitled Multiple Select Enum",
        min_items = 1,
        max_items = 3,
        default = ["Guitar"]
    )]
    pub untitled_multiple_select_enum: Vec<Instrument>,
    /// Choose your favorite hero
    #[elicit(title = "Titled Single Select Enum", default = "hero-1")]
    pub titled_single_select_enum: Hero,
    /// Choose your favorite types of fish
    #[elicit(
        title = "Titled Multiple Select Enum",
        min_items = 1,
        max_items = 3,
        default = ["fish-1"]
    )]
    pub titled_multiple_select_enum: Vec<Fish>,
    /// Choose your favorite type of pet
    #[elicit(
        title = "Legacy Titled Single Select Enum",
        legacy_enum_names,
        default = "pet-1"
    )]
    pub legacy_titled_enum: Pet,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Friend {
    Monica,
    Rachel,
    Joey,
    Chandler,
    Ross,
    Phoebe,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Instrument {
    Guitar,
    Piano,
    Violin,
    Drums,
    Bass,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
#[elicit(rename_all = "kebab-case")]
pub enum Hero {
    #[elicit(rename = "hero-1", title = "Superman")]
    Superman,
    #[elicit(rename = "hero-2", title = "Green Lantern")]
    GreenLantern,
    #[elicit(rename = "hero-3", title = "Wonder Woman")]
    WonderWoman,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fish {
    #[elicit(rename = "fish-1", title = "Tuna")]
    Tuna,
    #[elicit(rename = "fish-2", title = "Salmon")]
    Salmon,
    #[elicit(rename = "fish-3", title = "Trout")]
    Trout,
}

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pet {
    #[elicit(rename = "pet-1", title = "Cats")]
    Cats,
    #[elicit(rename = "pet-2", title = "Dogs")]
    Dogs,
    #[elicit(rename = "pet-3", title = "Birds")]
    Birds,
    #[elicit(rename = "pet-4", title = "Fish")]
    Fish,
    #[elicit(rename = "pet-5", title = "Reptiles")]
    Reptiles,
}

/// The forms of this module with their names, as schemas.
pub fn all_forms() -> Vec<(&'static str, &'static mcp_typed::FormSchema)> {
    vec![
        ("Booking", Booking::requested_schema()),
        ("Numbers", Numbers::requested_schema()),
        ("Selects", Selects::requested_schema()),
        ("Strings", Strings::requested_schema()),
        ("Legacy", Legacy::requested_schema()),
        ("Preferences", Preferences::requested_schema()),
        ("Empty", Empty::requested_schema()),
        ("EverythingForm", EverythingForm::requested_schema()),
    ]
}
