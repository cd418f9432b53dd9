#!/usr/bin/env bash
# Builds the Rust SDK test bed (testbeds/PROGRAM.md) into the cache: <cache>/sdk-rust/target.
# Pinned: `cargo build --locked` against the committed Cargo.lock (rmcp =3.11.0); downloads only
# from crates.io, only on the first run. Idempotent: a second run with nothing changed takes about
# a second. Exit 3: no Rust toolchain; exit 1: any other failure.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${MCP_SIM_TESTBED_CACHE:-$root/node_modules/.cache/mcp-sim/testbeds}/sdk-rust"
for tool in cargo rustc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "testbed sdk-rust: missing toolchain: $tool not found (install Rust 1.88 or newer with cargo, rustup)"
    exit 3
  fi
done
start=$(date +%s.%N)
mkdir -p "$cache" || exit 1
if ! CARGO_TARGET_DIR="$cache/target" cargo build --quiet --locked --manifest-path "$here/Cargo.toml" --bin sdk-testbed; then
  echo "testbed sdk-rust: cargo build failed (see above)" >&2
  exit 1
fi
seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "testbed sdk-rust: ready (rmcp 3.11.0, $seconds s)"
