#!/usr/bin/env bash
# Builds the Java SDK test bed (testbeds/PROGRAM.md) and its client (testbeds/CLIENT.md, main class
# dev.mcpsim.sdktestbed.Client in the same jar) for one release of io.modelcontextprotocol.sdk:mcp,
# MCP_SIM_SDK_VERSION (default: the first release testbed.json lists), into
#   <cache>/sdk-java/<version>/testbed.jar   (<cache>: $MCP_SIM_TESTBED_CACHE, else <repo>/node_modules/.cache/mcp-sim/testbeds)
# with Maven's local repository shared by the releases in <cache>/sdk-java/m2 (everything from
# Maven Central; `-o` works after one online build: MCP_SIM_TESTBED_OFFLINE=1).
# A pinned release builds from releases/<version>/pom.xml (and its *.java, each in place of the
# src/ file of that name, where the release's API differs); a version not listed gets a pom made
# from the newest pinned one, written with its resolved dependency list into its directory.
# Idempotent: a hash of the poms and src skips an unchanged build.
# Exit 3: java or mvn missing; exit 4: Maven Central has no such release; exit 1: any other failure.
set -euo pipefail
for tool in java mvn; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "testbed sdk-java: missing toolchain: $tool (needs Java 17+ and Maven 3.8+ on PATH)"
    exit 3
  fi
done
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
base="${MCP_SIM_TESTBED_CACHE:-$root/node_modules/.cache/mcp-sim/testbeds}/sdk-java"
start=$(date +%s.%N)
elapsed() { awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }
# The releases testbed.json lists, newest first (node is there: mcp-sim runs this script).
listed="$(node -e 'for (const r of require(process.argv[1]).releases) console.log(r.version)' "$here/testbed.json")"
newest="$(head -n1 <<<"$listed")"
version="${MCP_SIM_SDK_VERSION:-$newest}"
if [[ ! "$version" =~ ^[0-9A-Za-z.+-]+$ ]]; then
  echo "testbed sdk-java: not a release name: $version"
  exit 4
