#!/usr/bin/env bash
# Installs the Python SDK test bed (testbeds/PROGRAM.md, and its client: testbeds/CLIENT.md) for one release of `mcp`:
# MCP_SIM_SDK_VERSION (default: the first release testbed.json lists) into
# <cache root>/sdk-python/<version>/venv, with exactly the packages pinned in
# releases/<version>/requirements.txt (the whole closure, `==`), from PyPI, wheels only.
# A version that is not listed is resolved by pip at install time (mcp==<version> and its
# dependencies), its resolved closure written to <version>/requirements.txt in the cache.
# Idempotent: a marker holds the hash of the requirements and the interpreter version; when it
# matches, nothing is reinstalled. Exit 3: no usable Python; exit 4: PyPI has no such release of
# mcp (or none with wheels for this Python); exit 1: any other failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${MCP_SIM_PYTHON:-python3}"
started="$(date +%s.%N)"
pip_flags=(--quiet --disable-pip-version-check --no-input --only-binary=:all:)

seconds() { awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
fail() { echo "testbed sdk-python: $1" >&2; exit 1; }
trap 'fail "install failed (command above exited non-zero); fix it and run install.sh again"' ERR

if ! command -v "$python" >/dev/null 2>&1 || ! "$python" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
  echo "testbed sdk-python: missing toolchain: '$python' with Python >= 3.10, venv and ensurepip (set MCP_SIM_PYTHON to use another)"
  exit 3
fi

version="${MCP_SIM_SDK_VERSION:-$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["releases"][0]["version"])' "$here/testbed.json")}"
if [[ ! "$version" =~ ^[0-9A-Za-z.+-]+$ ]]; then
  echo "testbed sdk-python: unknown version '$version' of mcp (not a version)"
  exit 4
fi
dir="${MCP_SIM_TESTBED_CACHE:-$root/node_modules/.cache/mcp-sim/testbeds}/sdk-python/$version"
venv="$dir/venv"
marker="$venv/.mcp-sim-requirements"
pinned="$here/releases/$version/requirements.txt"
interpreter="$("$python" -c 'import sys; print(sys.version)')"

if [[ -f "$pinned" ]]; then
  want="$( { cat "$pinned"; echo "$interpreter"; } | sha256sum | cut -d' ' -f1)"
  what="mcp $version"
else
  # Unpinned: the resolved closure in the cache is this release's lockfile once written.
  want="$( { echo "unpinned mcp==$version"; echo "$interpreter"; } | sha256sum | cut -d' ' -f1)"
  what="mcp $version, unpinned: resolved at install"
fi
if [[ -f "$marker" && "$(cat "$marker")" == "$want" && -x "$venv/bin/python" ]]; then
  echo "testbed sdk-python: ready (cached venv with $what, $(seconds) s)"
  exit 0
fi

if [[ ! -f "$pinned" ]]; then
  # Ask PyPI before building anything: a release it does not have is exit 4, not a failure.
  probe="$(mktemp -d)"
  if ! "$python" -m pip download "${pip_flags[@]}" --no-deps -d "$probe" "mcp==$version" >/dev/null 2>&1; then
    rm -rf "$probe"
    echo "testbed sdk-python: unknown version '$version' of mcp: PyPI has no such release with wheels for Python ${interpreter%% *}"
    exit 4
  fi
  rm -rf "$probe"
fi

rm -rf "$venv"
mkdir -p "$dir"
"$python" -m venv "$venv"
if [[ -f "$pinned" ]]; then
  # --no-deps: requirements.txt is the whole closure, so pip resolves nothing on its own.
  "$venv/bin/python" -m pip install "${pip_flags[@]}" --no-deps -r "$pinned"
else
  "$venv/bin/python" -m pip install "${pip_flags[@]}" "mcp==$version"
  "$venv/bin/python" -m pip freeze --disable-pip-version-check --exclude pip --exclude setuptools --exclude wheel > "$dir/requirements.txt"
fi
"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null
# The interpreter's own import probe (2.x: mcp_types; 1.x: mcp.types) must pass on this release.
"$venv/bin/python" "$here/server.py" --probe >/dev/null
# The test-bed client (testbeds/CLIENT.md, client.py) runs in the same venv: its import probe too.
"$venv/bin/python" "$here/client.py" --probe >/dev/null
echo "$want" > "$marker"
installed="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')"
echo "testbed sdk-python: ready (venv with mcp $installed${what#mcp "$version"}, $(seconds) s)"
