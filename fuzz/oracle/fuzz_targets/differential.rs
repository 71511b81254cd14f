//! See `mcp_fuzz_oracle::differential` for the properties checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_fuzz_oracle::differential(data));
