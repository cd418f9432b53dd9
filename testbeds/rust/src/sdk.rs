//! The few rmcp names that moved between the pinned releases (testbeds/PROGRAM.md, "Releases"):
//! one interpreter, this adapter selected by the release's Cargo feature (`rmcp-v2` for 2.x,
//! `rmcp-v3` for 3.x: Cargo.toml's default is the newest's, and install.sh turns on the one of the
//! release it builds). Everything else in src/ is the same rmcp API in both.

use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;

#[cfg(all(feature = "rmcp-v2", feature = "rmcp-v3"))]
compile_error!(
    "turn on one of the features rmcp-v2 and rmcp-v3, the API of the rmcp release built"
);

/// The request's `_meta`, as a tool handler extracts it (`Meta` in 2.x, `RequestMetaObject` in 3.x).
#[cfg(feature = "rmcp-v2")]
pub type RequestMeta = rmcp::model::Meta;
#[cfg(feature = "rmcp-v3")]
pub type RequestMeta = rmcp::model::RequestMetaObject;

/// What `ServerHandler::call_tool` returns: the result itself in 2.x, `CallToolResponse` in 3.x
/// (a result, or the 2026-07-28 input-required and task answers).
#[cfg(feature = "rmcp-v2")]
pub type CallToolOutput = rmcp::model::CallToolResult;
#[cfg(feature = "rmcp-v3")]
pub type CallToolOutput = rmcp::model::CallToolResponse;

/// A tool's result as `call_tool` returns it.
pub fn complete(result: rmcp::model::CallToolResult) -> CallToolOutput {
    #[cfg(feature = "rmcp-v2")]
    return result;
    #[cfg(feature = "rmcp-v3")]
    return result.into();
}

/// The Streamable HTTP configuration of one mode: with sessions (`stateful_mode` in 2.x,
/// renamed `legacy_session_mode` in 3.0) or not, responses as SSE or as one JSON body.
pub fn http_config(sessions: bool, json_response: bool) -> StreamableHttpServerConfig {
    let config = StreamableHttpServerConfig::default().with_json_response(json_response);
    #[cfg(feature = "rmcp-v2")]
    return config.with_stateful_mode(sessions);
    #[cfg(feature = "rmcp-v3")]
    return config.with_legacy_session_mode(sessions);
}
