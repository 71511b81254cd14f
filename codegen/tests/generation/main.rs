//! What the generator produces: `bootstrap` (the drift check: the checked-in modules of
//! `mcp-typed` are what `generate` writes today; alone: `cargo test -p mcp-typed-codegen --test
//! generation bootstrap`), the `shapes` snapshot, the emitter deciding nothing (`emit_guard`), member order, names stable across revisions,
//! reserved names, adding a revision, quiet tool bindings, and no panic on any input. One test
//! binary (`cargo test -p mcp-typed-codegen --test generation`).
//!
//! `never_panic` installs a panic hook for the whole binary; it silences only the panics it
//! catches itself (a thread-local flag), so other tests' panics print as usual.

mod bootstrap;
mod declaration_order;
mod emit_guard;
mod name_stability;
mod never_panic;
mod new_revision;
mod reserved_names;
mod snapshot;
mod tools_quiet;
