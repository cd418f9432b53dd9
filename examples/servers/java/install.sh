#!/usr/bin/env bash
# Builds mcp-sim's Java example servers (examples/servers/java) into the cache:
#   $MCP_SIM_EXAMPLES_CACHE/java (default <repo root>/node_modules/.cache/mcp-sim/examples/java)
#     m2/            Maven's local repository (everything from Maven Central; `mvn -o` works after)
#     target/        the build directory
#     servers.jar    the shaded, runnable jar all servers share (--variant NAME)
#     servers.jsa    a class-data-sharing archive of one training run: cuts JVM start-up by ~40 %
#     source.sha256  hash of the sources it was built from; unchanged sources skip the build
#     photos/        the README's Java server (examples/your-server/java): photos.jar, its own source.sha256
# Exit codes: 0 ready, 3 a toolchain (java, mvn) is missing, 1 anything else.
set -euo pipefail

for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "examples java: missing toolchain: $tool (needs Java 17+ and Maven 3.8+ on PATH)" >&2
    exit 3
  fi
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cache="${MCP_SIM_EXAMPLES_CACHE:-$root/node_modules/.cache/mcp-sim/examples}/java"
start=$(date +%s.%N)

mkdir -p "$cache"
hash="$(cd "$here" && find pom.xml src -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)"
elapsed() { awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }

offline=()
if [[ "${MCP_SIM_EXAMPLES_OFFLINE:-}" == "1" ]]; then offline=(-o); fi

# The README's Java server (examples/your-server/java, `mvn package` as its author runs it), with
# the same local repository: the same SDK pin, so nothing more is fetched than its own plugins' use.
photos="$root/examples/your-server/java"
photos_hash="$(cd "$photos" && find pom.xml src -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)"
if [[ ! -f "$cache/photos/photos.jar" || "$(cat "$cache/photos/source.sha256" 2>/dev/null)" != "$photos_hash" ]]; then
  if ! (cd "$photos" && mvn -q -B "${offline[@]}" -Dmaven.repo.local="$cache/m2" -Dphotos.buildDir="$cache/photos/target" \
          -Dstyle.color=never clean package 2>&1 | sed 's/\x1b\[[0-9;]*m//g'); then
    echo "examples java: maven build of examples/your-server/java failed (see above)" >&2
    exit 1
  fi
  cp "$cache/photos/target/photos.jar" "$cache/photos/photos.jar.new" && mv -f "$cache/photos/photos.jar.new" "$cache/photos/photos.jar"
  echo "$photos_hash" > "$cache/photos/source.sha256"
fi

if [[ -f "$cache/servers.jar" && -f "$cache/source.sha256" && "$(cat "$cache/source.sha256")" == "$hash" ]]; then
  echo "examples java: ready (mcp 2.1.0, unchanged sources, $(elapsed) s)"
  exit 0
fi

# Maven 3.8 prints colour resets even with -q; strip them so the log stays plain text.
if ! (cd "$here" && mvn -q -B "${offline[@]}" -Dmaven.repo.local="$cache/m2" -Dexamples.buildDir="$cache/target" \
        -Dstyle.color=never clean package 2>&1 | sed 's/\x1b\[[0-9;]*m//g'); then
  echo "examples java: maven build failed (see above)" >&2
  exit 1
fi
# A new file moved into place: servers still running keep reading the jar they opened.
cp "$cache/target/servers.jar" "$cache/servers.jar.new" && mv -f "$cache/servers.jar.new" "$cache/servers.jar"

# Class-data-sharing archive from one short stdio session (initialize, one call with progress, EOF).
rm -f "$cache/servers.jsa.new"
printf '%s\n' \
  '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"install","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","arguments":{"steps":1,"stepMs":5},"_meta":{"progressToken":1}}}' \
  | { cat; sleep 1; } \
  | timeout 30 java -XX:TieredStopAtLevel=1 -XX:ArchiveClassesAtExit="$cache/servers.jsa.new" \
      -jar "$cache/servers.jar" --variant correct >/dev/null 2>"$cache/cds.log" \
  && mv -f "$cache/servers.jsa.new" "$cache/servers.jsa" \
  || { rm -f "$cache/servers.jsa"; echo "examples java: note: no class-data archive (start-up is slower, nothing else changes)" >&2; }

echo "$hash" > "$cache/source.sha256"
echo "examples java: ready (mcp 2.1.0, 9 servers in one jar, $(elapsed) s)"
