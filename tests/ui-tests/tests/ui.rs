//! Compile-time behaviour of `#[derive(Elicit)]`: every rejected input with the exact
//! messages (`tests/ui/fail/*.stderr`), and every supported shape compiling and running
//! (`tests/ui/pass`). Regenerate snapshots with `TRYBUILD=overwrite` and review them.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
