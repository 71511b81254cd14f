//! The published crates as packages, used from outside the repository
//! (`tests/packaging/check.sh`): feature `packaging` (`cargo test -p mcp-tests --features
//! packaging --test packaging`).

mod packaged_crates;
