//! `cargo bench -p mcp-bench --bench elicitation`: `Elicit::from_content` against
//! `jsonschema` + serde on the same content and schema.

fn main() {
    let rounds = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    print!("{}", mcp_bench::report::elicitation(rounds));
}
