#!/usr/bin/env bash
# Builds the Java SDK test bed (testbeds/PROGRAM.md) into the cache: <cache>/sdk-java/testbed.jar,
# Maven's local repository in <cache>/sdk-java/m2 (everything from Maven Central; `-o` works
# after one online build: MCP_SIM_TESTBED_OFFLINE=1). Idempotent: a hash of pom.xml and src skips
# an unchanged build. Exit 3: java or mvn missing; exit 1: any other failure.
set -euo pipefail
for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "testbed sdk-java: missing toolchain: $tool (needs Java 17+ and Maven 3.8+ on PATH)"
    exit 3
  fi
done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${MCP_SIM_TESTBED_CACHE:-$root/node_modules/.cache/mcp-sim/testbeds}/sdk-java"
start=$(date +%s.%N)
elapsed() { awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }
mkdir -p "$cache"
hash="$(cd "$here" && find pom.xml src -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1)"
if [[ -f "$cache/testbed.jar" && -f "$cache/source.sha256" && "$(cat "$cache/source.sha256")" == "$hash" ]]; then
  echo "testbed sdk-java: ready (mcp 2.1.0, unchanged sources, $(elapsed) s)"
  exit 0
fi
offline=()
if [[ "${MCP_SIM_TESTBED_OFFLINE:-}" == "1" ]]; then offline=(-o); fi
if ! (cd "$here" && mvn -q -B "${offline[@]}" -Dmaven.repo.local="$cache/m2" -Dtestbed.buildDir="$cache/target" \
        -Dstyle.color=never clean package 2>&1 | sed 's/\x1b\[[0-9;]*m//g'); then
  echo "testbed sdk-java: maven build failed (see above)" >&2
  exit 1
fi
cp "$cache/target/testbed.jar" "$cache/testbed.jar"
echo "$hash" > "$cache/source.sha256"
echo "testbed sdk-java: ready (mcp 2.1.0, $(elapsed) s)"
