#!/bin/sh
# Builds mcp-sim's Go test bed (examples/servers/go) into the cache:
#   $MCP_SIM_TESTBED_CACHE/bin/server  (default cache: <repo>/node_modules/.cache/mcp-sim/testbeds/go)
# Pinned by go.mod/go.sum (-mod=readonly: the build fails rather than change them); modules come
# from the Go module proxy into the user's module cache (GOMODCACHE, GOFLAGS and GOPROXY as the
# user set them). Idempotent: with nothing changed, go's build cache makes a rerun take ~1 s.
# Exit codes: 0 ready, 3 toolchain missing or too old, 1 any other failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cache=${MCP_SIM_TESTBED_CACHE:-$root/node_modules/.cache/mcp-sim/testbeds/go}
need_minor=25 # go.mod says go 1.25.0, the go-sdk's own minimum

if ! command -v go >/dev/null 2>&1; then
  echo "testbed go: missing toolchain: 'go' not found on PATH (install Go 1.$need_minor or newer)"
  exit 3
fi
version=$(go env GOVERSION 2>/dev/null) || version=unknown
minor=$(printf '%s\n' "$version" | sed -n 's/^go1\.\([0-9][0-9]*\).*/\1/p')
if [ -z "$minor" ] || [ "$minor" -lt "$need_minor" ]; then
  echo "testbed go: missing toolchain: $version found, Go 1.$need_minor or newer needed"
  exit 3
fi

start=$(date +%s.%N)
mkdir -p "$cache/bin" || { echo "testbed go: cannot create $cache/bin"; exit 1; }
cd "$here" || exit 1
if ! go build -mod=readonly -buildvcs=false -o "$cache/bin/server" .; then
  echo "testbed go: go build failed (see above)"
  exit 1
fi
end=$(date +%s.%N)
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
sdk=$(awk '$1 == "github.com/modelcontextprotocol/go-sdk" { print $2 }' go.mod)
echo "testbed go: ready (go-sdk $sdk, $version, 1 binary for 9 servers, $seconds s)"
