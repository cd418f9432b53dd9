#!/bin/sh
# Builds the Go SDK test bed (testbeds/PROGRAM.md) into the cache: <cache>/sdk-go/bin/server.
# Pinned by go.mod/go.sum (-mod=readonly: the build fails rather than change them); modules come
# from the Go module proxy into the user's module cache. Idempotent: go's build cache makes a
# rerun take ~1 s. Exit 3: Go missing or older than go.mod's; exit 1: any other failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${MCP_SIM_TESTBED_CACHE:-$root/node_modules/.cache/mcp-sim/testbeds}/sdk-go
need_minor=25 # go.mod says go 1.25.0, the go-sdk's own minimum
if ! command -v go >/dev/null 2>&1; then
  echo "testbed sdk-go: missing toolchain: 'go' not found on PATH (install Go 1.$need_minor or newer)"
  exit 3
fi
version=$(go env GOVERSION 2>/dev/null) || version=unknown
minor=$(printf '%s\n' "$version" | sed -n 's/^go1\.\([0-9][0-9]*\).*/\1/p')
if [ -z "$minor" ] || [ "$minor" -lt "$need_minor" ]; then
  echo "testbed sdk-go: missing toolchain: $version found, Go 1.$need_minor or newer needed"
  exit 3
fi
start=$(date +%s.%N)
mkdir -p "$cache/bin" || { echo "testbed sdk-go: cannot create $cache/bin"; exit 1; }
cd "$here" || exit 1
if ! go build -mod=readonly -buildvcs=false -o "$cache/bin/server" .; then
  echo "testbed sdk-go: go build failed (see above)"
  exit 1
fi
seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
sdk=$(awk '$0 ~ /github.com\/modelcontextprotocol\/go-sdk / { print $NF }' go.mod)
echo "testbed sdk-go: ready (go-sdk $sdk, $version, $seconds s)"
