//! Which capability each message needs, per revision: one table per revision, read by the
//! checker's session state (`Session::check_capabilities`, in `protocol.rs`). A test
//! compares each table with the `ClientCapabilities` and `ServerCapabilities` of the
//! revision's schema (tests/tests/checker/check_capability_tables.rs).

use std::sync::Arc;

use serde_json::Value;

use crate::ProtocolVersion;

/// Whose declared capabilities a rule reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// The client's (`ClientCapabilities`).
    Client,
    /// The server's (`ServerCapabilities`).
    Server,
    /// The receiver's, whichever side that is (the `tasks/*` requests go both ways).
    Receiver,
}

/// When a rule applies to a message with its method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Always.
    Always,
    /// The value at this pointer (from the message's root) is there, and not `null`,
    /// `false` or `[]`.
    Set(&'static str),
    /// The value at this pointer is one of these strings.
    OneOf(&'static str, &'static [&'static str]),
    /// Nothing at this pointer.
    Absent(&'static str),
}

/// A capability rule: a message with `method`, when `when` holds, needs `capability` (a dotted
/// path into `capabilities`: `resources.subscribe`) declared by `holder`; the problem points
/// at `member`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The request's or notification's method.
    pub method: &'static str,
    /// When it applies.
    pub when: When,
    /// Whose capability.
    pub holder: Holder,
    /// The capability, as a dotted path.
    pub capability: &'static str,
    /// The member of the message that needs it (a JSON Pointer from the message's root).
    pub member: &'static str,
}

const fn rule(method: &'static str, holder: Holder, capability: &'static str) -> Rule {
    Rule {
        method,
        when: When::Always,
        holder,
        capability,
        member: "/method",
    }
}

const fn rule_if(
    method: &'static str,
    when: When,
    holder: Holder,
    capability: &'static str,
    member: &'static str,
) -> Rule {
    Rule {
        method,
        when,
        holder,
        capability,
        member,
    }
}

use Holder::{Client, Receiver, Server};

// ---------------------------------------------------------------------------------------------
// Groups of rules, named; each revision's table lists the groups it has.

/// The server's features, asked for by the client (every revision up to 2025-11-25).
const SERVER_FEATURES: &[Rule] = &[
    rule("tools/list", Server, "tools"),
    rule("tools/call", Server, "tools"),
    rule("prompts/list", Server, "prompts"),
    rule("prompts/get", Server, "prompts"),
    rule("resources/list", Server, "resources"),
    rule("resources/read", Server, "resources"),
    rule("resources/templates/list", Server, "resources"),
    rule("resources/subscribe", Server, "resources.subscribe"),
    rule("resources/unsubscribe", Server, "resources.subscribe"),
    rule("logging/setLevel", Server, "logging"),
];

/// What the server announces: sent only by a server that declared it.
const SERVER_NOTIFICATIONS: &[Rule] = &[
    rule(
        "notifications/tools/list_changed",
        Server,
        "tools.listChanged",
    ),
    rule(
        "notifications/prompts/list_changed",
        Server,
        "prompts.listChanged",
    ),
    rule(
        "notifications/resources/list_changed",
        Server,
        "resources.listChanged",
    ),
    rule(
        "notifications/resources/updated",
        Server,
        "resources.subscribe",
    ),
    rule("notifications/message", Server, "logging"),
];

/// `completion/complete` (the `completions` capability came with 2025-03-26; before, it
/// needed none).
const COMPLETIONS: &[Rule] = &[rule("completion/complete", Server, "completions")];

/// The client's features, asked for by the server, and the client's roots announcement.
const CLIENT_FEATURES: &[Rule] = &[
    rule("sampling/createMessage", Client, "sampling"),
    rule("roots/list", Client, "roots"),
    rule(
        "notifications/roots/list_changed",
        Client,
        "roots.listChanged",
    ),
];

/// Elicitation of 2025-06-18: one capability, no modes.
const ELICITATION_2025_06_18: &[Rule] = &[rule("elicitation/create", Client, "elicitation")];

/// Elicitation with modes (2025-11-25 on): `elicitation: {}` declares form mode.
const ELICITATION_MODES: &[Rule] = &[
    rule_if(
        "elicitation/create",
        When::OneOf("/params/mode", &["url"]),
        Client,
        "elicitation.url",
        "/params/mode",
    ),
    rule_if(
        "elicitation/create",
        When::OneOf("/params/mode", &["form"]),
        Client,
        "elicitation.form",
        "/params/mode",
    ),
    rule_if(
        "elicitation/create",
        When::Absent("/params/mode"),
        Client,
        "elicitation.form",
        "/method",
    ),
];

/// The end of a URL-mode elicitation, announced to a client that can take URL mode.
const ELICITATION_COMPLETE: &[Rule] = &[rule(
    "notifications/elicitation/complete",
    Client,
    "elicitation.url",
)];

/// Sampling's sub-capabilities (2025-11-25 on).
const SAMPLING_OPTIONS: &[Rule] = &[
    rule_if(
        "sampling/createMessage",
        When::Set("/params/tools"),
        Client,
        "sampling.tools",
        "/params/tools",
    ),
    rule_if(
        "sampling/createMessage",
        When::OneOf("/params/includeContext", &["thisServer", "allServers"]),
        Client,
        "sampling.context",
        "/params/includeContext",
    ),
];

/// Tasks (2025-11-25): the `tasks/*` requests go to either side, and a task-augmented request
/// needs its receiver to take tasks for that method.
const TASKS: &[Rule] = &[
    rule("tasks/get", Receiver, "tasks"),
    rule("tasks/result", Receiver, "tasks"),
    rule("tasks/list", Receiver, "tasks.list"),
    rule("tasks/cancel", Receiver, "tasks.cancel"),
    rule_if(
        "tools/call",
        When::Set("/params/task"),
        Server,
        "tasks.requests.tools.call",
        "/params/task",
    ),
    rule_if(
        "sampling/createMessage",
        When::Set("/params/task"),
        Client,
        "tasks.requests.sampling.createMessage",
        "/params/task",
    ),
    rule_if(
        "elicitation/create",
        When::Set("/params/task"),
        Client,
        "tasks.requests.elicitation.create",
        "/params/task",
    ),
];

/// The server's features of 2026-07-28: no `resources/subscribe` nor `logging/setLevel`
/// (a `subscriptions/listen` stream opts in to notifications instead).
const SERVER_FEATURES_2026: &[Rule] = &[
    rule("tools/list", Server, "tools"),
    rule("tools/call", Server, "tools"),
    rule("prompts/list", Server, "prompts"),
    rule("prompts/get", Server, "prompts"),
    rule("resources/list", Server, "resources"),
    rule("resources/read", Server, "resources"),
    rule("resources/templates/list", Server, "resources"),
    rule_if(
        "subscriptions/listen",
        When::Set("/params/notifications/resourceSubscriptions"),
        Server,
        "resources.subscribe",
        "/params/notifications/resourceSubscriptions",
    ),
    rule_if(
        "subscriptions/listen",
        When::Set("/params/notifications/toolsListChanged"),
        Server,
        "tools.listChanged",
        "/params/notifications/toolsListChanged",
    ),
    rule_if(
        "subscriptions/listen",
        When::Set("/params/notifications/promptsListChanged"),
        Server,
        "prompts.listChanged",
        "/params/notifications/promptsListChanged",
    ),
    rule_if(
        "subscriptions/listen",
        When::Set("/params/notifications/resourcesListChanged"),
        Server,
        "resources.listChanged",
        "/params/notifications/resourcesListChanged",
    ),
];

/// The client's features of 2026-07-28, asked for as the input requests of an
/// `InputRequiredResult` (no roots announcement: `roots` has no `listChanged`).
const CLIENT_FEATURES_2026: &[Rule] = &[
    rule("sampling/createMessage", Client, "sampling"),
    rule("roots/list", Client, "roots"),
];

// ---------------------------------------------------------------------------------------------
// The tables

/// 2024-11-05.
pub const V2024_11_05: &[&[Rule]] = &[SERVER_FEATURES, SERVER_NOTIFICATIONS, CLIENT_FEATURES];
/// 2025-03-26: `completions`.
pub const V2025_03_26: &[&[Rule]] = &[
    SERVER_FEATURES,
    SERVER_NOTIFICATIONS,
    COMPLETIONS,
    CLIENT_FEATURES,
];
/// 2025-06-18: `elicitation`.
pub const V2025_06_18: &[&[Rule]] = &[
    SERVER_FEATURES,
    SERVER_NOTIFICATIONS,
    COMPLETIONS,
    CLIENT_FEATURES,
    ELICITATION_2025_06_18,
];
/// 2025-11-25: elicitation modes, sampling's tools and context, tasks.
pub const V2025_11_25: &[&[Rule]] = &[
    SERVER_FEATURES,
    SERVER_NOTIFICATIONS,
    COMPLETIONS,
    CLIENT_FEATURES,
    ELICITATION_MODES,
    ELICITATION_COMPLETE,
    SAMPLING_OPTIONS,
    TASKS,
];
/// 2026-07-28 (and the draft, whose schema it is).
pub const V2026_07_28: &[&[Rule]] = &[
    SERVER_FEATURES_2026,
    SERVER_NOTIFICATIONS,
    COMPLETIONS,
    CLIENT_FEATURES_2026,
    ELICITATION_MODES,
    SAMPLING_OPTIONS,
];

/// Capabilities of the schemas that gate no message, by revision (the test that compares the
/// tables with the schemas takes them as covered).
pub const GATE_NOTHING: &[(&str, &str)] = &[
    // Free-form, for what no revision defines.
    ("*", "experimental"),
    // 2026-07-28: named extensions, each defining its own messages.
    ("*", "extensions"),
];

/// The table of `version`.
pub fn table(version: ProtocolVersion) -> &'static [&'static [Rule]] {
    match version.as_str() {
        "2024-11-05" => V2024_11_05,
        "2025-03-26" => V2025_03_26,
        "2025-06-18" => V2025_06_18,
        "2025-11-25" => V2025_11_25,
        _ => V2026_07_28,
    }
}

/// The capability a method's messages belong to, as the tables name it (its first part:
/// `tools` for `tools/call`, `resources` for `notifications/resources/updated`): the one
/// that a rule of some revision always asks for it. `None` for a method that no capability
/// always gates (`initialize`, `ping`, `notifications/progress`, `subscriptions/listen`…).
pub fn capability_of(method: &str) -> Option<&'static str> {
    let tables = [
        V2024_11_05,
        V2025_03_26,
        V2025_06_18,
        V2025_11_25,
        V2026_07_28,
    ];
    let rules = tables.into_iter().flatten().flat_map(|group| group.iter());
    let rule = rules
        .filter(|r| r.when == When::Always)
        .find(|r| r.method == method)?;
    Some(
        rule.capability
            .split_once('.')
            .map_or(rule.capability, |(top, _)| top),
    )
}

