"""Fuzz an MCP server's request lifecycle with mcp-sim from a pytest test.

``check(command, runs=...)`` (or the ``mcp_sim`` fixture's ``check``) runs ``mcp-sim check`` on a
stdio server command and fails the test with each finding's text and replay command; a clean
campaign passes. The CLI is ``--mcp-sim``, else ``$MCP_SIM``, else ``npx mcp-sim``.
"""

from ._check import DEFAULT_MCP_SIM, MCP_SIM_ENV, Finding, Result, check, mcp_sim_command, run
from .plugin import McpSim

__all__ = ["DEFAULT_MCP_SIM", "MCP_SIM_ENV", "Finding", "McpSim", "Result", "check", "mcp_sim_command", "run"]
__version__ = "0.1.0"