fi
cache="$base/$version"
mkdir -p "$cache"
offline=()
if [[ "${MCP_SIM_TESTBED_OFFLINE:-}" == "1" ]]; then offline=(-o); fi
mvn_q() { mvn -q -B "${offline[@]}" -Dmaven.repo.local="$base/m2" -Dstyle.color=never "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g'; }

if grep -qxF "$version" <<<"$listed"; then
  pom="$here/releases/$version/pom.xml"
  pinned="pinned"
else
  # Unlisted: ask Maven Central for the release before anything is built.
  if ! mvn_q dependency:get -Dartifact="io.modelcontextprotocol.sdk:mcp:$version" -Dtransitive=false >/dev/null; then
    echo "testbed sdk-java: io.modelcontextprotocol.sdk:mcp $version is not on Maven Central (pinned: $(tr '\n' ' ' <<<"$listed"))"
    exit 4
  fi
  pom="$cache/pom.xml"
  # Maven finds a parent by a relative path: a copy of the shared build beside the release's folder.
  cp "$here/pom.xml" "$base/parent-pom.xml"
  sed -e "s|<relativePath>../../pom.xml</relativePath>|<relativePath>../parent-pom.xml</relativePath>|" \
      -e "s|$newest|$version|g" "$here/releases/$newest/pom.xml" > "$pom.new"
  mv -f "$pom.new" "$pom"
  pinned="unpinned: resolved at install"
fi

# The release's sources: src/, where the API differs a file of releases/<version>/ in place of one of src/ (same name).
# An unlisted version takes the files of the newest pinned release of its major version (1.x: 1.1.4's).
overlay=()
like="$version"
if [[ "$pinned" != "pinned" ]]; then like="$(grep -m1 "^${version%%.*}\." <<<"$listed" || true)"; fi
if [[ -n "$like" ]]; then mapfile -t overlay < <(find "$here/releases/$like" -name '*.java' | LC_ALL=C sort); fi
hash="$( (cd "$here" && find pom.xml src install.sh train.mjs -type f | LC_ALL=C sort | xargs sha256sum; sha256sum "$pom" "${overlay[@]}" | cut -d' ' -f1) | sha256sum | cut -d' ' -f1)"
if [[ -f "$cache/testbed.jar" && -f "$cache/source.sha256" && "$(cat "$cache/source.sha256")" == "$hash" ]]; then
  echo "testbed sdk-java: ready (mcp $version, $pinned, unchanged sources, $(elapsed) s)"
  exit 0
fi
rm -rf "$cache/src" && cp -R "$here/src" "$cache/src"
for file in "${overlay[@]}"; do
  cp "$file" "$cache/src/main/java/dev/mcpsim/sdktestbed/$(basename "$file")"
done
if ! mvn_q -f "$pom" -Dtestbed.buildDir="$cache/target" -Dtestbed.sources="$cache/src/main" clean package; then
  echo "testbed sdk-java: maven build of mcp $version failed (see above)"
  exit 1
fi
if [[ "$pinned" != "pinned" ]]; then
  # What an unlisted release resolved to: its lockfile, in its own directory.
  mvn_q -f "$pom" dependency:list -DoutputFile="$cache/dependencies.txt" -DincludeScope=runtime >/dev/null
fi
# A new file moved into place: a server still running keeps reading the jar it opened.
cp "$cache/target/testbed.jar" "$cache/testbed.jar.new" && mv -f "$cache/testbed.jar.new" "$cache/testbed.jar"
# Class-data sharing: the classes one short HTTP session loads (initialize, a call with progress;
# SDK, Jackson, Reactor, Jetty) archived at its exit, so every later JVM maps them instead of
# loading them: about 2 to 3 times faster to the initialize answer, over stdio and HTTP alike.
# Without the archive (the training failed) the JVM starts as before, without a word on stdout.
rm -f "$cache/testbed.jsa" "$cache/testbed.jsa.new"
java -XX:+DisplayVMOutputToStderr -Xlog:disable -Xlog:all=warning:stderr -XX:ArchiveClassesAtExit="$cache/testbed.jsa.new" \
  -jar "$cache/testbed.jar" --http --port 0 --mode stateful-sse >/dev/null 2>"$cache/training.log" &
server=$!
rm -f "$cache/client.jsa" "$cache/client.jsa.new" "$cache/client.ready"
if node "$here/train.mjs" "$cache/training.log"; then
  # The client's own archive (testbeds/CLIENT.md; dev.mcpsim.sdktestbed.Client, same jar): one
  # client script against the same server over Streamable HTTP (initialize, a call with progress,
  # an aborted call, close; the test-bed server answers the call with an error, it carries no program).
  url="$(grep -o 'listening on http://[^ ]*' "$cache/training.log" | head -n1 | cut -d' ' -f3)"
  cat > "$cache/client-training.json" <<JSON
{"server": {"url": "$url"}, "serverRequests": {"delayMs": 0, "hang": false}, "deadlineMs": 10000,
 "actions": [{"kind": "call", "call": "training", "atMs": 0, "progress": true, "timeoutMs": 10000},
             {"kind": "call", "call": "aborted", "atMs": 0, "timeoutMs": 10000}, {"kind": "abort", "call": "aborted", "atMs": 1},
             {"kind": "close", "atMs": 200}]}
JSON
  limit=(); if command -v timeout >/dev/null 2>&1; then limit=(timeout 60); fi
  if "${limit[@]}" java -XX:+DisplayVMOutputToStderr -Xlog:disable -Xlog:all=warning:stderr -XX:ArchiveClassesAtExit="$cache/client.jsa.new" \
      -cp "$cache/testbed.jar" dev.mcpsim.sdktestbed.Client "$cache/client-training.json" >/dev/null 2>"$cache/client-training.log"; then
    [[ -f "$cache/client.jsa.new" ]] && mv -f "$cache/client.jsa.new" "$cache/client.jsa"
  fi
  kill -TERM "$server"; wait "$server" || true
  [[ -f "$cache/testbed.jsa.new" ]] && mv -f "$cache/testbed.jsa.new" "$cache/testbed.jsa"
else
  kill -TERM "$server" 2>/dev/null; wait "$server" || true
fi
[[ -f "$cache/testbed.jsa" ]] || echo "testbed sdk-java: note: no class-data archive (see $cache/training.log): start-up is slower, nothing else changes"
[[ -f "$cache/client.jsa" ]] || echo "testbed sdk-java: note: no client class-data archive (see $cache/client-training.log): the client starts slower, nothing else changes"
# The client's ready file: this jar has the client (a jar built before it did not).
echo "$hash" > "$cache/client.ready"
echo "$hash" > "$cache/source.sha256"
echo "testbed sdk-java: ready (mcp $version, $pinned, $(elapsed) s)"