/// The rules of `version` that `message` (with `method`) falls under.
pub(crate) fn rules_for<'a>(
    version: ProtocolVersion,
    method: &'a str,
    message: &'a Value,
) -> impl Iterator<Item = &'static Rule> + 'a {
    table(version)
        .iter()
        .flat_map(|group| group.iter())
        .filter(move |r| r.method == method && applies(r.when, message))
}

fn applies(when: When, message: &Value) -> bool {
    match when {
        When::Always => true,
        When::Set(pointer) => message.pointer(pointer).is_some_and(is_set),
        When::OneOf(pointer, values) => message
            .pointer(pointer)
            .and_then(Value::as_str)
            .is_some_and(|v| values.contains(&v)),
        When::Absent(pointer) => message.pointer(pointer).is_none(),
    }
}

fn is_set(v: &Value) -> bool {
    !matches!(v, Value::Null | Value::Bool(false)) && v.as_array().is_none_or(|a| !a.is_empty())
}

/// What one side declared (its `capabilities` object), and where it was declared.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Caps {
    declared: Arc<Value>,
    pub source: &'static str,
}

impl Caps {
    pub fn of(capabilities: &Value, source: &'static str) -> Caps {
        Caps {
            declared: Arc::new(capabilities.clone()),
            source,
        }
    }

