//! The per-type code, as the generator would emit it, for a slice of 2025-11-25, decoding
//! into the generated types themselves (`mcp_typed::v2025_11_25`). Per object type: a key
//! table ([`Obj`]) and a closure that decodes the member at an index into its slot; the loop,
//! the duplicate and required checks, unknown members and errors are the shared code of
//! `pull.rs`. The `object!` macro stands in for the generator.

use indexmap::IndexMap;
use mcp_typed::runtime::JsonObject;
use mcp_typed::v2025_11_25::*;
use serde_json::{Map, Number, Value};

use crate::pull::Error;
use crate::pull::*;
use mcp_typed::v2025_11_25::Error as RpcError;

macro_rules! object {
    ($T:ident { $($f:ident : $key:literal $($req:ident)?),* $(,)? } $(const $ck:literal = $cv:literal;)*) => {
        impl DecodeObj for $T {
            fn decode_obj<'a, P: Pull<'a>>(p: &mut P, start: Start) -> Result<Self, Error> {
                static D: Obj = Obj {
                    expecting: concat!("a ", stringify!($T), " object"),
                    keys: &[$($key,)* $($ck,)*],
                    required: mask(&[$(object!(@req $($req)?),)* $(object!(@c $ck),)*]),
                };
                $(let mut $f = None;)*
                let mut extra = Map::new();
                object(p, &D, start, &mut extra, &mut |p, i| {
                    let mut k = 0usize;
                    $(
                        if i == k {
                            put(&mut $f, Decode::decode(p)?);
                            return Ok(());
                        }
                        k += 1;
                    )*
                    $(
                        if i == k {
                            return const_str(p, $cv);
                        }
                        k += 1;
                    )*
                    let _ = k;
                    Ok(())
                })?;
                Ok($T { $($f: object!(@take $f $key $($req)?),)* extra: extra.into() })
            }
        }
        impl Decode for $T {
            fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
                Self::decode_obj(p, Start::Value)
            }
        }
    };
    (@req req) => { true };
    (@req) => { false };
    (@c $x:literal) => { true };
    (@take $f:ident $key:literal req) => { req($f, $key)? };
    (@take $f:ident $key:literal) => { $f };
}

/// Stores a member's value: the object loop calls each index once, so the slot is empty and
/// no drop code for an earlier value is compiled into each type's closure.
#[inline(always)]
fn put<T>(slot: &mut Option<T>, v: T) {
    if slot.is_none() {
        *slot = Some(v);
    } else {
        std::mem::forget(v);
    }
}

/// The required-member mask of a key table (the generator would write the number).
const fn mask(required: &[bool]) -> u64 {
    let mut m = 0;
    let mut i = 0;
    while i < required.len() {
        if required[i] {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

macro_rules! string_enum {
    ($T:ident { $($v:ident = $s:literal),* $(,)? }) => {
        impl Decode for $T {
            fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
                let at = p.offset();
                match string(p)?.as_str() {
                    $($s => Ok($T::$v),)*
                    other => Err(Error::new(
                        format!(concat!("unknown variant `{}`, expected one of", $(" `", $s, "`",)*), other),
                        at,
                    )),
                }
            }
        }
    };
}

// ---- Leaves: the shared readers -------------------------------------------------------------

impl Decode for String {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        string(p)
    }
}
impl Decode for bool {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        boolean(p)
    }
}
impl Decode for i64 {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        int(p)
    }
}
impl Decode for Number {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        number(p)
    }
}
impl Decode for Value {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        value(p)
    }
}
impl Decode for Map<String, Value> {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        open_object(p)
    }
}
impl<T: Decode> Decode for Vec<T> {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        array(p, T::decode)
    }
}
impl<T: Decode> Decode for IndexMap<String, T> {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        map_of(p, T::decode)
    }
}
/// An open object of the generated types (built as a map here: the spike measured keeping
/// its text with `open_as_text`).
impl Decode for JsonObject {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        open_object(p).map(JsonObject::from)
    }
}
/// An optional map of the generated types (held behind a `Box`).
impl<T: Decode> Decode for Box<T> {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        T::decode(p).map(Box::new)
    }
}

