#!/usr/bin/env bash
# Builds the Rust example servers (one rmcp binary, all servers) into the cache:
#   $MCP_SIM_EXAMPLES_CACHE/rust (default: <repo>/node_modules/.cache/mcp-sim/examples/rust)
# and the README's Rust server (examples/your-server/rust) into the same target folder.
# Pinned: `cargo build --locked` against the committed Cargo.lock; downloads only from
# crates.io, only on the first run. A second run with nothing changed takes about a second.
# Exit codes: 0 ready, 3 no Rust toolchain, 1 any other failure.
set -uo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$dir/../../.." && pwd)"
cache="${MCP_SIM_EXAMPLES_CACHE:-$root/node_modules/.cache/mcp-sim/examples}/rust"
for tool in cargo rustc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "examples rust: $tool not found; install Rust 1.88 or newer with cargo (rustup)" >&2
    exit 3
  fi
done
start=$(date +%s%N)
mkdir -p "$cache" || exit 1
# The dev profile (no debug info, see Cargo.toml) builds faster than release, and the servers
# spend their time in sleeps, so it is the profile servers.json points at.
if ! CARGO_TARGET_DIR="$cache/target" cargo build --locked --manifest-path "$dir/Cargo.toml" --bin rmcp-examples; then
  echo "examples rust: cargo build failed (see above)" >&2
  exit 1
fi
# The README's Rust server (examples/your-server/rust): the same rmcp pin, dependencies and
# features, built into the same target folder, so it reuses the compiled rmcp (only its own crate
# compiles). Its Cargo.toml is a user's, without the examples' `[profile.dev] debug = 0`: the
# environment sets it, else every dependency would build again with debug info.
if ! CARGO_PROFILE_DEV_DEBUG=0 CARGO_TARGET_DIR="$cache/target" cargo build --locked --manifest-path "$root/examples/your-server/rust/Cargo.toml"; then
  echo "examples rust: cargo build of examples/your-server/rust failed (see above)" >&2
  exit 1
fi
secs=$(( ($(date +%s%N) - start) / 1000000 ))
printf 'examples rust: ready (rmcp 3.11.0, 9 servers in %s, the README'"'"'s in %s, %d.%01d s)\n' \
  "$cache/target/debug/rmcp-examples" "$cache/target/debug/photos" $((secs / 1000)) $(((secs % 1000) / 100))
