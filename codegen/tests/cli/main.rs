//! The `mcp-typed-codegen` program as a user runs it: `diff`, `fetch`, `tools --from` and
//! `cargo install`. One test binary (`cargo test -p mcp-typed-codegen --test cli`).

mod cli_diff;
mod cli_fetch;
mod cli_install;
mod cli_tools;
