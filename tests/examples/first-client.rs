use mcp_typed::elicit::client::{Form, FormReply, UrlRequest};
use mcp_typed::session::{ClientHandler, ClientInfo, ClientSession, Connection};
use mcp_typed::v2025_11_25 as mcp;
use std::process::Command;

struct Person; // answers at the terminal

impl ClientHandler for Person {
    fn form(&mut self, form: &Form) -> FormReply {
        println!("{}", form.message());
        let (mut answer, mut lines) = (form.answer(), std::io::stdin().lines()); // defaults filled
        for field in form.fields() {
            println!("{} ({}):", field.label(), field.kind);
            let text = lines.next().and_then(Result::ok).unwrap_or_default();
            if let (false, Err(e)) = (text.is_empty(), answer.parse(&field.name, &text)) {
                println!("{e}");
            }
        }
        answer.accept().unwrap_or(FormReply::Cancel) // validated against the form
    }
    fn url(&mut self, request: UrlRequest) -> FormReply {
        println!("Open {}? ({})", request.shown_url(), request.message());
        request.decline() // opening needs request.consent(Consent::given_by_user())
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let command: Vec<String> = std::env::args().skip(1).collect(); // the server's command line
    let info = ClientInfo::new(mcp::Implementation::new("me", "1"));
    let session = ClientSession::new(info.with_forms().with_urls(), Person);
    let mut server = Connection::spawn(Command::new(&command[0]).args(&command[1..]), session)?;
    for tool in server.list_tools()? {
        println!("{}: {}", tool.name, tool.description.unwrap_or_default());
    }
    let sum = server.call_tool("get-sum", &serde_json::json!({"a": 1, "b": 2}))?;
    println!("get-sum: {}", serde_json::to_string(&sum.content)?);
    Ok(server.close().map(drop)?)
}
