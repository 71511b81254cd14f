use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    /// How many tokens of the model's budget to spend (not a secret).
    #[elicit(not_sensitive)]
    max_tokens: u32,
    /// A PIN-shaped field the user explicitly agreed to share.
    #[elicit(not_sensitive, min_length = 4, max_length = 4)]
    pin: String,
    shipping_option: Option<String>,
    opinion: Option<String>,
}

fn main() {
    assert_eq!(Form::requested_schema().fields.len(), 4);
}
