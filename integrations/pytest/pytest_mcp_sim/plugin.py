"""The pytest side: the ``--mcp-sim`` option (and ``mcp_sim`` ini key) and the ``mcp_sim`` fixture."""

from __future__ import annotations

from typing import Any

import pytest

from ._check import Command, Result, check, run


class McpSim:
    """The fixture's value: :func:`check` and :func:`run` with the session's CLI already chosen."""

    def __init__(self, mcp_sim: Command | None) -> None:
        self.mcp_sim = mcp_sim

    def run(self, command: Command, **options: Any) -> Result:
        options.setdefault("mcp_sim", self.mcp_sim)
        return run(command, **options)

    def check(self, command: Command, **options: Any) -> Result:
        options.setdefault("mcp_sim", self.mcp_sim)
        return check(command, **options)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mcp-sim")
    help = "the mcp-sim command line (default: $MCP_SIM, else 'npx mcp-sim')"
    group.addoption("--mcp-sim", dest="mcp_sim", default=None, metavar="CMD", help=help)
    parser.addini("mcp_sim", help=help, default=None)


@pytest.fixture
def mcp_sim(request: pytest.FixtureRequest) -> McpSim:
    """``mcp_sim.check(["python", "server.py"], runs=20)`` fails the test on a finding."""
    chosen = request.config.getoption("mcp_sim") or request.config.getini("mcp_sim") or None
    return McpSim(chosen)
