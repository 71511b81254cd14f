//! See `mcp_tests::fuzz::check` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_tests::fuzz::check(data));
