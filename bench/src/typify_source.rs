// The body of `typify_source(schema: &str) -> Result<String, String>`, shared verbatim by the
// build script (which generates the types the benchmarks decode with) and the generation
// benchmark (which times it).
{
    let root: schemars08::schema::RootSchema =
        serde_json::from_str(schema).map_err(|e| format!("not a JSON Schema: {e}"))?;
    let mut settings = typify::TypeSpaceSettings::default();
    settings.with_struct_builder(false);
    let mut space = typify::TypeSpace::new(&settings);
    space
        .add_root_schema(root)
        .map_err(|e| format!("typify: {e}"))?;
    let file: syn::File =
        syn::parse2(space.to_stream()).map_err(|e| format!("typify emitted invalid Rust: {e}"))?;
    Ok(prettyplease::unparse(&file))
}
