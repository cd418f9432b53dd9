#!/bin/sh
# Builds the Go SDK test bed (testbeds/PROGRAM.md) for one go-sdk release into the cache:
# <cache>/sdk-go/<version>/bin/server, and its client (testbeds/CLIENT.md: client/*.go here, a
# main package of its own, built from the same go.mod) into <cache>/sdk-go/<version>/bin/client.
# The release is MCP_SIM_SDK_VERSION (default: the newest pinned one, the first of testbed.json's
# releases). A pinned release builds from
# releases/<version>/go.mod + go.sum with -mod=readonly (the build fails rather than change
# them); any other version is resolved from the Go module proxy at install time and its go.mod
# and go.sum are written into <cache>/sdk-go/<version>/src. The interpreter (*.go here) is one
# source for every release: it is copied beside the release's go.mod and built there.
# Idempotent: go's build cache makes a rerun take about a second.
# Exit 3: Go missing or older than the release's go.mod; exit 4: a version the proxy does not
# have; exit 1: any other failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
newest=$(ls "$here/releases" | sort -V | tail -n 1)
version=${MCP_SIM_SDK_VERSION:-$newest}
dir=${MCP_SIM_TESTBED_CACHE:-$root/node_modules/.cache/mcp-sim/testbeds}/sdk-go/$version
module=github.com/modelcontextprotocol/go-sdk
start=$(date +%s.%N)
say() { echo "testbed sdk-go: $*"; }

if ! command -v go >/dev/null 2>&1; then
  say "missing toolchain: 'go' not found on PATH (install Go 1.25 or newer)"
  exit 3
fi
goversion=$(go env GOVERSION 2>/dev/null) || goversion=unknown
# The Go that every release's go.mod asks for (go 1.25.0, the go-sdk's own minimum since v1.6).
need_minor=25
if [ -f "$here/releases/$version/go.mod" ]; then
  need_minor=$(sed -n 's/^go 1\.\([0-9][0-9]*\).*/\1/p' "$here/releases/$version/go.mod")
fi
minor=$(printf '%s\n' "$goversion" | sed -n 's/^go1\.\([0-9][0-9]*\).*/\1/p')
if [ -z "$minor" ] || [ "$minor" -lt "$need_minor" ]; then
  say "missing toolchain: $goversion found, Go 1.$need_minor or newer needed"
  exit 3
fi

pinned=$here/releases/$version
src=$dir/src
# Not pinned: ask the proxy first (exit 4 when it has no such version), before making its directory.
if [ ! -f "$pinned/go.mod" ] && ! grep -q "^require $module $version\$" "$src/go.mod" 2>/dev/null; then
  case $version in v*) ;; *) say "unknown version $version: go-sdk versions are written v1.2.3"; exit 4 ;; esac
  if ! out=$(go list -m "$module@$version" 2>&1); then
    case $out in
      *"unknown revision"* | *"invalid version"* | *"no matching versions"* | *"not found"* | *"not available"* | *"404 Not Found"* | *"410 Gone"*)
        say "unknown version $version: the Go module proxy has no $module@$version"
        exit 4 ;;
    esac
    printf '%s\n' "$out"
    say "cannot reach the Go module proxy for $module@$version"
    exit 1
  fi
fi
mkdir -p "$src" "$dir/bin" || { say "cannot create $dir"; exit 1; }
# Only the interpreter's own files: a stale copy of a removed file would otherwise stay built in.
rm -f "$src"/*.go "$src"/client/*.go
mkdir -p "$src/client" || { say "cannot create $src/client"; exit 1; }
cp "$here"/*.go "$src"/ || exit 1
cp "$here"/client/*.go "$src"/client/ || exit 1
cd "$src" || exit 1
if [ -f "$pinned/go.mod" ]; then
  cp "$pinned/go.mod" "$pinned/go.sum" . || exit 1
  how=pinned
else
  # Not pinned: resolve and write the lockfile for it once (kept in src, so a rerun resolves nothing).
  if ! grep -q "^require $module $version\$" go.mod 2>/dev/null; then
    rm -f go.sum
    printf 'module mcp-sim.local/testbeds/sdk-go\n\ngo 1.%s\n\nrequire %s %s\n' "$minor" "$module" "$version" > go.mod
    if ! GOFLAGS=-mod=mod go mod tidy; then
      say "go mod tidy failed for $module@$version (see above)"
      exit 1
    fi
    if [ "$(go list -m -f '{{.Version}}' "$module")" != "$version" ]; then
      say "go mod tidy moved $module off $version"
      exit 1
    fi
  fi
  how="unpinned: resolved at install"
fi
if ! go build -mod=readonly -buildvcs=false -trimpath -o "$dir/bin/server" .; then
  say "go build failed for go-sdk $version (see above; an API this interpreter uses may differ in that release)"
  exit 1
fi
if ! go build -mod=readonly -buildvcs=false -trimpath -o "$dir/bin/client" ./client; then
  say "go build of the client failed for go-sdk $version (see above; a client API it uses may differ in that release)"
  exit 1
fi
seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
say "ready (go-sdk $version, server and client, $how, $goversion, $seconds s)"
