//! `cargo bench -p mcp-bench --bench check`: the traffic checker's cost per message on every
//! real-traffic session (`Checker::check`, the proxy's whole per-line work) beside
//! `serde_json::Value`.

fn main() -> anyhow::Result<()> {
    let rounds = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(20);
    print!("{}", mcp_bench::report::check(rounds)?);
    Ok(())
}