/// `string | integer` (`RequestId`, `ProgressToken`).
macro_rules! string_or_int {
    ($T:ident) => {
        impl Decode for $T {
            fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
                match p.peek()? {
                    Kind::Str => Ok($T::String(p.str()?.to_owned())),
                    Kind::Num => Ok($T::Integer(int(p)?)),
                    k => Err(wrong(p, "a string or an integer", k)),
                }
            }
        }
    };
}
string_or_int!(RequestId);
string_or_int!(ProgressToken);

string_enum!(Role { Assistant = "assistant", User = "user" });
string_enum!(IconTheme { Dark = "dark", Light = "light" });
string_enum!(ToolExecutionTaskSupport {
    Forbidden = "forbidden",
    Optional = "optional",
    Required = "required",
});

// ---- tools/list -----------------------------------------------------------------------------

object!(PaginatedRequestParams {
    meta: "_meta",
    cursor: "cursor"
});
object!(PaginatedRequestParamsMeta {
    progress_token: "progressToken"
});
object!(ListToolsResult { meta: "_meta", next_cursor: "nextCursor", tools: "tools" req });
object!(Tool {
    name: "name" req,
    title: "title",
    icons: "icons",
    description: "description",
    input_schema: "inputSchema" req,
    execution: "execution",
    output_schema: "outputSchema",
    annotations: "annotations",
    meta: "_meta",
});
object!(ToolInputSchema { schema: "$schema", properties: "properties", required: "required" }
    const "type" = "object";);
object!(ToolOutputSchema { schema: "$schema", properties: "properties", required: "required" }
    const "type" = "object";);
object!(ToolAnnotations {
    title: "title",
    read_only_hint: "readOnlyHint",
    destructive_hint: "destructiveHint",
    idempotent_hint: "idempotentHint",
    open_world_hint: "openWorldHint",
});
object!(ToolExecution {
    task_support: "taskSupport"
});
object!(Icon { src: "src" req, mime_type: "mimeType", sizes: "sizes", theme: "theme" });

// ---- tools/call -----------------------------------------------------------------------------

object!(CallToolRequestParams { meta: "_meta", task: "task", name: "name" req, arguments: "arguments" });
object!(CallToolRequestParamsMeta {
    progress_token: "progressToken"
});
object!(TaskMetadata { ttl: "ttl" });
object!(CallToolResult {
    meta: "_meta",
    content: "content" req,
    structured_content: "structuredContent",
    is_error: "isError",
});
object!(TextContent { text: "text" req, annotations: "annotations", meta: "_meta" }
    const "type" = "text";);
object!(ImageContent { data: "data" req, mime_type: "mimeType" req, annotations: "annotations", meta: "_meta" }
    const "type" = "image";);
object!(AudioContent { data: "data" req, mime_type: "mimeType" req, annotations: "annotations", meta: "_meta" }
    const "type" = "audio";);
object!(ResourceLink {
    name: "name" req,
    title: "title",
    icons: "icons",
    uri: "uri" req,
    description: "description",
    mime_type: "mimeType",
    annotations: "annotations",
    size: "size",
    meta: "_meta",
} const "type" = "resource_link";);
object!(EmbeddedResource { resource: "resource" req, annotations: "annotations", meta: "_meta" }
    const "type" = "resource";);
object!(Annotations {
    audience: "audience",
    priority: "priority",
    last_modified: "lastModified"
});

/// A union tagged by `type`: the tag read first when it comes first (the common case), else
/// found by a skip and the object decoded from its start (shared code: `pull::tagged`).
impl Decode for ContentBlock {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        const TAGS: &[&str] = &["text", "image", "audio", "resource_link", "resource"];
        tagged(
            p,
            "type",
            TAGS,
            "a ContentBlock object",
            &mut |p, tag, start| {
                Ok(match tag {
                    Some(0) => ContentBlock::Text(DecodeObj::decode_obj(p, start)?),
                    Some(1) => ContentBlock::Image(DecodeObj::decode_obj(p, start)?),
                    Some(2) => ContentBlock::Audio(DecodeObj::decode_obj(p, start)?),
                    Some(3) => ContentBlock::ResourceLink(DecodeObj::decode_obj(p, start)?),
                    Some(4) => ContentBlock::EmbeddedResource(DecodeObj::decode_obj(p, start)?),
                    _ => ContentBlock::Unknown(open_object(p)?.into()),
                })
            },
        )
    }
}