    /// A capability (dotted path) is declared: its member is there (whatever revision the
    /// session speaks: peers declare newer ones early), and not `null` or `false`
    /// (`resources.subscribe: false`). `elicitation: {}` declares form mode, as before
    /// 2025-11-25.
    pub fn has(&self, capability: &str) -> bool {
        if capability == "elicitation.form"
            && let Some(e) = self.declared.get("elicitation")
            && e.is_object()
            && e.get("form").is_none()
            && e.get("url").is_none()
        {
            return true;
        }
        let mut at = &*self.declared;
        for key in capability.split('.') {
            match at.get(key) {
                Some(v) => at = v,
                None => return false,
            }
        }
        !matches!(at, Value::Null | Value::Bool(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn capabilities_are_read_as_declared() {
        let c = Caps::of(&json!({"elicitation": {}}), "x");
        assert!(c.has("elicitation") && c.has("elicitation.form") && !c.has("elicitation.url"));
        let c = Caps::of(&json!({"elicitation": {"url": {}}}), "x");
        assert!(!c.has("elicitation.form") && c.has("elicitation.url"));
        let c = Caps::of(&json!({"elicitation": {"form": {}, "url": {}}}), "x");
        assert!(c.has("elicitation.form") && c.has("elicitation.url"));
        let c = Caps::of(&json!({"resources": {"subscribe": false}}), "x");
        assert!(c.has("resources") && !c.has("resources.subscribe"));
        let c = Caps::of(
            &json!({"resources": {"subscribe": true}, "tasks": {"requests": {"tools": {"call": {}}}}}),
            "x",
        );
        assert!(c.has("resources.subscribe") && c.has("tasks.requests.tools.call"));
        assert!(!c.has("tasks.list") && !c.has("tools"));
        let c = Caps::of(&json!({"prompts": {"listChanged": null}}), "x");
        assert!(c.has("prompts") && !c.has("prompts.listChanged"));
    }

    #[test]
    fn a_method_belongs_to_the_capability_that_always_gates_it() {
        let of = |method| capability_of(method);
        assert_eq!(of("tools/call"), Some("tools"));
        assert_eq!(of("notifications/resources/updated"), Some("resources"));
        assert_eq!(of("resources/subscribe"), Some("resources"));
        assert_eq!(of("notifications/message"), Some("logging"));
        assert_eq!(of("elicitation/create"), Some("elicitation"));
        assert_eq!(
            of("notifications/elicitation/complete"),
            Some("elicitation")
        );
        assert_eq!(of("completion/complete"), Some("completions"));
        assert_eq!(of("tasks/get"), Some("tasks"));
        for method in [
            "initialize",
            "ping",
            "subscriptions/listen",
            "notifications/progress",
        ] {
            assert_eq!(of(method), None, "{method}");
        }
    }

    #[test]
    fn rules_apply_by_method_and_condition() {
        let methods = |version, message: Value| -> Vec<&str> {
            let method = message["method"].as_str().unwrap().to_owned();
            rules_for(version, &method, &message)
                .map(|r| r.capability)
                .collect()
        };
        let v = ProtocolVersion::V2025_11_25;
        assert_eq!(
            methods(v, json!({"method": "elicitation/create", "params": {}})),
            ["elicitation.form"]
        );
        assert_eq!(
            methods(
                v,
                json!({"method": "elicitation/create", "params": {"mode": "url", "task": {}}})
            ),
            ["elicitation.url", "tasks.requests.elicitation.create"]
        );
        assert_eq!(
            methods(
                v,
                json!({"method": "sampling/createMessage", "params": {"tools": [], "includeContext": "allServers"}})
            ),
            ["sampling", "sampling.context"]
        );
        assert_eq!(
            methods(
                ProtocolVersion::V2024_11_05,
                json!({"method": "completion/complete"})
            ),
            Vec::<&str>::new()
        );
    }
}
