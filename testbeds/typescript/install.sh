#!/usr/bin/env bash
# Installs the TypeScript SDK test bed (testbeds/PROGRAM.md): `npm ci` of this folder's
# package.json + package-lock.json (the pinned 1.x @modelcontextprotocol/sdk) into the cache, from
# the npm registry. server.mjs stays here and loads the SDK from the cache. Idempotent: a marker
# holds the lockfile's hash and node's version. Exit 3: no node/npm; exit 1: any other failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${MCP_SIM_TESTBED_CACHE:-$root/node_modules/.cache/mcp-sim/testbeds}/sdk-typescript"
started="$(date +%s.%N)"
seconds() { awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
trap 'echo "testbed sdk-typescript: install failed (command above exited non-zero); fix it and run install.sh again" >&2; exit 1' ERR

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "testbed sdk-typescript: missing toolchain: node and npm (Node >= 20) not found on PATH"
  exit 3
fi
marker="$cache/.mcp-sim-lock"
want="$( { cat "$here/package-lock.json"; node -v; } | sha256sum | cut -d' ' -f1)"
if [[ -f "$marker" && "$(cat "$marker")" == "$want" && -d "$cache/node_modules/@modelcontextprotocol/sdk" ]]; then
  echo "testbed sdk-typescript: ready (cached, $(seconds) s)"
  exit 0
fi
rm -rf "$cache"
mkdir -p "$cache"
cp "$here/package.json" "$here/package-lock.json" "$cache/"
(cd "$cache" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
echo "$want" > "$marker"
version="$(node -p "require('$cache/node_modules/@modelcontextprotocol/sdk/package.json').version")"
echo "testbed sdk-typescript: ready (@modelcontextprotocol/sdk $version, $(seconds) s)"
