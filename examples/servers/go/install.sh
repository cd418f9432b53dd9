#!/bin/sh
# Builds mcp-sim's Go example servers (examples/servers/go) into the cache:
#   <cache>/bin/server  (<cache>: $MCP_SIM_EXAMPLES_CACHE/go, default <repo>/node_modules/.cache/mcp-sim/examples/go)
# Pinned by go.mod/go.sum (-mod=readonly: the build fails rather than change them); modules come
# from the Go module proxy into the user's module cache (GOMODCACHE, GOFLAGS and GOPROXY as the
# user set them). Idempotent: with nothing changed, go's build cache makes a rerun take ~1 s.
# Exit codes: 0 ready, 3 toolchain missing or too old, 1 any other failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cache=${MCP_SIM_EXAMPLES_CACHE:-$root/node_modules/.cache/mcp-sim/examples}/go
need_minor=25 # go.mod says go 1.25.0, the go-sdk's own minimum

if ! command -v go >/dev/null 2>&1; then
  echo "examples go: missing toolchain: 'go' not found on PATH (install Go 1.$need_minor or newer)"
  exit 3
fi
version=$(go env GOVERSION 2>/dev/null) || version=unknown
minor=$(printf '%s\n' "$version" | sed -n 's/^go1\.\([0-9][0-9]*\).*/\1/p')
if [ -z "$minor" ] || [ "$minor" -lt "$need_minor" ]; then
  echo "examples go: missing toolchain: $version found, Go 1.$need_minor or newer needed"
  exit 3
fi

start=$(date +%s.%N)
mkdir -p "$cache/bin" || { echo "examples go: cannot create $cache/bin"; exit 1; }
cd "$here" || exit 1
if ! go build -mod=readonly -buildvcs=false -o "$cache/bin/server" .; then
  echo "examples go: go build failed (see above)"
  exit 1
fi
end=$(date +%s.%N)
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
sdk=$(awk '$1 == "github.com/modelcontextprotocol/go-sdk" { print $2 }' go.mod)
echo "examples go: ready (go-sdk $sdk, $version, 1 binary for 9 servers, $seconds s)"
