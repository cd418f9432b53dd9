//! The arguments of the `work` tool that every server in this crate exposes.
//!
//! Written as rmcp users write tool inputs: a `Deserialize + JsonSchema` struct wrapped in
//! `Parameters<_>`, so the input schema that `tools/list` shows is the one schemars generates.

use schemars::JsonSchema;
use serde::Deserialize;

/// Arguments of `work`: how many steps to run and how long each one sleeps.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WorkArgs {
    /// Number of steps; one progress notification per step.
    #[serde(default = "default_steps")]
    #[schemars(range(min = 1, max = 8))]
    pub steps: u32,
    /// Milliseconds each step sleeps.
    #[serde(default = "default_step_ms")]
    #[schemars(range(min = 5, max = 40))]
    pub step_ms: u64,
}

fn default_steps() -> u32 {
    4
}

fn default_step_ms() -> u64 {
    20
}

/// The `initialize` answer every server gives: tools only, named after its variant.
pub fn server_info(variant: &str) -> rmcp::model::ServerConfig {
    use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
    ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
        Implementation::new(
            format!("rmcp-examples-{variant}"),
            env!("CARGO_PKG_VERSION"),
        ),
    )
}
