#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod formats;
pub mod sensitive;

pub use formats::Format;
pub use sensitive::{SENSITIVE_PAIRS, SENSITIVE_WORDS, sensitive_name};
