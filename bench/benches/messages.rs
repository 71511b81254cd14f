//! `cargo bench -p mcp-bench --bench messages`: every codec side by side on both corpora.

fn main() -> anyhow::Result<()> {
    let rounds = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    for (i, name) in ["real", "synthetic"].into_iter().enumerate() {
        let corpus = mcp_bench::corpus::Corpus::by_name(name)?;
        let table = mcp_bench::report::messages(corpus, rounds);
        print!(
            "{}",
            if i == 0 {
                &table[..]
            } else {
                table.split_once('\n').map_or("", |t| t.1)
            }
        );
    }
    Ok(())
}
