//! Elicitation, offline: the schemas `#[derive(Elicit)]` emits, content checked against a form,
//! `Validated<T>`, `since`/`min_revision`, and the client side (`elicit::client::Form`) against
//! captured traffic and the official examples. One test binary (`cargo test -p mcp-tests --test
//! elicitation`). The tests that run the official SDKs' validators or the terminal client under
//! tmux are in `peers`.

mod elicit_client;
mod elicit_client_props;
mod elicit_content;
mod elicit_proptest;
mod elicit_schema;
mod elicit_since;
mod elicit_support;
mod elicit_validated;
