use mcp_typed::Elicit;

#[derive(Elicit)]
#[elicit(rename_all = "camelCase")]
struct Payment {
    api_key: String,
    credit_card: String,
    card_number: String,
    cvv: u16,
    ssn: String,
    pin: u16,
    access_token: String,
    #[elicit(rename = "clientSecret")]
    client: String,
}

fn main() {}
