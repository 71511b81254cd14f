use mcp_typed::Elicit;

#[derive(Elicit, serde::Deserialize, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
enum Kind {
    FirstKind,
    #[serde(rename = "other")]
    SecondKind,
}

#[derive(Elicit, serde::Deserialize, Debug)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Form {
    first_name: String,
    #[serde(rename = "kind_of_thing", default)]
    #[elicit(default = "other")]
    kind: Kind,
    #[serde(rename(deserialize = "lastName"))]
    last: Option<String>,
    #[elicit(rename = "elicitWins")]
    #[serde(rename = "serdeLoses")]
    both: Option<bool>,
}

impl Default for Kind {
    fn default() -> Self {
        Kind::SecondKind
    }
}

fn main() {
    let names: Vec<&str> = Form::requested_schema().fields.iter().map(|f| f.name).collect();
    assert_eq!(names, ["firstName", "kind_of_thing", "lastName", "elicitWins"]);
    let kinds: Vec<&str> = <Kind as mcp_typed::ElicitEnum>::OPTIONS.iter().map(|o| o.value).collect();
    assert_eq!(kinds, ["firstKind", "other"]);
    let form = Form::from_content(serde_json::json!({"firstName": "Ada"}).as_object().unwrap()).unwrap();
    assert_eq!(form.kind, Kind::SecondKind);
    assert!(form.last.is_none() && form.both.is_none() && form.first_name == "Ada");
}
