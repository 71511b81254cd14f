//! The client model's verdict on elicitation answers (`elicit::client::Form::validate`) against
//! the verdicts of the official SDKs' own validators, run for real (the pinned peers of
//! `tests/peers/versions.env`, installed by `tests/peers/install.sh` as the interop tests do):
//!
//! - the Python SDK (`mcp`): `elicit_with_validation`, what `Context.elicit(message, schema)`
//!   runs: the client's result parsed as the session parses any result, then
//!   `schema.model_validate(content)` with the pydantic model a server author declares for
//!   the form (`tests/peers/elicit_agree.py` says which declaration each kind of field gets,
//!   and checks that the schema the SDK renders from the model is the form);
//! - the TypeScript SDK (`@modelcontextprotocol/sdk`): `Server.elicitInput` answered by an SDK
//!   `Client` over the SDK's in-memory transport: zod's `ElicitResultSchema`, then
//!   `AjvJsonSchemaValidator` (Ajv + ajv-formats) on `requestedSchema`
//!   (`tests/peers/elicit_agree.mjs`).
//!
//! The forms: hand-written ones covering every field kind and constraint of the spec (text
//! with and without length bounds and each format, integers and numbers with and without
//! bounds, booleans, untitled / titled / 2025-06-18 `enumNames` single-selects, untitled and
//! titled multi-selects with item counts, required and optional fields), the official
//! examples (`ElicitRequest*`, `InputRequests`) and every distinct form of the captured
//! traffic (`tests/fixtures/real-traffic`, `tests/fixtures/traffic`). For each form the test
//! derives a set of right answers (every field, the required ones only, boundary values:
//! lengths counted in code points with emoji, at-minimum / at-maximum, integral floats,
//! integers beyond 64 bits, other options, other valid formats: RFC 5321 mailboxes with
//! quoted local parts and address literals, RFC 3986's and RFC 3339's own examples) and
//! wrong ones, each breaking one rule (wrong type, a fraction for an integer, out of range,
//! too short / too long in code points, a bad email (display name, underscore, non-ASCII,
//! dots, sizes, bad literals) / URI (relative, non-ASCII, bad escape or IPv6 or port) / date /
//! date-time (offset forms, leap second off 23:59 UTC), not an option, a title instead of a
//! value, a duplicate item, too many / too few items, a missing required field, an unknown
//! key, null), plus the official example answers and every answer a real client accepted a
//! captured form with.
//!
//! It proves:
//! 1. the model accepts every right answer and refuses every wrong one (its verdicts come from
//!    calling it; "right" and "wrong" are how the answers were built);
//! 2. where an SDK's verdict differs from the model's, the difference is one of the
//!    explained, expected ones in [`EXPECTED`] (each with its reason), and every expected
//!    difference still happens: the test fails when either SDK's behaviour or ours changes.
//!
//! All pairs go to each SDK in one process (JSON on stdin, verdicts on stdout). Missing peers
//! fail the test (the install script says what to install); nothing is skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use mcp_tests::peers::{peers, scripts};
use mcp_tests::{spec_examples, workspace};
use mcp_typed::ProtocolVersion;
use mcp_typed::elicit::client::{Field, FieldKind, Form};
use mcp_typed::elicit::{Format, Num};
use serde_json::{Map, Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Sdk {
    Python,
    TypeScript,
}

use Sdk::{Python, TypeScript};

// Why an SDK's verdict differs from the model's, by class. The model's verdict is the
// intended one (how the answer was built); each reason says what the SDK does instead.

/// Python: unknown keys.
const PY_EXTRA: &str = "pydantic models ignore unknown keys by default (extra='ignore') and \
    the SDK sets no other config: an unknown key is dropped, not refused";

/// Python: null for an optional field.
const PY_NULL: &str = "an optional field without a default is declared `T | None = None` (the \
    SDK's schema generator flattens it to `T` for exactly this) and ElicitResult's content \
    admits null: null passes for it, though the spec's content has no null";

/// Python: lax coercion to numbers.
const PY_LAX_NUMBER: &str = "pydantic's default lax mode coerces a numeric string (\"7\") or \
    a boolean (true) to int / float";

/// Python: lax coercion to booleans.
const PY_LAX_BOOL: &str = "pydantic's default lax mode coerces the string \"true\" and the \
    number 1 to bool";

/// Python: no email check.
const PY_EMAIL: &str = "format email is not checked: pydantic's EmailStr needs the \
    email-validator package, which the SDK does not depend on (declaring it raises ImportError \
    in the pinned venv), so the field is a str whose schema says format: email";

/// Python: duplicate items.
const PY_DUPLICATE: &str = "a multi-select is declared list[Literal[...]]: pydantic does not \
    refuse duplicate items (set[...] would drop them silently)";

/// Python: date-time laxer than RFC 3339.
const PY_DATE_TIME: &str = "pydantic's datetime is laxer than RFC 3339: it takes a missing \
    offset (a naive time), a space for `T`, a date alone (midnight), a number (a unix \
    timestamp) and an offset without its colon (+0100; RFC 3339 section 5.6: \
    time-numoffset = (\"+\" / \"-\") time-hour \":\" time-minute)";

/// Python: the leap second.
const PY_LEAP_SECOND: &str = "pydantic's datetime refuses the leap second 23:59:60Z (or \
    15:59:60-08:00, the same second), which RFC 3339 sections 5.6 and 5.7 allow";

/// Python: URIs.
const PY_URI: &str = "pydantic's AnyUrl parses URLs as WHATWG does: it IDNA-encodes a \
    non-ASCII host, percent-encodes a non-ASCII path, keeps a bad escape (%zz) and reads a \
    backslash as a slash; RFC 3986 (format uri) allows only ASCII (section 2), `%` only \
    before two hex digits (2.1) and no backslash";

/// Python: integers beyond 64 bits.
const PY_BIG_INT: &str = "pydantic's int refuses an integral float beyond 64 bits (1e20, \
    also what 100000000000000000000 is in JSON read as binary64) as \"exceeded maximum \
    size\"; JSON Schema's integer (validation section 6.1.1) is any number with a zero \
    fractional part, of any size";

/// TypeScript: unknown keys.
const TS_EXTRA: &str = "Ajv checks the schema as written: a form's schema has no \
    `additionalProperties: false`, so unknown keys pass";

/// TypeScript: duplicate items.
const TS_DUPLICATE: &str = "Ajv checks the schema as written: the spec's multi-select schema \
    has no `uniqueItems`, so duplicate items pass";

/// TypeScript: email, quoted local part.
const TS_EMAIL_QUOTED: &str = "ajv-formats' email regex has no quoted local part; RFC 5321 \
    section 4.1.2: Local-part = Dot-string / Quoted-string";

/// TypeScript: email, address literals.
const TS_EMAIL_LITERAL: &str = "ajv-formats' email regex has no address literal; RFC 5321 \
    section 4.1.2: Mailbox = Local-part \"@\" ( Domain / address-literal ), section 4.1.3: \
    IPv4-address-literal, \"IPv6:\" IPv6-addr";

/// TypeScript: email, a one-label domain.
const TS_EMAIL_ONE_LABEL: &str = "ajv-formats' email regex wants a dot in the domain; RFC \
    5321 section 4.1.2: Domain = sub-domain *(\".\" sub-domain) takes one label";

/// TypeScript: email sizes.
const TS_EMAIL_SIZES: &str = "ajv-formats' email regex sets no size; RFC 5321 section \
    4.5.3.1.1 limits a local part to 64 octets, RFC 1035 section 2.3.4 a label to 63";

/// TypeScript: a URI whose path starts with `//`.
const TS_URI_SLASHES: &str = "ajv-formats' uri regex starts a hier-part with `\\/?\\/`: \
    `http:` + `/` (an empty authority) + the path `/example.com:80a/` passes; RFC 3986 \
    section 3: after `//` comes an authority, whose port is *DIGIT (3.2.3), and a path \
    without one cannot start with `//` (3.3)";

/// TypeScript: offsets without colon or minutes.
const TS_DATE_TIME_OFFSET: &str = "ajv-formats' date-time takes an offset without its colon \
    (+0100) or its minutes (+01); RFC 3339 section 5.6: time-numoffset = (\"+\" / \"-\") \
    time-hour \":\" time-minute";

/// TypeScript: integers beyond 2^53.
const TS_DOUBLE: &str = "JavaScript reads JSON numbers as binary64: the minimum \
    9007199254740993 becomes 9007199254740992 and the maximum 9007199254740999 becomes \
    9007199254741000, so Ajv lets 9007199254740992 and 9007199254741000 through; JSON Schema \
    validation sections 6.2.2 and 6.2.4 compare the numbers themselves (RFC 8259 section 6 \
    notes that binary64 holds integers exactly only up to 2^53)";

/// TypeScript: date-time with a space.
const TS_DATE_TIME: &str = "ajv-formats' date-time takes a space between date and time \
    (RFC 3339 mentions it in a note; its grammar, which format date-time means, wants `T`)";

/// Every expected disagreement: (case, SDK, why), grouped by reason. The cases are named
/// `<form>/<field>/<rule>` (or `<form>/<rule>` for the whole content).
#[rustfmt::skip]
const EXPECTED: &[(&str, Sdk, &str)] = &[
    ("written:text/unknown-key", Python, PY_EXTRA),
    ("written:numbers/unknown-key", Python, PY_EXTRA),
    ("written:choices/unknown-key", Python, PY_EXTRA),
    ("written:legacy/unknown-key", Python, PY_EXTRA),
    ("written:optional/unknown-key", Python, PY_EXTRA),
    ("example:elicit-single-field/unknown-key", Python, PY_EXTRA),
    ("example:elicit-multiple-fields/unknown-key", Python, PY_EXTRA),
    ("example:elicitation-request/unknown-key", Python, PY_EXTRA),
    ("captured:py-client-everything-2025-11-25/unknown-key", Python, PY_EXTRA),
    ("captured:py-client-py-server-2025-11-25/unknown-key", Python, PY_EXTRA),
    ("captured:py-client-py-server-2026-07-28/unknown-key", Python, PY_EXTRA),
    ("captured:ts-client-everything-2025-11-25/unknown-key", Python, PY_EXTRA),
    ("captured:ts-client-everything-2025-11-25#2/unknown-key", Python, PY_EXTRA),
    ("captured:session-draft/unknown-key", Python, PY_EXTRA),
    ("written:text/atLeast/null", Python, PY_NULL),
    ("written:text/atMost/null", Python, PY_NULL),
    ("written:text/one/null", Python, PY_NULL),
    ("written:text/shortEmail/null", Python, PY_NULL),
    ("written:text/site/null", Python, PY_NULL),
    ("written:text/when/null", Python, PY_NULL),
    ("written:numbers/floor/null", Python, PY_NULL),
    ("written:numbers/temperature/null", Python, PY_NULL),
    ("written:numbers/score/null", Python, PY_NULL),
    ("written:choices/hero/null", Python, PY_NULL),
    ("written:choices/fish/null", Python, PY_NULL),
    ("written:choices/pet/null", Python, PY_NULL),
    ("written:choices/colors/null", Python, PY_NULL),
    ("written:legacy/name/null", Python, PY_NULL),
    ("written:legacy/age/null", Python, PY_NULL),
    ("written:optional/note/null", Python, PY_NULL),
    ("example:elicit-multiple-fields/age/null", Python, PY_NULL),
    ("captured:py-client-everything-2025-11-25/check/null", Python, PY_NULL),
    ("captured:py-client-everything-2025-11-25/email/null", Python, PY_NULL),
    ("captured:py-client-everything-2025-11-25/homepage/null", Python, PY_NULL),
    ("captured:py-client-everything-2025-11-25/birthdate/null", Python, PY_NULL),
    ("captured:ts-client-everything-2025-11-25#2/favoriteColor/null", Python, PY_NULL),
    ("captured:ts-client-everything-2025-11-25#2/agreeToTerms/null", Python, PY_NULL),
    ("written:numbers/exact/null", Python, PY_NULL),
    ("written:numbers/count/numeric-string", Python, PY_LAX_NUMBER),
    ("written:numbers/count/boolean", Python, PY_LAX_NUMBER),
    ("written:numbers/guests/numeric-string", Python, PY_LAX_NUMBER),
    ("written:numbers/guests/boolean", Python, PY_LAX_NUMBER),
    ("written:numbers/floor/numeric-string", Python, PY_LAX_NUMBER),
    ("written:numbers/floor/boolean", Python, PY_LAX_NUMBER),
    ("written:numbers/level/numeric-string", Python, PY_LAX_NUMBER),
    ("written:numbers/level/boolean", Python, PY_LAX_NUMBER),
    ("written:numbers/ratio/numeric-string", Python, PY_LAX_NUMBER),
    ("written:numbers/ratio/boolean", Python, PY_LAX_NUMBER),
    ("written:numbers/temperature/numeric-string", Python, PY_LAX_NUMBER),
    ("written:numbers/temperature/boolean", Python, PY_LAX_NUMBER),
    ("written:numbers/score/numeric-string", Python, PY_LAX_NUMBER),
    ("written:numbers/score/boolean", Python, PY_LAX_NUMBER),
    ("written:legacy/age/numeric-string", Python, PY_LAX_NUMBER),
    ("written:legacy/age/boolean", Python, PY_LAX_NUMBER),
    ("example:elicit-multiple-fields/age/numeric-string", Python, PY_LAX_NUMBER),
    ("captured:py-client-everything-2025-11-25/integer/numeric-string", Python, PY_LAX_NUMBER),
    ("captured:py-client-everything-2025-11-25/integer/boolean", Python, PY_LAX_NUMBER),
    ("captured:py-client-everything-2025-11-25/number/numeric-string", Python, PY_LAX_NUMBER),
    ("captured:py-client-everything-2025-11-25/number/boolean", Python, PY_LAX_NUMBER),
    ("captured:py-client-py-server-2025-11-25/height_m/numeric-string", Python, PY_LAX_NUMBER),
    ("captured:py-client-py-server-2025-11-25/height_m/boolean", Python, PY_LAX_NUMBER),
    ("captured:py-client-py-server-2025-11-25/age/numeric-string", Python, PY_LAX_NUMBER),
    ("captured:py-client-py-server-2025-11-25/age/boolean", Python, PY_LAX_NUMBER),
    ("captured:py-client-py-server-2026-07-28/height_m/numeric-string", Python, PY_LAX_NUMBER),
    ("captured:py-client-py-server-2026-07-28/height_m/boolean", Python, PY_LAX_NUMBER),
    ("captured:py-client-py-server-2026-07-28/age/numeric-string", Python, PY_LAX_NUMBER),
    ("captured:py-client-py-server-2026-07-28/age/boolean", Python, PY_LAX_NUMBER),
    ("written:numbers/exact/numeric-string", Python, PY_LAX_NUMBER),
    ("written:choices/agree/string", Python, PY_LAX_BOOL),
    ("written:choices/agree/number", Python, PY_LAX_BOOL),
    ("written:choices/news/string", Python, PY_LAX_BOOL),
    ("written:choices/news/number", Python, PY_LAX_BOOL),
    ("written:legacy/agree/string", Python, PY_LAX_BOOL),
    ("written:legacy/agree/number", Python, PY_LAX_BOOL),
    ("captured:py-client-everything-2025-11-25/check/string", Python, PY_LAX_BOOL),
    ("captured:py-client-everything-2025-11-25/check/number", Python, PY_LAX_BOOL),
    ("captured:py-client-py-server-2025-11-25/subscribe/string", Python, PY_LAX_BOOL),
    ("captured:py-client-py-server-2025-11-25/subscribe/number", Python, PY_LAX_BOOL),
    ("captured:py-client-py-server-2026-07-28/subscribe/string", Python, PY_LAX_BOOL),
    ("captured:py-client-py-server-2026-07-28/subscribe/number", Python, PY_LAX_BOOL),
    ("captured:ts-client-everything-2025-11-25#2/agreeToTerms/string", Python, PY_LAX_BOOL),
    ("captured:ts-client-everything-2025-11-25#2/agreeToTerms/number", Python, PY_LAX_BOOL),
    ("captured:session-draft/ok/string", Python, PY_LAX_BOOL),
    ("captured:session-draft/ok/number", Python, PY_LAX_BOOL),
    ("written:text/email/no-at", Python, PY_EMAIL),
    ("written:text/email/space", Python, PY_EMAIL),
    ("written:text/email/double-at", Python, PY_EMAIL),
    ("written:text/shortEmail/no-at", Python, PY_EMAIL),
    ("written:text/shortEmail/space", Python, PY_EMAIL),
    ("written:text/shortEmail/double-at", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/no-at", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/space", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/double-at", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/no-at", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/space", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/double-at", Python, PY_EMAIL),
    ("written:text/email/display-name", Python, PY_EMAIL),
    ("written:text/email/underscore-in-domain", Python, PY_EMAIL),
    ("written:text/email/non-ascii-local-part", Python, PY_EMAIL),
    ("written:text/email/non-ascii-domain", Python, PY_EMAIL),
    ("written:text/email/leading-dot", Python, PY_EMAIL),
    ("written:text/email/trailing-dot", Python, PY_EMAIL),
    ("written:text/email/double-dot", Python, PY_EMAIL),
    ("written:text/email/domain-trailing-dot", Python, PY_EMAIL),
    ("written:text/email/label-leading-hyphen", Python, PY_EMAIL),
    ("written:text/email/ipv4-literal-256", Python, PY_EMAIL),
    ("written:text/email/ipv6-literal-bad-hex", Python, PY_EMAIL),
    ("written:text/email/ipv6-literal-untagged-bad", Python, PY_EMAIL),
    ("written:text/email/local-part-65-octets", Python, PY_EMAIL),
    ("written:text/email/label-64-octets", Python, PY_EMAIL),
    ("written:text/shortEmail/display-name", Python, PY_EMAIL),
    ("written:text/shortEmail/underscore-in-domain", Python, PY_EMAIL),
    ("written:text/shortEmail/non-ascii-local-part", Python, PY_EMAIL),
    ("written:text/shortEmail/non-ascii-domain", Python, PY_EMAIL),
    ("written:text/shortEmail/leading-dot", Python, PY_EMAIL),
    ("written:text/shortEmail/trailing-dot", Python, PY_EMAIL),
    ("written:text/shortEmail/double-dot", Python, PY_EMAIL),
    ("written:text/shortEmail/domain-trailing-dot", Python, PY_EMAIL),
    ("written:text/shortEmail/label-leading-hyphen", Python, PY_EMAIL),
    ("written:text/shortEmail/ipv4-literal-256", Python, PY_EMAIL),
    ("written:text/shortEmail/ipv6-literal-bad-hex", Python, PY_EMAIL),
    ("written:text/shortEmail/ipv6-literal-untagged-bad", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/display-name", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/underscore-in-domain", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/non-ascii-local-part", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/non-ascii-domain", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/leading-dot", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/trailing-dot", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/double-dot", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/domain-trailing-dot", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/label-leading-hyphen", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/ipv4-literal-256", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/ipv6-literal-bad-hex", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/ipv6-literal-untagged-bad", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/local-part-65-octets", Python, PY_EMAIL),
    ("example:elicit-multiple-fields/email/label-64-octets", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/display-name", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/underscore-in-domain", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/non-ascii-local-part", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/non-ascii-domain", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/leading-dot", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/trailing-dot", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/double-dot", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/domain-trailing-dot", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/label-leading-hyphen", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/ipv4-literal-256", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/ipv6-literal-bad-hex", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/ipv6-literal-untagged-bad", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/local-part-65-octets", Python, PY_EMAIL),
    ("captured:py-client-everything-2025-11-25/email/label-64-octets", Python, PY_EMAIL),
    ("written:choices/tags/duplicate", Python, PY_DUPLICATE),
    ("written:choices/fish/duplicate", Python, PY_DUPLICATE),
    ("written:choices/colors/duplicate", Python, PY_DUPLICATE),
    ("captured:py-client-everything-2025-11-25/untitledMultipleSelectEnum/duplicate", Python, PY_DUPLICATE),
    ("captured:py-client-everything-2025-11-25/titledMultipleSelectEnum/duplicate", Python, PY_DUPLICATE),
    ("written:text/when/no-offset", Python, PY_DATE_TIME),
    ("written:text/when/space", Python, PY_DATE_TIME),
    ("written:text/when/date-only", Python, PY_DATE_TIME),
    ("written:text/when/number", Python, PY_DATE_TIME),
    ("written:text/when/offset-without-colon", Python, PY_DATE_TIME),
    ("written:text/when/leap-second", Python, PY_LEAP_SECOND),
    ("written:text/when/leap-second-offset", Python, PY_LEAP_SECOND),
    ("written:text/site/non-ascii-host", Python, PY_URI),
    ("captured:py-client-everything-2025-11-25/homepage/non-ascii-host", Python, PY_URI),
    ("written:text/site/non-ascii-path", Python, PY_URI),
    ("written:text/site/bad-percent", Python, PY_URI),
    ("written:text/site/backslash", Python, PY_URI),
    ("captured:py-client-everything-2025-11-25/homepage/non-ascii-path", Python, PY_URI),
    ("captured:py-client-everything-2025-11-25/homepage/bad-percent", Python, PY_URI),
    ("captured:py-client-everything-2025-11-25/homepage/backslash", Python, PY_URI),
    ("written:numbers/count/huge", Python, PY_BIG_INT),
    ("written:numbers/count/huge-negative", Python, PY_BIG_INT),
    ("written:numbers/floor/huge", Python, PY_BIG_INT),
    ("written:legacy/age/huge", Python, PY_BIG_INT),
    ("captured:py-client-py-server-2025-11-25/age/huge", Python, PY_BIG_INT),
    ("captured:py-client-py-server-2025-11-25/age/huge-negative", Python, PY_BIG_INT),
    ("captured:py-client-py-server-2026-07-28/age/huge", Python, PY_BIG_INT),
    ("captured:py-client-py-server-2026-07-28/age/huge-negative", Python, PY_BIG_INT),
    ("written:text/unknown-key", TypeScript, TS_EXTRA),
    ("written:numbers/unknown-key", TypeScript, TS_EXTRA),
    ("written:choices/unknown-key", TypeScript, TS_EXTRA),
    ("written:legacy/unknown-key", TypeScript, TS_EXTRA),
    ("written:optional/unknown-key", TypeScript, TS_EXTRA),
    ("example:elicit-single-field/unknown-key", TypeScript, TS_EXTRA),
    ("example:elicit-multiple-fields/unknown-key", TypeScript, TS_EXTRA),
    ("example:elicitation-request/unknown-key", TypeScript, TS_EXTRA),
    ("captured:py-client-everything-2025-11-25/unknown-key", TypeScript, TS_EXTRA),
    ("captured:py-client-py-server-2025-11-25/unknown-key", TypeScript, TS_EXTRA),
    ("captured:py-client-py-server-2026-07-28/unknown-key", TypeScript, TS_EXTRA),
    ("captured:ts-client-everything-2025-11-25/unknown-key", TypeScript, TS_EXTRA),
    ("captured:ts-client-everything-2025-11-25#2/unknown-key", TypeScript, TS_EXTRA),
    ("captured:session-draft/unknown-key", TypeScript, TS_EXTRA),
    ("written:choices/tags/duplicate", TypeScript, TS_DUPLICATE),
    ("written:choices/fish/duplicate", TypeScript, TS_DUPLICATE),
    ("written:choices/colors/duplicate", TypeScript, TS_DUPLICATE),
    ("captured:py-client-everything-2025-11-25/untitledMultipleSelectEnum/duplicate", TypeScript, TS_DUPLICATE),
    ("captured:py-client-everything-2025-11-25/titledMultipleSelectEnum/duplicate", TypeScript, TS_DUPLICATE),
    ("written:text/when/space", TypeScript, TS_DATE_TIME),
    ("written:text/email/quoted-local-part", TypeScript, TS_EMAIL_QUOTED),
    ("written:text/shortEmail/quoted-local-part", TypeScript, TS_EMAIL_QUOTED),
    ("example:elicit-multiple-fields/email/quoted-local-part", TypeScript, TS_EMAIL_QUOTED),
    ("captured:py-client-everything-2025-11-25/email/quoted-local-part", TypeScript, TS_EMAIL_QUOTED),
    ("written:text/email/ipv4-literal", TypeScript, TS_EMAIL_LITERAL),
    ("written:text/email/ipv6-literal", TypeScript, TS_EMAIL_LITERAL),
    ("written:text/shortEmail/ipv4-literal", TypeScript, TS_EMAIL_LITERAL),
    ("written:text/shortEmail/ipv6-literal", TypeScript, TS_EMAIL_LITERAL),
    ("example:elicit-multiple-fields/email/ipv4-literal", TypeScript, TS_EMAIL_LITERAL),
    ("example:elicit-multiple-fields/email/ipv6-literal", TypeScript, TS_EMAIL_LITERAL),
    ("captured:py-client-everything-2025-11-25/email/ipv4-literal", TypeScript, TS_EMAIL_LITERAL),
    ("captured:py-client-everything-2025-11-25/email/ipv6-literal", TypeScript, TS_EMAIL_LITERAL),
    ("written:text/email/single-label-domain", TypeScript, TS_EMAIL_ONE_LABEL),
    ("written:text/shortEmail/single-label-domain", TypeScript, TS_EMAIL_ONE_LABEL),
    ("example:elicit-multiple-fields/email/single-label-domain", TypeScript, TS_EMAIL_ONE_LABEL),
    ("captured:py-client-everything-2025-11-25/email/single-label-domain", TypeScript, TS_EMAIL_ONE_LABEL),
    ("written:text/email/local-part-65-octets", TypeScript, TS_EMAIL_SIZES),
    ("written:text/email/label-64-octets", TypeScript, TS_EMAIL_SIZES),
    ("example:elicit-multiple-fields/email/local-part-65-octets", TypeScript, TS_EMAIL_SIZES),
    ("example:elicit-multiple-fields/email/label-64-octets", TypeScript, TS_EMAIL_SIZES),
    ("captured:py-client-everything-2025-11-25/email/local-part-65-octets", TypeScript, TS_EMAIL_SIZES),
    ("captured:py-client-everything-2025-11-25/email/label-64-octets", TypeScript, TS_EMAIL_SIZES),
    ("written:text/site/bad-port", TypeScript, TS_URI_SLASHES),
    ("captured:py-client-everything-2025-11-25/homepage/bad-port", TypeScript, TS_URI_SLASHES),
    ("written:text/when/offset-without-colon", TypeScript, TS_DATE_TIME_OFFSET),
    ("written:text/when/offset-hours-only", TypeScript, TS_DATE_TIME_OFFSET),
    ("written:numbers/exact/below-minimum", TypeScript, TS_DOUBLE),
    ("written:numbers/exact/above-maximum", TypeScript, TS_DOUBLE),
];

// ---------------------------------------------------------------------------------------
// The forms.

/// A form the SDKs and the model are asked about.
struct FormCase {
    name: String,
    version: ProtocolVersion,
    params: Value,
    form: Form,
}

/// One answer to one form.
struct Case {
    name: String,
    form: usize,
    content: Map<String, Value>,
    /// How it was built: a right answer or one breaking one rule.
    right: bool,
}

fn params(message: &str, schema: Value) -> Value {
    json!({"message": message, "requestedSchema": schema})
}

/// Forms covering every field kind and constraint of the spec.
fn written_forms() -> Vec<(String, ProtocolVersion, Value)> {
    let v11 = ProtocolVersion::V2025_11_25;
    vec![
        (
            "text".into(),
            v11,
            params(
                "Text fields",
                json!({"type": "object", "properties": {
                    "plain": {"type": "string", "title": "Anything"},
                    "between": {"type": "string", "minLength": 2, "maxLength": 4},
                    "atLeast": {"type": "string", "minLength": 3},
                    "atMost": {"type": "string", "maxLength": 3},
                    "one": {"type": "string", "minLength": 1},
                    "email": {"type": "string", "format": "email"},
                    "shortEmail": {"type": "string", "format": "email", "maxLength": 20},
                    "site": {"type": "string", "format": "uri"},
                    "day": {"type": "string", "format": "date"},
                    "when": {"type": "string", "format": "date-time"}
                }, "required": ["plain", "between", "email", "day"]}),
            ),
        ),
        (
            "numbers".into(),
            v11,
            params(
                "Numbers",
                json!({"type": "object", "properties": {
                    "count": {"type": "integer"},
                    "guests": {"type": "integer", "minimum": 1, "maximum": 12},
                    "floor": {"type": "integer", "minimum": -3},
                    "level": {"type": "integer", "minimum": 0, "maximum": 10, "default": 5},
                    "ratio": {"type": "number"},
                    "temperature": {"type": "number", "minimum": -10.5, "maximum": 40.5},
                    "score": {"type": "number", "maximum": 100},
                    "exact": {"type": "integer", "minimum": 9007199254740993_u64,
                        "maximum": 9007199254740999_u64}
                }, "required": ["count", "guests", "ratio"]}),
            ),
        ),
        (
            "choices".into(),
            v11,
            params(
                "Choices",
                json!({"type": "object", "properties": {
                    "agree": {"type": "boolean"},
                    "news": {"type": "boolean", "default": false},
                    "size": {"type": "string", "enum": ["s", "m", "l"]},
                    "hero": {"type": "string", "oneOf": [
                        {"const": "hero-1", "title": "Superman"},
                        {"const": "hero-2", "title": "Batman"}
                    ]},
                    "tags": {"type": "array", "minItems": 1, "maxItems": 2,
                        "items": {"type": "string", "enum": ["a", "b", "c", "d"]}},
                    "fish": {"type": "array", "items": {"anyOf": [
                        {"const": "fish-1", "title": "Tuna"},
                        {"const": "fish-2", "title": "Salmon"},
                        {"const": "fish-3", "title": "Trout"}
                    ]}},
                    "pet": {"type": "array", "maxItems": 1,
                        "items": {"type": "string", "enum": ["cat", "dog"]}},
                    "colors": {"type": "array", "minItems": 2,
                        "items": {"type": "string", "enum": ["red", "green", "blue"]}}
                }, "required": ["agree", "size", "tags"]}),
            ),
        ),
        (
            "legacy".into(),
            ProtocolVersion::V2025_06_18,
            params(
                "2025-06-18",
                json!({"type": "object", "properties": {
                    "size": {"type": "string", "enum": ["s", "m"], "enumNames": ["Small", "Medium"]},
                    "agree": {"type": "boolean", "default": true},
                    "name": {"type": "string", "maxLength": 10},
                    "age": {"type": "integer", "minimum": 0}
                }, "required": ["size"]}),
            ),
        ),
        (
            "optional".into(),
            v11,
            params(
                "Nothing required",
                json!({"type": "object", "properties": {
                    "note": {"type": "string"}
                }}),
            ),
        ),
    ]
}

/// The official example forms and the answers given to them (`draft`, `2026-07-28`).
fn example_forms() -> Vec<(String, Value, Vec<Value>)> {
    let mut out: Vec<(String, Value, Vec<Value>)> = Vec::new();
    for revision in ["2026-07-28", "draft"] {
        let examples: BTreeMap<(String, String), Value> = spec_examples(revision)
            .into_iter()
            .map(|(definition, file, value)| ((definition, file), value))
            .collect();
        let get = |definition: &str, file: &str| -> &Value {
            examples
                .get(&(definition.to_owned(), file.to_owned()))
                .unwrap_or_else(|| panic!("{revision}: no example {definition}/{file}"))
        };
        let single = get("ElicitResult", "input-single-field.json")["content"].clone();
        let multiple = get("ElicitResult", "input-multiple-fields.json")["content"].clone();
        out.push((
            "elicit-single-field".into(),
            get("ElicitRequestFormParams", "elicit-single-field.json").clone(),
            vec![single.clone()],
        ));
        out.push((
            "elicit-multiple-fields".into(),
            get("ElicitRequestFormParams", "elicit-multiple-fields.json").clone(),
            vec![multiple],
        ));
        out.push((
            "elicitation-request".into(),
            get("ElicitRequest", "elicitation-request.json")["params"].clone(),
            vec![single],
        ));
        let requests = get(
            "InputRequests",
            "elicitation-and-sampling-input-requests.json",
        );
        let responses = get(
            "InputResponses",
            "elicitation-and-sampling-input-responses.json",
        );
        for (key, request) in requests.as_object().unwrap() {
            if request["method"] == "elicitation/create" {
                out.push((
                    format!("input-request-{key}"),
                    request["params"].clone(),
                    vec![responses[key]["content"].clone()],
                ));
            }
        }
    }
    out
}

fn version_of(file: &Path) -> ProtocolVersion {
    let name = file.file_name().unwrap().to_string_lossy();
    ProtocolVersion::ALL
        .iter()
        .rev()
        .copied()
        .find(|v| name.contains(v.as_str()))
        .unwrap_or_else(ProtocolVersion::latest)
}

/// A form seen in captured traffic, and the answers real clients accepted it with.
struct Captured {
    file: PathBuf,
    version: ProtocolVersion,
    params: Value,
    answers: Vec<Value>,
}

/// Every distinct form (by `requestedSchema`) of the captured sessions, as
/// `tests/elicitation/elicit_client.rs` collects them: `elicitation/create` requests matched to
/// their responses by id, 2026-07-28 input requests to the retry's input responses by key. A form
/// seen at several revisions is read at the latest.
fn captured_forms() -> Vec<Captured> {
    let root = workspace().join("tests/fixtures");
    let mut forms: Vec<Captured> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    for dir in ["real-traffic", "traffic"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
            .collect();
        files.sort();
        for file in files {
            let version = version_of(&file);
            let mut by_id: BTreeMap<String, usize> = BTreeMap::new();
            let mut by_key: BTreeMap<String, usize> = BTreeMap::new();
            let mut see = |params: &Value| -> Option<usize> {
                if params.get("mode").and_then(Value::as_str) == Some("url") {
                    return None;
                }
                let key = params["requestedSchema"].to_string();
                let i = *index.entry(key).or_insert_with(|| {
                    forms.push(Captured {
                        file: file.clone(),
                        version,
                        params: params.clone(),
                        answers: Vec::new(),
                    });
                    forms.len() - 1
                });
                if version > forms[i].version {
                    forms[i].file = file.clone();
                    forms[i].version = version;
                    forms[i].params = params.clone();
                }
                Some(i)
            };
            let mut answers: Vec<(usize, Value)> = Vec::new();
            for line in std::fs::read_to_string(&file).unwrap().lines() {
                // `bad-lines-*.jsonl` holds deliberately broken lines.
                let Ok(entry) = serde_json::from_str::<Value>(line) else {
                    continue;
                };
                let msg = entry.get("msg").unwrap_or(&entry);
                if msg["method"] == "elicitation/create"
                    && let Some(i) = see(&msg["params"])
                {
                    by_id.insert(msg["id"].to_string(), i);
                }
                if let Some(Value::Object(requests)) = msg.pointer("/result/inputRequests") {
                    for (key, request) in requests {
                        if request["method"] == "elicitation/create"
                            && let Some(i) = see(&request["params"])
                        {
                            by_key.insert(key.clone(), i);
                        }
                    }
                }
                let mut accepted = |i: usize, result: &Value| {
                    if result["action"] == "accept" && result["content"].is_object() {
                        answers.push((i, result["content"].clone()));
                    }
                };
                if let Some(&i) = msg.get("id").and_then(|id| by_id.get(&id.to_string()))
                    && let Some(result) = msg.get("result")
                {
                    accepted(i, result);
                }
                if let Some(Value::Object(responses)) = msg.pointer("/params/inputResponses") {
                    for (key, result) in responses {
                        if let Some(&i) = by_key.get(key) {
                            accepted(i, result);
                        }
                    }
                }
            }
            for (i, content) in answers {
                if !forms[i].answers.contains(&content) {
                    forms[i].answers.push(content);
                }
            }
        }
    }
    forms
}

// ---------------------------------------------------------------------------------------
// The answers.

fn emoji(n: u64) -> Value {
    // One code point, two UTF-16 units, four UTF-8 bytes each.
    Value::from("😀".repeat(n as usize))
}

fn ascii(n: u64) -> Value {
    Value::from("a".repeat(n as usize))
}

fn format_sample(format: Format) -> &'static str {
    match format {
        Format::Email => "ada@example.com",
        Format::Uri => "https://example.com/ada",
        Format::Date => "2024-02-29",
        Format::DateTime => "2024-02-29T12:30:00Z",
        Format::IdnEmail => "zoë@example.com",
    }
}

/// Integer bounds as integers (exactly: an integer bound beyond 2^53 is not rounded).
fn int_bounds(field: &Field) -> (Option<i64>, Option<i64>) {
    let int = |n: Num, round: fn(f64) -> f64| match n {
        Num::Int(i) => i64::try_from(i).unwrap(),
        Num::Float(f) => round(f) as i64,
    };
    match &field.kind {
        FieldKind::Integer { minimum, maximum } => (
            minimum.map(|n| int(n, f64::ceil)),
            maximum.map(|n| int(n, f64::floor)),
        ),
        _ => (None, None),
    }
}

fn int_sample(field: &Field) -> i64 {
    match int_bounds(field) {
        (Some(lo), Some(hi)) => lo + (hi - lo) / 2,
        (Some(lo), None) => lo + 1,
        (None, Some(hi)) => hi - 1,
        (None, None) => 7,
    }
}

fn number_sample(lo: Option<f64>, hi: Option<f64>) -> f64 {
    match (lo, hi) {
        (Some(lo), Some(hi)) => (lo + hi) / 2.0,
        (Some(lo), None) => lo + 1.5,
        (None, Some(hi)) => hi - 1.5,
        (None, None) => 2.5,
    }
}

fn choices(n: usize, values: &[String]) -> Value {
    Value::from(values[..n].to_vec())
}

/// A right value for the field, not at any boundary.
fn sample(field: &Field) -> Value {
    match &field.kind {
        FieldKind::Text {
            format: Some(format),
            ..
        } => Value::from(format_sample(*format)),
        FieldKind::Text {
            format: None,
            min_length,
            max_length,
            ..
        } => match (min_length, max_length) {
            (None, None) => Value::from("Ada Lovelace"),
            _ => ascii(
                min_length
                    .unwrap_or(1)
                    .max(1)
                    .min(max_length.unwrap_or(u64::MAX)),
            ),
        },
        FieldKind::Integer { .. } => Value::from(int_sample(field)),
        FieldKind::Number { minimum, maximum } => Value::from(number_sample(
            minimum.map(|n| n.as_f64()),
            maximum.map(|n| n.as_f64()),
        )),
        FieldKind::Boolean => Value::Bool(true),
        FieldKind::SingleSelect { options, .. } => Value::from(options[0].value.clone()),
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
        } => {
            let values: Vec<String> = options.iter().map(|o| o.value.clone()).collect();
            let k = (min_items.unwrap_or(0).max(1) as usize)
                .min(max_items.map_or(usize::MAX, |m| m as usize))
                .min(values.len());
            choices(k, &values)
        }
        other => panic!("a field kind this test does not know: {other:?}"),
    }
}

/// `(rule, value)` pairs.
type Examples = &'static [(&'static str, &'static str)];

/// Values for the field in place of its sample: `(rule, value, right)`, each wrong one
/// breaking one rule.
fn variants(field: &Field) -> Vec<(String, Value, bool)> {
    let mut out: Vec<(String, Value, bool)> = vec![("null".into(), Value::Null, false)];
    let mut add = |rule: &str, value: Value, right: bool| out.push((rule.into(), value, right));
    match &field.kind {
        FieldKind::Text {
            format: Some(format),
            min_length,
            max_length,
            ..
        } => {
            let (rights, wrongs): (Examples, Examples) = match format {
                // RFC 5321 section 4.1.2 `Mailbox`, ASCII (RFC 6531's is `idn-email`).
                Format::Email => (
                    &[
                        ("subaddress", "a.b+c@example.co.uk"),
                        ("quoted-local-part", "\"Ada L\"@example.com"),
                        ("ipv4-literal", "ada@[192.0.2.1]"),
                        ("ipv6-literal", "a@[IPv6:2001:db8::1]"),
                        ("single-label-domain", "ada@localhost"),
                    ],
                    &[
                        ("no-at", "ada.example.com"),
                        ("space", "a b@example.com"),
                        ("double-at", "ada@@example.com"),
                        ("display-name", "Ada <a@example.com>"),
                        ("underscore-in-domain", "ada@exa_mple.com"),
                        ("non-ascii-local-part", "zoë@example.com"),
                        ("non-ascii-domain", "ada@bücher.example"),
                        ("leading-dot", ".ada@example.com"),
                        ("trailing-dot", "ada.@example.com"),
                        ("double-dot", "a..b@example.com"),
                        ("domain-trailing-dot", "ada@example.com."),
                        ("label-leading-hyphen", "ada@-example.com"),
                        ("ipv4-literal-256", "ada@[192.0.2.256]"),
                        ("ipv6-literal-bad-hex", "a@[IPv6:2001:db8::g]"),
                        ("ipv6-literal-untagged-bad", "a@[::1]"),
                    ],
                ),
                // RFC 3986 section 3 `URI`; the examples of section 1.1.2.
                Format::Uri => (
                    &[
                        ("urn", "urn:isbn:0451450523"),
                        ("mailto", "mailto:ada@example.com"),
                        ("ftp", "ftp://ftp.is.co.za/rfc/rfc1808.txt"),
                        ("ldap-ipv6", "ldap://[2001:db8::7]/c=GB?objectClass?one"),
                        ("news", "news:comp.infosystems.www.servers.unix"),
                        ("tel", "tel:+1-816-555-1212"),
                        ("telnet-port", "telnet://192.0.2.16:80/"),
                        (
                            "urn-oasis",
                            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
                        ),
                    ],
                    &[
                        ("no-scheme", "example.com/ada"),
                        ("space", "https://exa mple.com/"),
                        ("non-ascii-host", "https://例え.jp/"),
                        ("network-path", "//example.com/ada"),
                        ("non-ascii-path", "https://example.com/ä"),
                        ("bad-percent", "https://example.com/%zz"),
                        ("bad-ipv6", "http://[2001:db8::7::1]/"),
                        ("bad-port", "http://example.com:80a/"),
                        ("backslash", "https://evil.example\\@example.com/"),
                    ],
                ),
                Format::Date => (
                    &[("leap-day-2000", "2000-02-29")],
                    &[
                        ("not-a-leap-year", "2023-02-29"),
                        ("unpadded", "2024-2-9"),
                        ("date-time", "2024-02-29T12:30:00Z"),
                    ],
                ),
                // RFC 3339 section 5.6 `date-time`; the examples of section 5.8.
                Format::DateTime => (
                    &[
                        ("fraction-and-offset", "1985-04-12T23:20:50.52+02:00"),
                        ("lowercase", "1985-04-12t23:20:50z"),
                        ("leap-second", "1990-12-31T23:59:60Z"),
                        ("negative-offset", "1996-12-19T16:39:57-08:00"),
                        ("leap-second-offset", "1990-12-31T15:59:60-08:00"),
                        ("minutes-offset", "1937-01-01T12:00:27.87+00:20"),
                    ],
                    &[
                        ("no-offset", "2024-02-29T12:30:00"),
                        ("space", "2024-02-29 12:30:00Z"),
                        ("hour-24", "2024-02-29T24:00:00Z"),
                        ("date-only", "2024-02-29"),
                        ("offset-without-colon", "2024-02-29T12:30:00+0100"),
                        ("offset-hours-only", "2024-02-29T12:30:00+01"),
                        ("leap-second-not-23-59-utc", "1990-12-31T23:59:60+01:00"),
                        ("empty-fraction", "1985-04-12T23:20:50.Z"),
                    ],
                ),
                Format::IdnEmail => panic!("the SDKs take no idn-email form"),
            };
            // Each breaks no length bound: a wrong one breaks one rule only.
            let fits = |value: &str| {
                let n = value.chars().count() as u64;
                min_length.is_none_or(|min| n >= min) && max_length.is_none_or(|max| n <= max)
            };
            for (rule, value) in rights.iter().filter(|(_, v)| fits(v)) {
                add(rule, Value::from(*value), true);
            }
            for (rule, value) in wrongs.iter().filter(|(_, v)| fits(v)) {
                add(rule, Value::from(*value), false);
            }
            if *format == Format::Email {
                // RFC 5321 section 4.5.3.1.1 and RFC 1035 section 2.3.4.
                let long_local = format!("{}@example.com", "a".repeat(65));
                let long_label = format!("ada@{}.com", "b".repeat(64));
                for (rule, value) in [
                    ("local-part-65-octets", long_local),
                    ("label-64-octets", long_label),
                ] {
                    if fits(&value) {
                        add(rule, Value::from(value), false);
                    }
                }
            }
            if let (Format::Email, Some(max)) = (format, max_length) {
                let domain = "@example.com";
                let local = |n: u64| "a".repeat(n as usize - domain.len());
                add("at-max-length", Value::from(local(*max) + domain), true);
                add("too-long", Value::from(local(max + 1) + domain), false);
            }
            add("number", json!(42), false);
        }
        FieldKind::Text {
            format: None,
            min_length,
            max_length,
            ..
        } => {
            let min = min_length.unwrap_or(0);
            if min == 0 {
                add("empty", Value::from(""), true);
            }
            if let Some(max) = *max_length
                && max >= min.max(1)
            {
                // `max` code points: 2 × `max` UTF-16 units.
                add("emoji-at-max-length", emoji(max), true);
            }
            if min >= 1 && max_length.is_none_or(|max| min < max) {
                add("emoji-at-min-length", emoji(min), true);
            }
            if min >= 2 {
                // `min - 1` code points, but 2 × (`min` - 1) ≥ `min` UTF-16 units.
                add("too-short-emoji", emoji(min - 1), false);
            } else if min == 1 {
                add("too-short-empty", Value::from(""), false);
            }
            if let Some(max) = *max_length {
                add("too-long", ascii(max + 1), false);
                add("too-long-emoji", emoji(max + 1), false);
            }
            if min_length.is_none() && max_length.is_none() {
                add("non-ascii", Value::from("Zoë 😀 Ünïcødé"), true);
            }
            add("number", json!(42), false);
        }
        FieldKind::Integer { .. } => {
            let (lo, hi) = int_bounds(field);
            let sample = int_sample(field);
            if let Some(lo) = lo {
                add("at-minimum", json!(lo), true);
            }
            if let Some(hi) = hi
                && Some(hi) != lo
            {
                add("at-maximum", json!(hi), true);
            }
            add("integral-float", json!(sample as f64), true);
            let fraction = if hi.is_none_or(|hi| sample < hi) {
                sample as f64 + 0.5
            } else {
                sample as f64 - 0.5
            };
            // (Beyond 2^52 an f64 has no halves.)
            if fraction.fract() != 0.0 {
                add("fraction", json!(fraction), false);
            }
            // JSON Schema's integer has no size limit: beyond 64 bits.
            // (100000000000000000000 too: serde_json holds it as this f64, written `1e20`.)
            add("huge", json!(1e20), hi.is_none());
            add("huge-negative", json!(-1e20), lo.is_none());
            add("numeric-string", json!(sample.to_string()), false);
            add("boolean", json!(true), false);
            if let Some(lo) = lo {
                add("below-minimum", json!(lo - 1), false);
            }
            if let Some(hi) = hi {
                add("above-maximum", json!(hi + 1), false);
            }
        }
        FieldKind::Number { minimum, maximum } => {
            let (lo, hi) = (minimum.map(|n| n.as_f64()), maximum.map(|n| n.as_f64()));
            let sample = number_sample(lo, hi);
            if let Some(min) = minimum {
                add("at-minimum", Value::Number(min.to_json().unwrap()), true);
            }
            if let Some(max) = maximum {
                add("at-maximum", Value::Number(max.to_json().unwrap()), true);
            }
            let whole = sample.round();
            if lo.is_none_or(|lo| whole >= lo) && hi.is_none_or(|hi| whole <= hi) {
                add("integer-literal", json!(whole as i64), true);
            }
            add("numeric-string", json!(sample.to_string()), false);
            add("boolean", json!(true), false);
            if let Some(lo) = lo {
                add("below-minimum", json!(lo - 1.0), false);
            }
            if let Some(hi) = hi {
                add("above-maximum", json!(hi + 1.0), false);
            }
        }
        FieldKind::Boolean => {
            add("false", json!(false), true);
            add("string", json!("true"), false);
            add("number", json!(1), false);
        }
        FieldKind::SingleSelect { options, .. } => {
            let is_option = |s: &str| options.iter().any(|o| o.value == s);
            if options.len() > 1 {
                add("last-option", json!(options.last().unwrap().value), true);
            }
            add("not-an-option", json!("not-an-option"), false);
            if let Some(title) = &options[0].title
                && !is_option(title)
            {
                add("title", json!(title), false);
            }
            let upper = options[0].value.to_uppercase();
            if !is_option(&upper) {
                add("other-case", json!(upper), false);
            }
            add("number", json!(1), false);
            add("array", json!([options[0].value]), false);
        }
        FieldKind::MultiSelect {
            options,
            min_items,
            max_items,
        } => {
            let values: Vec<String> = options.iter().map(|o| o.value.clone()).collect();
            let is_option = |s: &str| values.iter().any(|v| v == s);
            let len = values.len();
            let min = min_items.unwrap_or(0) as usize;
            let max = max_items.map(|m| m as usize);
            let Value::Array(sample) = sample(field) else {
                unreachable!()
            };
            let k = sample.len();
            if min == 0 && k > 0 {
                add("empty", json!([]), true);
            }
            if min >= 1 && min != k {
                add("at-min-items", choices(min, &values), true);
            }
            if let Some(max) = max
                && max <= len
                && max > k
            {
                add("at-max-items", choices(max, &values), true);
            }
            if max.is_none() && len > k {
                add("all-options", choices(len, &values), true);
            }
            let replace_first = |item: Value| {
                let mut items = sample.clone();
                items[0] = item;
                Value::Array(items)
            };
            if k >= 1 {
                add(
                    "item-not-an-option",
                    replace_first(json!("not-an-option")),
                    false,
                );
                if let Some(title) = &options[0].title
                    && !is_option(title)
                {
                    add("item-title", replace_first(json!(title)), false);
                }
                add("item-number", replace_first(json!(1)), false);
            }
            if k >= 2 {
                let mut items = sample.clone();
                items[1] = items[0].clone();
                add("duplicate", Value::Array(items), false);
            } else if k == 1 && max.is_none_or(|max| max >= 2) {
                add("duplicate", json!([values[0], values[0]]), false);
            }
            if let Some(max) = max
                && max < len
            {
                add("too-many", choices(max + 1, &values), false);
            }
            if min >= 1 {
                add("too-few", choices(min - 1, &values), false);
            }
            add("string", json!(values[0]), false);
        }
        other => panic!("a field kind this test does not know: {other:?}"),
    }
    out
}

/// The answers to one form: right ones, and wrong ones breaking one rule each.
fn answers(index: usize, fc: &FormCase, out: &mut Vec<Case>) {
    let form = &fc.form;
    let mut push = |rule: String, content: Map<String, Value>, right: bool| {
        out.push(Case {
            name: format!("{}/{rule}", fc.name),
            form: index,
            content,
            right,
        })
    };
    let full: Map<String, Value> = form
        .fields()
        .iter()
        .map(|f| (f.name.clone(), sample(f)))
        .collect();
    push("all-fields".into(), full.clone(), true);
    let required: Map<String, Value> = full
        .iter()
        .filter(|(name, _)| form.field(name).unwrap().required)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if required.len() != full.len() {
        push("required-only".into(), required, true);
    }
    for field in form.fields() {
        for (rule, value, right) in variants(field) {
            let mut content = full.clone();
            content.insert(field.name.clone(), value);
            push(format!("{}/{rule}", field.name), content, right);
        }
        if field.required {
            let mut content = full.clone();
            content.remove(&field.name);
            push(format!("{}/missing", field.name), content, false);
        }
    }
    let mut unknown = String::from("unexpected");
    while form.field(&unknown).is_some() {
        unknown.push('_');
    }
    let mut content = full;
    content.insert(unknown, json!("surprise"));
    push("unknown-key".into(), content, false);
}

// ---------------------------------------------------------------------------------------
// The SDKs.

/// An SDK's verdict on one case.
#[derive(Debug, Clone)]
struct Verdict {
    accept: bool,
    stage: String,
    error: String,
}

/// Starts an SDK's script with every form and case on stdin; returns its report.
fn ask(sdk: Sdk, input: &[u8]) -> std::process::Child {
    let peers = peers();
    let mut cmd: Command = match sdk {
        Python => {
            let mut cmd = peers.python();
            cmd.arg(scripts().join("elicit_agree.py"));
            cmd
        }
        TypeScript => {
            let mut cmd = peers.node();
            cmd.arg(scripts().join("elicit_agree.mjs"));
            cmd.arg("--node-modules").arg(peers.node_modules());
            cmd
        }
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start the {sdk:?} SDK's script: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    std::thread::spawn(move || {
        stdin.write_all(&input).ok();
    });
    child
}

