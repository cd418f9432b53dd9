#!/usr/bin/env bash
# Builds the Rust SDK test bed (testbeds/PROGRAM.md) for one rmcp release into the cache:
# <cache>/sdk-rust/<version>/target. The release is $MCP_SIM_SDK_VERSION, default the first of
# testbed.json's `releases`. Every release builds the sources here in place (src/), from a copy
# of this directory's Cargo.toml in <cache>/sdk-rust/<version>/project with that release's rmcp
# version, its adapter feature (src/sdk.rs: rmcp-v2 for 2.x, rmcp-v3 for 3.x) and the absolute
# paths of src/: cargo takes one lockfile per manifest, beside it, and one rmcp per lockfile. A
# pinned release builds `cargo build --locked` against its releases/<version>/Cargo.lock; any
# other version is resolved from crates.io at install time (its Cargo.lock written in the
# project). Downloads only from crates.io, only on the first run; a second run with nothing
# changed takes about a second.
# Exit 3: no Rust toolchain; exit 4: a version crates.io does not have; exit 1: any other failure.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
for tool in cargo rustc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "testbed sdk-rust: missing toolchain: $tool not found (install Rust 1.88 or newer with cargo, rustup)"
    exit 3
  fi
done
# The first `"version"` after `"releases"` in testbed.json: the default release.
default=$(awk '/"releases"/ { on = 1 } on && match($0, /"version": *"[^"]*"/) { v = substr($0, RSTART, RLENGTH); sub(/.*: *"/, "", v); sub(/"$/, "", v); print v; exit }' "$here/testbed.json")
version="${MCP_SIM_SDK_VERSION:-$default}"
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
  echo "testbed sdk-rust: rmcp $version is not a release version (want MAJOR.MINOR.PATCH)"
  exit 4
fi
cache="${MCP_SIM_TESTBED_CACHE:-$root/node_modules/.cache/mcp-sim/testbeds}/sdk-rust/$version"
start=$(date +%s.%N)
pinned="$here/releases/$version"
note=""
if [ ! -f "$pinned/Cargo.lock" ]; then
  # Is it a release of rmcp at all? (exit 4), before whether the interpreter can build it (exit 1).
  if ! info=$(cargo info --quiet "rmcp@$version" 2>&1); then
    if grep -q 'could not find' <<<"$info"; then
      echo "testbed sdk-rust: crates.io has no rmcp $version"
      exit 4
    fi
    printf '%s\n' "$info" >&2
    echo "testbed sdk-rust: cannot look up rmcp $version on crates.io (see above)" >&2
    exit 1
  fi
fi
case "$version" in
  2.*) feature="rmcp-v2" ;;
  3.*) feature="rmcp-v3" ;;
  *) echo "testbed sdk-rust: rmcp $version: the interpreter has an adapter (src/sdk.rs) for rmcp 2.x and 3.x only; pick one of those, or write the adapter of its major version"; exit 1 ;;
esac
project="$cache/project"
mkdir -p "$project" || exit 1
# Written only when it changes, so cargo's fingerprint holds and a rerun builds nothing.
manifest=$(sed -e "s|rmcp = { version = \"=[^\"]*\"|rmcp = { version = \"=$version\"|" \
  -e "s|^default = \\[\"rmcp-v[0-9]*\"\\]|default = [\"$feature\"]|" \
  -e "s|^path = \"src/|path = \"$here/src/|" "$here/Cargo.toml")
if [ "$manifest" != "$(cat "$project/Cargo.toml" 2>/dev/null)" ]; then
  printf '%s\n' "$manifest" > "$project/Cargo.toml" || exit 1
  rm -f "$project/Cargo.lock"
fi
if [ -f "$pinned/Cargo.lock" ]; then
  if ! cmp -s "$pinned/Cargo.lock" "$project/Cargo.lock"; then
    cp "$pinned/Cargo.lock" "$project/Cargo.lock" || exit 1
  fi
else
  if [ ! -f "$project/Cargo.lock" ]; then
    if ! out=$(cargo generate-lockfile --quiet --manifest-path "$project/Cargo.toml" 2>&1); then
      printf '%s\n' "$out" >&2
      echo "testbed sdk-rust: resolving rmcp $version failed (see above)" >&2
      exit 1
    fi
  fi
  note=", unpinned: resolved at install, lockfile $project/Cargo.lock"
fi
mkdir -p "$cache" || exit 1
if ! CARGO_TARGET_DIR="$cache/target" cargo build --quiet --locked --manifest-path "$project/Cargo.toml" --bins; then
  echo "testbed sdk-rust: cargo build of rmcp $version failed (see above)" >&2
  exit 1
fi
seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
echo "testbed sdk-rust: ready (rmcp $version$note, $seconds s)"
