pub extern crate mcp_typed as renamed;

mod reexport {
    pub use renamed as types;
}

#[derive(renamed::Elicit)]
#[elicit(crate = "reexport::types")]
struct Empty {}

#[derive(renamed::Elicit)]
#[elicit(crate = "reexport::types")]
enum One {
    Only,
}

#[derive(renamed::Elicit)]
#[elicit(crate = "::mcp_typed")]
struct Single {
    one: One,
}

fn main() {
    use renamed::Elicit as _;
    let schema = serde_json::to_value(Empty::requested_schema()).unwrap();
    assert_eq!(schema, serde_json::json!({"type": "object", "properties": {}}));
    assert!(Empty::from_content(&serde_json::Map::new()).is_ok());
    assert!(Single::from_content(&serde_json::Map::new()).is_err());
}