/// Text or blob contents, told apart by their members: decoded in one pass into the merged
/// members, then built as the variant they make.
impl Decode for EmbeddedResourceResource {
    fn decode<'a, P: Pull<'a>>(p: &mut P) -> Result<Self, Error> {
        static D: Obj = Obj {
            expecting: "a TextResourceContents or BlobResourceContents object",
            keys: &["uri", "mimeType", "_meta", "text", "blob"],
            required: 1,
        };
        let at = p.offset();
        let (mut uri, mut mime_type, mut meta, mut text, mut blob) = (None, None, None, None, None);
        let mut extra = Map::new();
        object(p, &D, Start::Value, &mut extra, &mut |p, i| {
            match i {
                0 => uri = Some(string(p)?),
                1 => mime_type = Some(string(p)?),
                2 => meta = Some(open_object(p)?.into()),
                3 => text = Some(string(p)?),
                _ => blob = Some(string(p)?),
            }
            Ok(())
        })?;
        let uri = req(uri, "uri")?;
        match (text, blob) {
            (Some(text), None) => Ok(EmbeddedResourceResource::Text(TextResourceContents {
                uri,
                mime_type,
                meta,
                text,
                extra: extra.into(),
            })),
            (None, Some(blob)) => Ok(EmbeddedResourceResource::Blob(BlobResourceContents {
                uri,
                mime_type,
                meta,
                blob,
                extra: extra.into(),
            })),
            _ => Err(Error::new(
                "no member of EmbeddedResourceResource matches this object; expected one of: Text (with uri, text); Blob (with uri, blob)",
                at,
            )),
        }
    }
}

// ---- initialize -----------------------------------------------------------------------------

object!(InitializeRequestParams {
    meta: "_meta",
    protocol_version: "protocolVersion" req,
    capabilities: "capabilities" req,
    client_info: "clientInfo" req,
});
object!(InitializeRequestParamsMeta {
    progress_token: "progressToken"
});
object!(Implementation {
    name: "name" req,
    title: "title",
    icons: "icons",
    version: "version" req,
    description: "description",
    website_url: "websiteUrl",
});
object!(ClientCapabilities {
    experimental: "experimental",
    roots: "roots",
    sampling: "sampling",
    elicitation: "elicitation",
    tasks: "tasks",
});
object!(ClientCapabilitiesRoots {
    list_changed: "listChanged"
});
object!(ClientCapabilitiesSampling {
    context: "context",
    tools: "tools"
});
object!(ClientCapabilitiesElicitation {
    form: "form",
    url: "url"
});
object!(ClientCapabilitiesTasks {
    list: "list",
    cancel: "cancel",
    requests: "requests"
});
object!(ClientCapabilitiesTasksRequests {
    sampling: "sampling",
    elicitation: "elicitation"
});
object!(ClientCapabilitiesTasksRequestsSampling {
    create_message: "createMessage"
});
object!(ClientCapabilitiesTasksRequestsElicitation { create: "create" });
object!(InitializeResult {
    meta: "_meta",
    protocol_version: "protocolVersion" req,
    capabilities: "capabilities" req,
    server_info: "serverInfo" req,
    instructions: "instructions",
});
object!(ServerCapabilities {
    experimental: "experimental",
    logging: "logging",
    completions: "completions",
    prompts: "prompts",
    resources: "resources",
    tools: "tools",
    tasks: "tasks",
});
object!(ServerCapabilitiesPrompts {
    list_changed: "listChanged"
});
object!(ServerCapabilitiesResources {
    subscribe: "subscribe",
    list_changed: "listChanged"
});
object!(ServerCapabilitiesTools {
    list_changed: "listChanged"
});
object!(ServerCapabilitiesTasks {
    list: "list",
    cancel: "cancel",
    requests: "requests"
});
object!(ServerCapabilitiesTasksRequests { tools: "tools" });
object!(ServerCapabilitiesTasksRequestsTools { call: "call" });

// ---- notifications, errors ------------------------------------------------------------------

object!(ProgressNotificationParams {
    meta: "_meta",
    progress_token: "progressToken" req,
    progress: "progress" req,
    total: "total",
    message: "message",
});
object!(NotificationParams { meta: "_meta" });
object!(RpcError {
    code: "code" req,
    message: "message" req,
    data: "data",
});
