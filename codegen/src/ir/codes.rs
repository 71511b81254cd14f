//! The error-code constants of a revision: JSON-RPC's five, then every code the schema fixes
//! on an error definition (`URL_ELICITATION_REQUIRED` for `URLElicitationRequiredError`),
//! each named once.

use super::roles::Role;
use super::{ConstValue, Module, TypeKind, TypeRef, naming};

/// A module constant holding an error code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorCode {
    /// The constant's name (`INVALID_PARAMS`).
    pub name: String,
    /// The code.
    pub code: i64,
    /// Its doc text.
    pub doc: String,
}

/// The error codes of JSON-RPC, in every revision.
const JSONRPC_CODES: [(&str, i64, &str); 5] = [
    (
        "PARSE_ERROR",
        -32700,
        "Invalid JSON was received (JSON-RPC 2.0).",
    ),
    (
        "INVALID_REQUEST",
        -32600,
        "The JSON sent is not a valid request object (JSON-RPC 2.0).",
    ),
    (
        "METHOD_NOT_FOUND",
        -32601,
        "The method does not exist or is not available (JSON-RPC 2.0).",
    ),
    (
        "INVALID_PARAMS",
        -32602,
        "Invalid method parameters (JSON-RPC 2.0).",
    ),
    (
        "INTERNAL_ERROR",
        -32603,
        "Internal JSON-RPC error (JSON-RPC 2.0).",
    ),
];

/// Fills [`Module::error_codes`] and gives each struct with a fixed `code` its
/// [`Role::ErrorCode`].
pub fn assign(module: &mut Module) {
    let mut codes: Vec<ErrorCode> = JSONRPC_CODES
        .iter()
        .map(|&(name, code, doc)| ErrorCode {
            name: name.to_owned(),
            code,
            doc: format!("`{code}`: {doc}"),
        })
        .collect();
    let mut seen: Vec<i64> = codes.iter().map(|c| c.code).collect();
    let mut roles = Vec::new();
    for (i, t) in module.types.iter().enumerate() {
        let TypeKind::Struct(s) = &t.kind else {
            continue;
        };
        let Some(&ConstValue::Int(code)) = s.const_field("code").map(|c| &c.value) else {
            continue;
        };
        if let Some(known) = codes.iter().find(|c| c.code == code) {
            roles.push((i, code, known.name.clone()));
            continue;
        }
        if seen.contains(&code) {
            continue;
        }
        seen.push(code);
        // The definition that holds the error: the type itself, or the one whose `error`
        // member it is (`URLElicitationRequiredError` for its inline `…ErrorError`).
        let this = TypeRef::Named(t.name.clone());
        let owner = module
            .types
            .iter()
            .find(|o| match &o.kind {
                TypeKind::Struct(os) => os
                    .field("error")
                    .is_some_and(|f| module.resolve(&f.ty) == &this),
                _ => false,
            })
            .unwrap_or(t);
        let base = owner.schema_name.as_deref().unwrap_or(&owner.name);
        let name = naming::error_code_name(base);
        // One constant per name (schemas that are not MCP's may repeat one).
        if name.is_empty() || codes.iter().any(|c| c.name == name) {
            continue;
        }
        roles.push((i, code, name.clone()));
        codes.push(ErrorCode {
            name,
            code,
            doc: format!("`{code}`: the code of `{base}`."),
        });
    }
    for (i, code, constant) in roles {
        module.types[i].role = Role::ErrorCode { code, constant };
    }
    module.error_codes = codes;
}
