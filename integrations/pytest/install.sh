#!/usr/bin/env bash
# Installs the pytest plugin's test venv: a venv in the cache with exactly the packages pinned in
# requirements.txt (pytest and its closure, the build backend), from PyPI, wheels only, then the
# plugin itself as a user installs it (`pip install ./integrations/pytest`, built without
# fetching anything: --no-build-isolation with the pinned flit_core). Run before the tests (by
# `npm run integrations`, .ci/run): the tests fetch nothing. Idempotent: the venv is kept while
# requirements.txt and the interpreter are unchanged; the plugin is reinstalled every time (~1 s).
# Exit 3: no usable Python toolchain; exit 1: any other failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${MCP_SIM_INTEGRATIONS_CACHE:-$root/node_modules/.cache/mcp-sim/integrations}/pytest"
python="${MCP_SIM_PYTHON:-python3}"

fail() { echo "integrations pytest: $1" >&2; exit 1; }
trap 'fail "install failed (command above exited non-zero); fix it and run install.sh again"' ERR

if ! "$python" -c 'import sys, venv, ensurepip; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  echo "integrations pytest: missing toolchain: '$python' must be Python >= 3.11 with venv and ensurepip (set MCP_SIM_PYTHON to use another)"
  exit 3
fi

venv="$cache/venv"
marker="$venv/.mcp-sim-requirements"
want="$( { cat "$here/requirements.txt"; "$python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1)"
if [[ ! -f "$marker" || "$(cat "$marker")" != "$want" || ! -x "$venv/bin/python" ]]; then
  rm -rf "$venv"
  mkdir -p "$cache"
  "$python" -m venv "$venv"
  # --no-deps: requirements.txt is the whole closure, so pip resolves nothing on its own.
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    --only-binary=:all: --no-deps -r "$here/requirements.txt"
  echo "$want" > "$marker"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
  --no-deps --no-build-isolation --force-reinstall "$here"
"$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null
version="$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("pytest"))')"
echo "integrations pytest: ready (venv with pytest $version and pytest-mcp-sim, $venv)"
