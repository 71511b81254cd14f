use mcp_typed::Elicit;

type Name = String;
type Count = u8;
type Ratio = f64;
type Flag = bool;
type Picks = Vec<self::inner::Extra>;

mod inner {
    #[derive(mcp_typed::Elicit, Debug, PartialEq)]
    pub enum Extra {
        Meal,
        Wifi,
    }
}

type Pick = inner::Extra;

#[derive(Elicit, Debug)]
struct Form {
    #[elicit(min_length = 1, max_length = 10, pattern = "^[a-z@.]+$", format = "email", default = "a@b.co")]
    name: Name,
    #[elicit(minimum = 1, maximum = 9, default = 3)]
    count: Count,
    #[elicit(minimum = 0, maximum = 1.5, default = 0.5)]
    ratio: Ratio,
    #[elicit(default = true)]
    flag: Flag,
    #[elicit(min_items = 1, max_items = 2, default = ["Meal"])]
    picks: Picks,
    #[elicit(default = "Wifi", legacy_enum_names)]
    pick: Pick,
    path: self::inner::Extra,
    std_string: std::string::String,
}

fn main() {
    let form = Form::from_content(&serde_json::Map::from_iter([
        ("path".to_owned(), serde_json::json!("Meal")),
        ("std_string".to_owned(), serde_json::json!("x")),
    ]))
    .unwrap();
    assert_eq!(form.count, 3);
    assert_eq!(form.picks, vec![inner::Extra::Meal]);
    assert_eq!(form.pick, inner::Extra::Wifi);
    assert_eq!((form.name.as_str(), form.ratio, form.flag), ("a@b.co", 0.5, true));
    assert_eq!(form.path, inner::Extra::Meal);
    assert_eq!(form.std_string, "x");
}
