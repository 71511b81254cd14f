use std::collections::{BTreeSet, HashSet};

use mcp_typed::Elicit;

#[derive(Elicit, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[elicit(rename_all = "SCREAMING-KEBAB-CASE")]
enum Level {
    VeryLow,
    #[elicit(rename = "mid", title = "Middle")]
    Medium,
    High,
}

/// A form with one field of each supported shape.
#[derive(Elicit, Debug)]
#[elicit(title = "Everything", description = "All shapes")]
struct Form {
    a: String,
    b: bool,
    c: i8,
    d: i16,
    e: i32,
    f: i64,
    g: isize,
    h: u8,
    i: u16,
    j: u32,
    k: u64,
    l: usize,
    m: f32,
    n: f64,
    o: Level,
    p: Vec<Level>,
    q: BTreeSet<Level>,
    r: HashSet<Level>,
    oa: Option<String>,
    ob: Option<bool>,
    oc: Option<i8>,
    om: Option<f32>,
    oo: Option<Level>,
    op: Option<Vec<Level>>,
    #[elicit(default = "x", min_length = 1, max_length = 3, pattern = "x")]
    da: String,
    #[elicit(default = false)]
    db: Option<bool>,
    #[elicit(default = -5, minimum = -10, maximum = 10)]
    dc: i64,
    #[elicit(default = 1, minimum = 0.5, maximum = 1.5)]
    dm: f64,
    #[elicit(default = "mid")]
    do_: Level,
    #[elicit(default = ["VERY-LOW", "HIGH"], min_items = 0, max_items = 3)]
    dp: BTreeSet<Level>,
    #[elicit(format = "date-time", default = "2025-01-01T00:00:00Z")]
    when: String,
    #[elicit(format = "uri")]
    link: Option<String>,
    r#type: Option<String>,
}

fn main() {
    let schema = serde_json::to_value(Form::requested_schema()).unwrap();
    assert_eq!(schema["properties"].as_object().unwrap().len(), 33);
    assert_eq!(schema["title"], "Everything");
    assert!(schema["properties"].get("type").is_some());
    assert_eq!(
        schema["properties"]["o"]["oneOf"][1],
        serde_json::json!({"const": "mid", "title": "Middle"})
    );
}
