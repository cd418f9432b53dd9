"""The plugin's own tests run mcp-sim's Python example servers (examples/servers/python, in the
venv `npm run examples` builds: $MCP_SIM_EXAMPLES_CACHE/python/venv). The CLI is $MCP_SIM, else
this clone's bin/mcp-sim.js. A missing build fails the tests: it never skips them."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "servers" / "python"

#: The campaign's size: short, so the suite stays within a minute on two busy cores.
SHORT = {"runs": 6, "rate_runs": 2}


def cli() -> str:
    """The mcp-sim command line of the tests: $MCP_SIM, else this clone's bin/mcp-sim.js."""
    return os.environ.get("MCP_SIM") or shlex.join(["node", str(ROOT / "bin" / "mcp-sim.js")])


def server(name: str) -> list[str]:
    """The command line of one Python example server, run by the examples' pinned venv."""
    cache = Path(os.environ.get("MCP_SIM_EXAMPLES_CACHE") or ROOT / "node_modules" / ".cache" / "mcp-sim" / "examples")
    python = cache / "python" / "venv" / "bin" / "python"
    if not python.exists():
        pytest.fail(f"the Python example servers are not built ({python} is missing): run `npm run examples` first", pytrace=False)
    return [str(python), str(EXAMPLES / name)]


# The plugin's fixture finds the CLI through $MCP_SIM, as a user's CI would set it.
os.environ.setdefault("MCP_SIM", cli())
