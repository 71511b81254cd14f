//! [`Extra`]: the members an object type does not declare, kept as open JSON.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

/// The members an object does not declare (the `extra` field of every generated type whose
/// schema leaves it open), in the order they came: a JSON object map that takes one pointer of
/// room, and no allocation, until a member is kept.
///
/// It reads and writes as the [`Map`] it holds: `extra.get("k")`, `extra.insert(k, v)`,
/// `extra.is_empty()`, `for (k, v) in &extra` work as on a `Map`, through `Deref` and
/// `DerefMut` (the first mutable use allocates). A `Map` converts with `.into()` both ways.
///
/// Most messages carry no unknown member, and a generated type has one such field per object
/// (a `ClientCapabilities` nests several): as a `Map` each took 72 bytes, and every message
/// moved and dropped them all.
///
/// ```
/// use mcp_typed_runtime::{Extra, Map, Value};
///
/// let mut extra = Extra::new();
/// assert!(extra.is_empty());
/// extra.insert("vendor".into(), Value::Bool(true));
/// assert_eq!(extra.get("vendor"), Some(&Value::Bool(true)));
/// let map: Map<String, Value> = extra.into();
/// assert_eq!(map.len(), 1);
/// ```
#[derive(Clone, Default)]
pub struct Extra(Option<Box<Map<String, Value>>>);

impl Extra {
    /// No members (no allocation).
    pub const fn new() -> Self {
        Extra(None)
    }

    /// The map of members, when one was ever made (the fast path of the encoder and the
    /// unknown-member walk: most objects have none).
    #[inline]
    pub(crate) fn kept(&self) -> Option<&Map<String, Value>> {
        self.0.as_deref()
    }

    /// The members as a map, moved out (an empty one when none was kept).
    pub fn into_map(self) -> Map<String, Value> {
        self.0.map(|m| *m).unwrap_or_default()
    }
}

/// The empty map an [`Extra`] without members reads as.
fn empty() -> &'static Map<String, Value> {
    static EMPTY: OnceLock<Map<String, Value>> = OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

impl Deref for Extra {
    type Target = Map<String, Value>;

    #[inline]
    fn deref(&self) -> &Map<String, Value> {
        match &self.0 {
            Some(m) => m,
            None => empty(),
        }
    }
}

impl DerefMut for Extra {
    #[inline]
    fn deref_mut(&mut self) -> &mut Map<String, Value> {
        self.0.get_or_insert_with(Box::default)
    }
}

impl PartialEq for Extra {
    /// Equal when the members are (an `Extra` emptied after use equals a new one).
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Extra {}

impl fmt::Debug for Extra {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl From<Map<String, Value>> for Extra {
    fn from(map: Map<String, Value>) -> Self {
        Extra((!map.is_empty()).then(|| Box::new(map)))
    }
}

impl From<Extra> for Map<String, Value> {
    fn from(extra: Extra) -> Self {
        extra.into_map()
    }
}

impl FromIterator<(String, Value)> for Extra {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(iter: I) -> Self {
        Map::from_iter(iter).into()
    }
}

impl Extend<(String, Value)> for Extra {
    fn extend<I: IntoIterator<Item = (String, Value)>>(&mut self, iter: I) {
        let mut iter = iter.into_iter().peekable();
        if iter.peek().is_some() {
            (**self).extend(iter);
        }
    }
}

impl IntoIterator for Extra {
    type Item = (String, Value);
    type IntoIter = serde_json::map::IntoIter;

    fn into_iter(self) -> Self::IntoIter {
        self.into_map().into_iter()
    }
}

impl<'a> IntoIterator for &'a Extra {
    type Item = (&'a String, &'a Value);
    type IntoIter = serde_json::map::Iter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        (**self).iter()
    }
}

impl Serialize for Extra {
    /// As a JSON object.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Extra {
    /// From a JSON object.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Map::deserialize(d).map(Extra::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_one_pointer_and_allocates_only_when_a_member_is_kept() {
        assert_eq!(std::mem::size_of::<Extra>(), std::mem::size_of::<usize>());
        let mut extra = Extra::new();
        assert!(extra.0.is_none());
        // Reading does not allocate; the empty map it reads as is shared.
        assert!(extra.get("k").is_none() && extra.is_empty());
        assert!(extra.0.is_none());
        extra.insert("k".into(), Value::from(1));
        assert_eq!(extra.0.as_ref().map(|m| m.len()), Some(1));
    }

    #[test]
    fn equal_by_members_whether_or_not_it_was_ever_allocated() {
        let mut used = Extra::new();
        used.insert("k".into(), Value::Null);
        used.remove("k");
        assert_eq!(used, Extra::new());
        assert_ne!(used, Extra::from_iter([("k".to_owned(), Value::Null)]));
    }

    #[test]
    fn keeps_member_order_through_a_round_trip() {
        let text = r#"{"z":1,"a":[true],"m":{"x":null}}"#;
        let extra: Extra = serde_json::from_str(text).unwrap();
        assert_eq!(
            extra.keys().map(String::as_str).collect::<Vec<_>>(),
            ["z", "a", "m"]
        );
        assert_eq!(serde_json::to_string(&extra).unwrap(), text);
        assert_eq!(
            format!("{extra:?}"),
            format!("{:?}", extra.clone().into_map())
        );
    }

    #[test]
    fn an_empty_map_converts_to_no_allocation() {
        assert!(Extra::from(Map::new()).0.is_none());
        let mut extra = Extra::new();
        extra.extend(std::iter::empty());
        assert!(extra.0.is_none());
    }
}
