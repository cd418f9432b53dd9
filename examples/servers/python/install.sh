#!/usr/bin/env bash
# Installs the Python example servers: a venv in the cache directory with exactly the packages pinned
# in requirements.txt (every transitive package, `==`), from PyPI, wheels only. Idempotent: a
# marker in the venv holds the hash of requirements.txt and the interpreter version; when both
# match, nothing is reinstalled. Exit 3: no usable Python toolchain; exit 1: any other failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cache="${MCP_SIM_EXAMPLES_CACHE:-$root/node_modules/.cache/mcp-sim/examples}/python"
python="${MCP_SIM_PYTHON:-python3}"
started="$(date +%s%N)"

seconds() { echo "$(( ($(date +%s%N) - started) / 100000000 ))" | sed -E 's/^([0-9]*)([0-9])$/\1.\2/; s/^\./0./'; }
fail() { echo "examples python: $1" >&2; exit 1; }
trap 'fail "install failed (command above exited non-zero); fix it and run install.sh again"' ERR

if ! command -v "$python" >/dev/null 2>&1; then
  echo "examples python: missing toolchain: '$python' not found (needs Python >= 3.10 with venv and pip; set MCP_SIM_PYTHON to use another)"
  exit 3
fi
if ! "$python" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null; then
  echo "examples python: missing toolchain: '$python' is $("$python" -V 2>&1), needs >= 3.10 with the venv and ensurepip modules"
  exit 3
fi

venv="$cache/venv"
marker="$venv/.mcp-sim-requirements"
want="$( { cat "$here/requirements.txt"; "$python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1)"

# The same pinned wheels kept as a local index (<cache>/python/wheels): the README's "your own
# venv" command (`python3 -m venv .venv && .venv/bin/pip install mcp==<pin>`) is run by
# test/docs/yourServer.test.ts as printed, offline (PIP_NO_INDEX, PIP_FIND_LINKS=<wheels>), so
# nothing is fetched when the tests run. Kept apart from the venv: filling it never touches it.
wheels="$cache/wheels"
if [[ ! -f "$wheels/.mcp-sim-requirements" || "$(cat "$wheels/.mcp-sim-requirements")" != "$want" ]]; then
  rm -rf "$wheels"
  mkdir -p "$wheels"
  "$python" -m pip download --quiet --disable-pip-version-check --no-input \
    --only-binary=:all: --no-deps -d "$wheels" -r "$here/requirements.txt"
  echo "$want" > "$wheels/.mcp-sim-requirements"
fi
if [[ -f "$marker" && "$(cat "$marker")" == "$want" && -x "$venv/bin/python" ]]; then
  echo "examples python: ready (cached venv, $(seconds) s)"
  exit 0
fi

rm -rf "$venv"
mkdir -p "$cache"
"$python" -m venv "$venv"
# --no-deps: requirements.txt is the whole closure, so pip resolves nothing on its own.
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
  --only-binary=:all: --no-deps -r "$here/requirements.txt"
"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null
"$venv/bin/python" -c 'import mcp.server.mcpserver, uvicorn, starlette'
echo "$want" > "$marker"
version="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')"
echo "examples python: ready (venv with mcp $version, $(seconds) s)"
