//! Conformance: every official example decodes into the type generated for its definition,
//! re-encodes to an equal JSON value, and full messages decode through the envelope and union
//! types into the right variant.

use mcp_tests::{json_eq, spec_examples};
use mcp_typed::DefinitionVisitor;
use serde_json::Value;

/// The one official example that is invalid against its own schema and is rejected.
const STRICT_REJECT: (&str, &str) = (
    "ReadResourceResultResponse",
    "read-resource-result-response.json",
);

/// Decodes a value as `T` and encodes it again.
struct RoundTrip<'a>(&'a str);

impl DefinitionVisitor for RoundTrip<'_> {
    type Output = Result<(Value, String), String>;
    fn visit<T>(self, _: &'static str) -> Self::Output
    where
        T: serde::Serialize
            + serde::de::DeserializeOwned
            + std::fmt::Debug
            + Clone
            + PartialEq
            + mcp_typed::Unknowns
            + 'static,
    {
        let decoded: T = serde_json::from_str(self.0).map_err(|e| e.to_string())?;
        let debug = format!("{decoded:?}");
        let encoded = serde_json::to_value(&decoded).map_err(|e| e.to_string())?;
        Ok((encoded, debug))
    }
}

macro_rules! conformance {
    ($test:ident, $revision:literal, $module:ident) => {
        #[test]
        fn $test() {
            use mcp_typed::$module as m;
            let all = spec_examples($revision);
            assert_eq!(all.len(), 129, "the official example set of {}", $revision);
            let mut failures = Vec::new();
            for (definition, file, value) in &all {
                let text = value.to_string();
                let Some(result) = m::with_definition(definition, RoundTrip(&text)) else {
                    failures.push(format!("{definition}/{file}: no generated type for this definition"));
                    continue;
                };
                if (definition.as_str(), file.as_str()) == STRICT_REJECT {
                    // A `complete` result without the `ttlMs` and `cacheScope` that 2026-07-28
                    // requires: rejected, naming both fields and the type they belong to, and
                    // never taken for an `InputRequiredResult` (see README, "Strictness").
                    match result {
                        Err(e) => {
                            for needle in ["`cacheScope`", "`ttlMs`", "ReadResourceResult"] {
                                assert!(e.contains(needle), "{definition}/{file}: error {e:?} lacks {needle}");
                            }
                        }
                        Ok((_, debug)) => failures.push(format!("{definition}/{file}: decoded although required fields are missing: {debug}")),
                    }
                    continue;
                }
                match result {
                    Ok((encoded, _)) if json_eq(&encoded, value) => {}
                    Ok((encoded, _)) => failures.push(format!("{definition}/{file}: lossy round trip\n  in:  {value}\n  out: {encoded}")),
                    Err(e) => failures.push(format!("{definition}/{file}: {e}")),
                }
                // Full messages also decode through the envelope into the right variant.
                if value.get("jsonrpc").is_some() {
                    match serde_json::from_str::<m::JsonRpcMessage>(&text) {
                        Ok(msg) => {
                            let back = serde_json::to_value(&msg).unwrap();
                            if !json_eq(&back, value) {
                                failures.push(format!("{definition}/{file}: JsonRpcMessage round trip is lossy: {back}"));
                            }
                        }
                        Err(e) => failures.push(format!("{definition}/{file}: as JsonRpcMessage: {e}")),
                    }
                }
                let is_request = definition.ends_with("Request") && value.get("method").is_some();
                let is_notification = definition.ends_with("Notification");
                if is_request || is_notification {
                    let mut found = Vec::new();
                    for (union, decoded) in [
                        ("ClientRequest", serde_json::from_str::<m::ClientRequest>(&text).map(|v| format!("{v:?}"))),
                        ("ServerNotification", serde_json::from_str::<m::ServerNotification>(&text).map(|v| format!("{v:?}"))),
                        ("ClientNotification", serde_json::from_str::<m::ClientNotification>(&text).map(|v| format!("{v:?}"))),
                        ("InputRequest", serde_json::from_str::<m::InputRequest>(&text).map(|v| format!("{v:?}"))),
                    ] {
                        // An open `method` union takes methods it does not define as
                            // `Custom`; only a typed variant counts as a match.
                        if let Ok(debug) = decoded.as_ref().map(|d| d.as_str()) {
                            if debug.starts_with("Custom(") {
                                continue;
                            }
                            found.push(union);
                            // In 2026-07-28 `ClientNotification` is a plain struct (the only
                            // client notification is `notifications/cancelled`).
                            if debug.starts_with(&format!("{union} {{")) {
                                continue;
                            }
                            let inner = format!("({} {{", mcp_typed_codegen::ir::naming::type_name(definition));
                            if !debug.contains(&inner) {
                                failures.push(format!("{definition}/{file}: {union} picked the wrong variant: {}", &debug[..debug.len().min(120)]));
                            }
                        }
                    }
                    if found.is_empty() {
                        failures.push(format!("{definition}/{file}: no request/notification union accepts it"));
                    }
                }
            }
            assert!(failures.is_empty(), "{} of {} examples failed:\n{}", failures.len(), all.len(), failures.join("\n"));
        }
    };
}

conformance!(draft_examples, "draft", draft);
conformance!(v2026_07_28_examples, "2026-07-28", v2026_07_28);
