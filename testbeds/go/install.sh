#!/bin/sh
# Builds the Go SDK test bed (testbeds/PROGRAM.md) for one go-sdk release into the cache:
# <cache>/sdk-go/<version>/bin/server, and its client (testbeds/CLIENT.md: client/*.go here, a
# main package of its own in the same module) into <cache>/sdk-go/<version>/bin/client.
# The release is MCP_SIM_SDK_VERSION (default: the newest pinned one, the first of testbed.json's
# releases). The sources build in place, from this directory, for every release: a pinned release
# with `-modfile releases/<version>/go.mod` (go reads the go.sum beside it) and -mod=readonly (the
# build fails rather than change them); go.mod here is the newest pinned release's, for editors
# and a plain `go build ./...`. Any other version is resolved from the Go module proxy at install
# time, its go.mod and go.sum written into <cache>/sdk-go/<version>/ and used the same way.
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
# Not pinned: the go.mod resolved for it at install time, kept in the cache (a rerun resolves nothing).
resolved=$dir/go.mod
# Not pinned: ask the proxy first (exit 4 when it has no such version), before making its directory.
if [ ! -f "$pinned/go.mod" ] && ! grep -q "^require $module $version\$" "$resolved" 2>/dev/null; then
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
mkdir -p "$dir/bin" || { say "cannot create $dir/bin"; exit 1; }
cd "$here" || exit 1
if [ -f "$pinned/go.mod" ]; then
  modfile=$pinned/go.mod
  how=pinned
else
  modfile=$resolved
  if ! grep -q "^require $module $version\$" "$modfile" 2>/dev/null; then
    rm -f "$dir/go.sum"
    printf 'module mcp-sim.local/testbeds/sdk-go\n\ngo 1.%s\n\nrequire %s %s\n' "$minor" "$module" "$version" > "$modfile"
    if ! GOFLAGS=-mod=mod go mod tidy -modfile "$modfile"; then
      say "go mod tidy failed for $module@$version (see above)"
      exit 1
    fi
    if [ "$(go list -modfile "$modfile" -m -f '{{.Version}}' "$module")" != "$version" ]; then
      say "go mod tidy moved $module off $version"
      exit 1
    fi
  fi
  how="unpinned: resolved at install, go.mod $modfile"
fi
if ! go build -modfile "$modfile" -mod=readonly -buildvcs=false -trimpath -o "$dir/bin/server" .; then
  say "go build failed for go-sdk $version (see above; an API this interpreter uses may differ in that release)"
  exit 1
fi
if ! go build -modfile "$modfile" -mod=readonly -buildvcs=false -trimpath -o "$dir/bin/client" ./client; then
  say "go build of the client failed for go-sdk $version (see above; a client API it uses may differ in that release)"
  exit 1
fi
seconds=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
say "ready (go-sdk $version, server and client, $how, $goversion, $seconds s)"
