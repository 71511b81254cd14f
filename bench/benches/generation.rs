//! `cargo bench -p mcp-bench --bench generation`: `mcp-typed-codegen` (six revisions) and typify.

fn main() -> anyhow::Result<()> {
    let rounds = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    print!("{}", mcp_bench::report::generation(rounds)?);
    Ok(())
}
