use mcp_typed::Elicit;

#[derive(Elicit, Debug)]
struct Form {
    #[elicit(default = "2024-02-29")]
    day: chrono::NaiveDate,
    at: chrono::DateTime<chrono::Utc>,
    local: Option<chrono::DateTime<chrono::FixedOffset>>,
    #[elicit(default = "https://example.com/")]
    homepage: url::Url,
}

fn main() {
    let schema = serde_json::to_value(Form::requested_schema()).unwrap();
    assert_eq!(schema["properties"]["day"]["format"], "date");
    assert_eq!(schema["properties"]["at"]["format"], "date-time");
    assert_eq!(schema["properties"]["homepage"]["format"], "uri");
    let form = Form::from_content(
        serde_json::json!({"at": "2024-06-30T23:59:60Z", "local": "2024-01-01T10:00:00+02:00"})
            .as_object()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(form.day.to_string(), "2024-02-29");
    assert_eq!(form.homepage.as_str(), "https://example.com/");
    assert_eq!(form.local.unwrap().offset().local_minus_utc(), 7200);
    let bad = Form::from_content(serde_json::json!({"at": "yesterday"}).as_object().unwrap());
    assert!(bad.unwrap_err().concerns("at"));
}
