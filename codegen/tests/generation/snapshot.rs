//! Snapshot of the code generated for `../snapshots/shapes.json`, a schema with one of each shape
//! the generator handles. The snapshot is also compiled and exercised by the `mcp-tests` crate
//! (`tests/tests/messages/shapes.rs`), so it is never just text. Update with `UPDATE_EXPECT=1`.

use std::path::Path;

#[test]
fn shapes_snapshot() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let generated = mcp_typed_codegen::Builder::new()
        .schema_path(dir.join("shapes.json"))
        .module_name("shapes")
        .generate()
        .unwrap();
    expect_test::expect_file!["../snapshots/shapes.rs"].assert_eq(generated.code());
}
