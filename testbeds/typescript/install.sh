#!/usr/bin/env bash
# Installs one release of the TypeScript SDK test bed (testbeds/PROGRAM.md, "Releases"): `npm ci`
# of releases/<version>/package.json + package-lock.json into <cache root>/sdk-typescript/<version>/,
# from the npm registry. MCP_SIM_SDK_VERSION names the release (default: testbed.json's first).
# A 1.x version is @modelcontextprotocol/sdk; a 2.x version is the split packages
# (@modelcontextprotocol/server, with @modelcontextprotocol/node for Streamable HTTP on node:http).
# An unlisted version is resolved from npm at install time and its lockfile written into its
# directory. server.mjs stays here and loads the SDK from that directory. Idempotent: a marker
# holds the lockfile's hash and node's version.
# Exit 3: no node/npm; exit 4: a version npm does not have; exit 1: any other failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
started="$(date +%s.%N)"
seconds() { awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
trap 'echo "testbed sdk-typescript: install failed (command above exited non-zero); fix it and run install.sh again" >&2; exit 1' ERR

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "testbed sdk-typescript: missing toolchain: node and npm (Node >= 20) not found on PATH"
  exit 3
fi
version="${MCP_SIM_SDK_VERSION:-$(node -p "require('$here/testbed.json').releases[0].version")}"
if [[ ! "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-.+][0-9A-Za-z.-]+)?$ ]]; then
  echo "testbed sdk-typescript: unknown version '$version': not a semver version of @modelcontextprotocol/sdk or /server"
  exit 4
fi
cache="${MCP_SIM_TESTBED_CACHE:-$root/node_modules/.cache/mcp-sim/testbeds}/sdk-typescript/$version"
pinned="$here/releases/$version"
# The package that names the release: the 1.x monolith, or the 2.x server package.
if [[ "$version" == 1.* ]]; then sdk=@modelcontextprotocol/sdk; else sdk=@modelcontextprotocol/server; fi

marker="$cache/.mcp-sim-lock"
if [[ -d "$pinned" ]]; then
  want="$( { cat "$pinned/package-lock.json"; node -v; } | sha256sum | cut -d' ' -f1)"
else
  want="$( { echo "unpinned $sdk@$version"; node -v; } | sha256sum | cut -d' ' -f1)"
fi
if [[ -f "$marker" && "$(cat "$marker")" == "$want" && -d "$cache/node_modules/$sdk" ]]; then
  echo "testbed sdk-typescript: ready ($sdk $version, cached, $(seconds) s)"
  exit 0
fi

rm -rf "$cache"
mkdir -p "$cache"
npmq() { npm --no-audit --no-fund --loglevel=error "$@" >/dev/null; }
if [[ -d "$pinned" ]]; then
  cp "$pinned/package.json" "$pinned/package-lock.json" "$cache/"
  (cd "$cache" && npmq ci --ignore-scripts)
  how="pinned"
else
  if [[ -z "$(npm view "$sdk@$version" version 2>/dev/null)" ]]; then
    rm -rf "$cache"
    echo "testbed sdk-typescript: unknown version $version: npm has no $sdk@$version"
    exit 4
  fi
  printf '{ "name": "mcp-sim-testbed-sdk-typescript", "private": true, "version": "0.0.0", "type": "module" }\n' > "$cache/package.json"
  if [[ "$sdk" == @modelcontextprotocol/sdk ]]; then
    (cd "$cache" && npmq install --ignore-scripts --save-exact "$sdk@$version")
  else
    # The node:http adapter of 2.x is a package with versions of its own: take the newest whose
    # peer range accepts this server release (npm refuses the others), else the server alone
    # (server.mjs then says --http is not available in this install).
    adapters="$(npm view @modelcontextprotocol/node versions --json 2>/dev/null | node -e 'const v = JSON.parse(require("fs").readFileSync(0, "utf8")); console.log([].concat(v).filter((x) => !x.includes("-")).reverse().join(" "))' || true)"
    installed=""
    for adapter in $adapters; do
      if (cd "$cache" && npmq install --ignore-scripts --save-exact "$sdk@$version" "@modelcontextprotocol/node@$adapter" 2>/dev/null); then installed=1; break; fi
    done
    [[ -n "$installed" ]] || (cd "$cache" && npmq install --ignore-scripts --save-exact "$sdk@$version")
  fi
  how="unpinned: resolved at install"
fi
echo "$want" > "$marker"
echo "testbed sdk-typescript: ready ($sdk $version, $how, $(seconds) s)"
