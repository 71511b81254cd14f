//! What the protocol revisions are beside their list: version negotiation, their names as
//! text, and the first revision of each elicitation feature.

use std::fmt;
use std::str::FromStr;

use crate::ProtocolVersion;

// `ProtocolVersion` itself (its variants, `ALL`, `as_str`, `feature`, `is_released`,
// `latest`) is generated from `schema/manifest.json`: see `revisions.rs`.
impl ProtocolVersion {
    /// The first revision with elicitation (`elicitation/create` and its forms): a form
    /// cannot be sent in an older one, and `#[elicit(min_revision)]` cannot name one.
    pub const ELICITATION: ProtocolVersion = ProtocolVersion::V2025_06_18;

    /// The first revision whose forms can hold a multi-select (`type: array` of options):
    /// older ones leave such a field out (`#[elicit(since)]`) or cannot render the form.
    pub const MULTI_SELECT: ProtocolVersion = ProtocolVersion::V2025_11_25;

    /// Version negotiation as a server does it: keep the client's `requested` version when it
    /// is among `supported`, otherwise offer the latest supported one. `None` when `supported`
    /// is empty.
    pub fn negotiate(requested: &str, supported: &[ProtocolVersion]) -> Option<ProtocolVersion> {
        if let Ok(version) = requested.parse::<ProtocolVersion>()
            && supported.contains(&version)
        {
            return Some(version);
        }
        supported
            .iter()
            .copied()
            .filter(|v| v.is_released())
            .max()
            .or_else(|| supported.iter().copied().max())
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The string is not one of the revisions in [`ProtocolVersion::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProtocolVersion(pub String);

impl fmt::Display for UnknownProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown MCP protocol version `{}`", self.0)
    }
}

impl std::error::Error for UnknownProtocolVersion {}

impl FromStr for ProtocolVersion {
    type Err = UnknownProtocolVersion;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ProtocolVersion::ALL
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| UnknownProtocolVersion(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::ProtocolVersion::{self, *};

    #[test]
    fn strings_round_trip() {
        for v in ProtocolVersion::ALL {
            assert_eq!(v.as_str().parse::<ProtocolVersion>(), Ok(v));
            assert_eq!(v.to_string(), v.as_str());
        }
        assert!("2025-13-01".parse::<ProtocolVersion>().is_err());
        assert!(ProtocolVersion::ALL.windows(2).all(|w| w[0] < w[1]));
        assert!(ProtocolVersion::ELICITATION < ProtocolVersion::MULTI_SELECT);
    }

    #[test]
    fn negotiation_keeps_a_supported_request_else_offers_the_latest() {
        let supported = [V2025_06_18, V2025_11_25, Draft];
        assert_eq!(
            ProtocolVersion::negotiate("2025-06-18", &supported),
            Some(V2025_06_18)
        );
        assert_eq!(
            ProtocolVersion::negotiate("DRAFT-2026-v1", &supported),
            Some(Draft)
        );
        // Unknown or unsupported: the latest released one supported, not the draft.
        assert_eq!(
            ProtocolVersion::negotiate("2024-11-05", &supported),
            Some(V2025_11_25)
        );
        assert_eq!(
            ProtocolVersion::negotiate("1999-01-01", &supported),
            Some(V2025_11_25)
        );
        assert_eq!(ProtocolVersion::negotiate("x", &[Draft]), Some(Draft));
        assert_eq!(ProtocolVersion::negotiate("2025-06-18", &[]), None);
        assert_eq!(ProtocolVersion::latest(), V2026_07_28);
    }
}