fn report(sdk: Sdk, child: std::process::Child) -> Value {
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the {sdk:?} SDK's script failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "the {sdk:?} SDK's script printed no report ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn verdicts(sdk: Sdk, report: &Value, cases: usize) -> Vec<Verdict> {
    let verdicts: Vec<Verdict> = report["verdicts"]
        .as_array()
        .unwrap_or_else(|| panic!("{sdk:?}: no verdicts in {report}"))
        .iter()
        .map(|v| Verdict {
            accept: v["accept"].as_bool().unwrap(),
            stage: v["stage"].as_str().unwrap_or_default().to_owned(),
            error: v["error"].as_str().unwrap_or_default().to_owned(),
        })
        .collect();
    assert_eq!(verdicts.len(), cases, "{sdk:?}: one verdict per case");
    verdicts
}

// ---------------------------------------------------------------------------------------

fn all_forms() -> (Vec<FormCase>, Vec<Case>) {
    let mut forms: Vec<FormCase> = Vec::new();
    let mut extra: Vec<(usize, String, Value)> = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut add_form = |forms: &mut Vec<FormCase>, name: String, version, params: Value| {
        let key = params["requestedSchema"].to_string();
        if let Some(&i) = seen.get(&key) {
            return i;
        }
        let form = Form::from_params(&params, version)
            .unwrap_or_else(|e| panic!("the model cannot read the form {name}: {e}\n{params}"));
        forms.push(FormCase {
            name,
            version,
            params,
            form,
        });
        seen.insert(key, forms.len() - 1);
        forms.len() - 1
    };
    for (name, version, params) in written_forms() {
        add_form(&mut forms, format!("written:{name}"), version, params);
    }
    for (name, params, contents) in example_forms() {
        let i = add_form(
            &mut forms,
            format!("example:{name}"),
            ProtocolVersion::V2026_07_28,
            params,
        );
        for content in contents {
            extra.push((i, "example-answer".into(), content));
        }
    }
    for captured in captured_forms() {
        let stem = captured.file.file_stem().unwrap().to_string_lossy();
        let mut name = format!("captured:{stem}");
        let mut n = 2;
        while forms.iter().any(|f| f.name == name) {
            name = format!("captured:{stem}#{n}");
            n += 1;
        }
        let i = add_form(&mut forms, name, captured.version, captured.params);
        for content in captured.answers {
            extra.push((i, "captured-answer".into(), content));
        }
    }
    let mut cases = Vec::new();
    for (i, fc) in forms.iter().enumerate() {
        answers(i, fc, &mut cases);
    }
    // The official and the real answers, each once per form.
    let mut counts: BTreeMap<(usize, String), usize> = BTreeMap::new();
    let mut given: BTreeSet<(usize, String)> = BTreeSet::new();
    for (i, kind, content) in extra {
        if !given.insert((i, content.to_string())) {
            continue;
        }
        let n = counts.entry((i, kind.clone())).or_insert(0);
        *n += 1;
        cases.push(Case {
            name: format!("{}/{kind}-{n}", forms[i].name),
            form: i,
            content: content.as_object().unwrap().clone(),
            right: true,
        });
    }
    (forms, cases)
}

#[test]
#[cfg_attr(
    not(feature = "interop"),
    ignore = "needs node, npm and python3, and the network once to install the pinned peers: feature `interop` (.ci/run turns it on)"
)]
fn the_model_agrees_with_both_sdks_on_right_and_wrong_answers() {
    let started = Instant::now();
    let (forms, cases) = all_forms();
    let names: BTreeSet<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), cases.len(), "case names are unique");

    // The SDKs, both at once.
    let input = serde_json::to_vec(&json!({
        // The form only: a captured request's `task` or `_meta` is no part of it.
        "forms": forms.iter().map(|f| json!({
            "name": f.name,
            "version": f.version.as_str(),
            "params": params(f.params["message"].as_str().unwrap(), f.params["requestedSchema"].clone()),
        })).collect::<Vec<_>>(),
        "cases": cases.iter().map(|c| json!({
            "name": c.name, "form": c.form, "content": c.content
        })).collect::<Vec<_>>(),
    }))
    .unwrap();
    let children = [Python, TypeScript].map(|sdk| (sdk, ask(sdk, &input)));

    // 1. The model: every right answer accepted, every wrong one refused.
    let model: Vec<Result<(), String>> = cases
        .iter()
        .map(|c| {
            forms[c.form]
                .form
                .validate(&c.content)
                .map_err(|e| e.to_string())
        })
        .collect();
    let wrong_verdicts: Vec<String> = cases
        .iter()
        .zip(&model)
        .filter(|(c, m)| m.is_ok() != c.right)
        .map(|(c, m)| {
            format!(
                "{} ({}): {:?}\n  {}",
                c.name,
                if c.right { "right" } else { "wrong" },
                m,
                Value::Object(c.content.clone())
            )
        })
        .collect();
    assert!(
        wrong_verdicts.is_empty(),
        "the model's verdict is not the intended one for {} answers:\n{}",
        wrong_verdicts.len(),
        wrong_verdicts.join("\n")
    );

    // 2. The SDKs' verdicts against the model's.
    let mut reports = BTreeMap::new();
    for (sdk, child) in children {
        reports.insert(sdk, report(sdk, child));
    }
    let py = &reports[&Python];
    assert_eq!(
        py["declarations"],
        json!([]),
        "the pydantic models declared for these forms do not render as the forms"
    );
    let ts = &reports[&TypeScript];
    assert_eq!(
        ts["forms"],
        json!([]),
        "the TypeScript SDK's client refuses these forms"
    );

    // Each with its reason and the reason's rank (where EXPECTED first gives it).
    let expected: BTreeMap<(&str, Sdk), (usize, &str)> = EXPECTED
        .iter()
        .map(|&(case, sdk, why)| {
            let rank = EXPECTED.iter().position(|e| e.2 == why).unwrap();
            ((case, sdk), (rank, why))
        })
        .collect();
    assert_eq!(
        expected.len(),
        EXPECTED.len(),
        "EXPECTED lists a case twice"
    );
    let mut unexpected = Vec::new();
    let mut found: BTreeSet<(&str, Sdk)> = BTreeSet::new();
    let mut summary = Vec::new();
    for (&sdk, report) in &reports {
        let verdicts = verdicts(sdk, report, cases.len());
        // Per reason, in the order EXPECTED lists them: (reason, accepted, refused).
        let mut by_reason: BTreeMap<usize, (&str, usize, usize)> = BTreeMap::new();
        let mut agree = 0;
        for (c, v) in cases.iter().zip(&verdicts) {
            if v.accept == c.right {
                agree += 1;
                continue;
            }
            found.insert((c.name.as_str(), sdk));
            match expected.get(&(c.name.as_str(), sdk)) {
                Some(&(rank, why)) => {
                    let n = by_reason.entry(rank).or_insert((why, 0, 0));
                    if v.accept { n.1 += 1 } else { n.2 += 1 }
                }
                None => unexpected.push(format!(
                    "    ({:?}, {sdk:?}, REASON), // SDK {}; model {}; {} {}\n        {}",
                    c.name,
                    if v.accept { "accepts" } else { "refuses" },
                    if c.right { "accepts" } else { "refuses" },
                    v.stage,
                    v.error.replace('\n', " "),
                    Value::Object(c.content.clone()),
                )),
            }
        }
        summary.push(format!(
            "{sdk:?} ({}): {} cases, {agree} agreements, {} disagreements",
            report["sdk"].as_str().unwrap_or("?"),
            cases.len(),
            cases.len() - agree
        ));
        for (why, accepts, refuses) in by_reason.into_values() {
            summary.push(format!(
                "  {accepts} accepted and {refuses} refused against the model: {why}"
            ));
        }
    }
    let gone: Vec<String> = EXPECTED
        .iter()
        .filter(|(case, sdk, _)| !found.contains(&(*case, *sdk)))
        .map(|(case, sdk, why)| format!("    {case} ({sdk:?}): {why}"))
        .collect();
    let right = cases.iter().filter(|c| c.right).count();
    let given = |kind: &str| cases.iter().filter(|c| c.name.contains(kind)).count();
    eprintln!(
        "{} forms, {} cases ({right} right, of which {} official and {} real answers; {} wrong), {:.1}s\n{}",
        forms.len(),
        cases.len(),
        given("/example-answer-"),
        given("/captured-answer-"),
        cases.len() - right,
        started.elapsed().as_secs_f64(),
        summary.join("\n")
    );
    assert!(
        unexpected.is_empty() && gone.is_empty(),
        "the SDKs' verdicts changed.\nNew disagreements ({}):\n{}\nExpected disagreements that no longer happen ({}):\n{}",
        unexpected.len(),
        unexpected.join("\n"),
        gone.len(),
        gone.join("\n")
    );
}
