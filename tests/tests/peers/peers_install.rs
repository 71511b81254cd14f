//! The pinned peers install into the cache and are the versions `versions.env` names.

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn the_pinned_peers_are_installed_in_the_cache() {
    let peers = mcp_tests::peers::peers();
    let env = std::fs::read_to_string(mcp_tests::peers::scripts().join("versions.env")).unwrap();
    let pinned = |key: &str| {
        env.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}=")))
            .unwrap_or_else(|| panic!("{key} in versions.env"))
            .to_string()
    };
    let out = peers
        .python()
        .args([
            "-c",
            "import importlib.metadata as m; print(m.version('mcp'))",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        pinned("MCP_PY_SDK_VERSION")
    );
    let sdk = peers.package_file("@modelcontextprotocol/sdk", "package.json");
    let sdk: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sdk).unwrap()).unwrap();
    assert_eq!(sdk["version"], pinned("MCP_TS_SDK_VERSION"));
    assert!(
        peers
            .package_file("@modelcontextprotocol/server-everything", "dist/index.js")
            .is_file()
    );
}
