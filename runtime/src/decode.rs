//! The error of `ClientMessage::from_json` and `ServerMessage::from_json`.

use std::fmt;

/// A line that did not decode as a message of the revision, with the error response its
/// receiver owes the sender (`R` is the other side's message type: a `ServerMessage` for a
/// `ClientMessage` that failed): addressed to the request's `id` when it could be read
/// (`INVALID_PARAMS`), else without one (`PARSE_ERROR`, `INVALID_REQUEST`), written as the
/// revision's schema says: `"id": null` up to 2025-06-18 (JSON-RPC 2.0), no `id` member from
/// 2025-11-25 on (its `id?: RequestId`).
///
/// Small (a pointer and the message), so a `Result` of it stays small; a `std::error::Error`,
/// so `?` works in functions returning `Box<dyn Error>` or `anyhow::Result`.
///
/// ```
/// use mcp_typed::v2025_11_25::{ClientMessage, INVALID_PARAMS, ServerMessage};
///
/// let e = ClientMessage::from_json(r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{}}"#)
///     .unwrap_err();
/// assert!(e.to_string().contains("name"), "{e}");
/// let reply: ServerMessage = e.into_reply();
/// let reply = serde_json::to_value(&reply).unwrap();
/// assert_eq!((reply["id"].as_i64(), reply["error"]["code"].as_i64()), (Some(4), Some(INVALID_PARAMS)));
///
/// // Text that is not JSON: no id to answer. 2025-11-25 writes none, 2025-06-18 `null`.
/// let reply = ClientMessage::from_json("{").unwrap_err().into_reply();
/// assert_eq!(serde_json::to_string(&reply).unwrap(),
///     r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"EOF while parsing an object at line 1 column 2"}}"#);
/// let reply = mcp_typed::v2025_06_18::ClientMessage::from_json("{").unwrap_err().into_reply();
/// assert!(serde_json::to_string(&reply).unwrap().starts_with(r#"{"jsonrpc":"2.0","id":null,"error""#));
/// ```
pub struct DecodeError<R> {
    reply: Box<R>,
    message: String,
}

impl<R> DecodeError<R> {
    /// The error, and the reply owed for it.
    pub fn new(reply: R, message: impl Into<String>) -> Self {
        DecodeError {
            reply: Box::new(reply),
            message: message.into(),
        }
    }

    /// The error response to send back.
    pub fn reply(&self) -> &R {
        &self.reply
    }

    /// The error response to send back, by value.
    pub fn into_reply(self) -> R {
        *self.reply
    }

    /// What was wrong with the line (the decoder's message, with the member's path).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl<R> fmt::Display for DecodeError<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<R: fmt::Debug> fmt::Debug for DecodeError<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeError")
            .field("message", &self.message)
            .field("reply", &self.reply)
            .finish()
    }
}

impl<R: fmt::Debug> std::error::Error for DecodeError<R> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_small_and_keeps_the_reply() {
        assert_eq!(
            std::mem::size_of::<DecodeError<[u8; 4096]>>(),
            std::mem::size_of::<usize>() * 4
        );
        let e = DecodeError::new(7u8, "bad");
        assert_eq!((e.to_string(), *e.reply()), ("bad".to_owned(), 7));
        assert_eq!(e.into_reply(), 7);
    }
}
