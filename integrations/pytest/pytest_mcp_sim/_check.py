"""One mcp-sim campaign on a stdio server command, run through the CLI and read from its --json report.

The plugin judges nothing itself: ``mcp-sim check --json FILE -- <command>`` runs the campaign,
its exit code is the verdict (0 pass, 1 findings that fail the check, anything else an error) and
the report's findings give the text a failing test shows. A run that ends without a readable
report fails too, with what the CLI printed: a test never passes on a campaign that did not run.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence, Union

import pytest

#: How the CLI is found when neither the ``mcp_sim`` argument nor ``--mcp-sim`` says.
DEFAULT_MCP_SIM = "npx mcp-sim"
#: The environment variable that names the CLI (a command line, split like a shell would).
MCP_SIM_ENV = "MCP_SIM"

Command = Union[str, Sequence[str]]


def mcp_sim_command(explicit: Command | None = None) -> list[str]:
    """The CLI's command line: ``explicit``, else ``$MCP_SIM``, else ``npx mcp-sim``."""
    value: Command = explicit or os.environ.get(MCP_SIM_ENV) or DEFAULT_MCP_SIM
    return shlex.split(value) if isinstance(value, str) else list(value)


@dataclass(frozen=True)
class Finding:
    """One finding of the report, as much of it as a failing test prints."""

    invariant: str
    level: str
    message: str
    fails_check: bool
    steps: tuple[str, ...] = ()
    determinism: str | None = None
    replay: str | None = None

    @classmethod
    def from_report(cls, raw: Mapping[str, Any]) -> "Finding":
        replay = raw.get("replay")
        command = replay.get("command") if isinstance(replay, Mapping) else replay if isinstance(replay, str) else None
        return cls(
            invariant=str(raw.get("invariant", "?")),
            level=str(raw.get("level", "?")),
            message=str(raw.get("message", "")),
            fails_check=bool(raw.get("failsCheck", True)),
            steps=tuple(str(s) for s in raw.get("steps", ())),
            determinism=raw.get("determinism"),
            replay=command,
        )

    def text(self) -> str:
        """The finding as the CLI's text report words it: rule, message, minimal case, rate, replay."""
        lines = [f"{self.invariant} ({self.level}): {self.message}"]
        if self.steps:
            lines.append("  minimal case:")
            lines.extend(f"    {step}" for step in self.steps)
        if self.determinism:
            lines.append(f"  {self.determinism}")
        if self.replay:
            lines.append(f"  replay: {self.replay}")
        return "\n".join(lines)


@dataclass(frozen=True)
class Result:
    """What one campaign gave: the CLI's exit code, the report's findings and what it printed."""

    command: tuple[str, ...]
    exit_code: int
    report: Mapping[str, Any] | None
    output: str
    findings: tuple[Finding, ...] = field(default=())

    @property
    def passed(self) -> bool:
        verdict = (self.report or {}).get("verdict", {})
        return self.exit_code == 0 and verdict.get("result") == "pass"

    @property
    def failing(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.fails_check)

    def failure_text(self) -> str:
        target = shlex.join(self.command)
        if self.report is None or self.exit_code not in (0, 1):
            return (
                f"mcp-sim did not judge `{target}` (exit {self.exit_code}, "
                f"{'no' if self.report is None else 'a'} report):\n{self.output.strip()}"
            )
        failing = self.failing
        if not failing:
            verdict = self.report.get("verdict", {})
            return f"mcp-sim failed `{target}` (exit {self.exit_code}, verdict {json.dumps(verdict)}):\n{self.output.strip()}"
        head = f"mcp-sim: {len(failing)} finding{'s' if len(failing) != 1 else ''} on `{target}` fail the check:"
        return "\n".join([head, *(f.text() for f in failing)])


def run(
    command: Command,
    *,
    runs: int | None = None,
    rate_runs: int | None = None,
    seed: int | None = None,
    hang_after: int | None = None,
    fail_on: str | None = None,
    out: str | os.PathLike[str] | None = None,
    args: Sequence[str] = (),
    mcp_sim: Command | None = None,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> Result:
    """Runs ``mcp-sim check`` on a stdio server command and returns its result (never fails a test).

    ``command`` is the server's command line (a list, or a string split like a shell would);
    ``runs``, ``rate_runs``, ``seed``, ``hang_after`` (ms), ``fail_on`` and ``out`` (the folder
    of replay files) are the flags of the same names; ``args`` any other flags of ``check``.
    """
    server = shlex.split(command) if isinstance(command, str) else list(command)
    if not server:
        raise ValueError("mcp_sim: the server command is empty")
    flags: list[str] = []
    for flag, value in (("--runs", runs), ("--rate-runs", rate_runs), ("--seed", seed), ("--hang-after", hang_after), ("--fail-on", fail_on), ("--out", out)):
        if value is not None:
            flags += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    with tempfile.TemporaryDirectory(prefix="pytest-mcp-sim-") as folder:
        report_path = Path(folder) / "report.json"
        argv = [*mcp_sim_command(mcp_sim), "check", "--json", str(report_path), *flags, *args, "--", *server]
        done = subprocess.run(
            argv,
            cwd=cwd,
            env={**os.environ, **(env or {})},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
        )
        report: Mapping[str, Any] | None
        try:
            report = json.loads(report_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            report = None
    findings = tuple(Finding.from_report(f) for f in (report or {}).get("findings", ()))
    return Result(command=tuple(server), exit_code=done.returncode, report=report, output=done.stdout, findings=findings)


def check(command: Command, **options: Any) -> Result:
    """Like :func:`run`, but fails the calling test (``pytest.fail``) unless the campaign passed.

    The failure shows each finding that fails the check: its rule, message, minimal case,
    reproduction rate and replay command.
    """
    result = run(command, **options)
    if not result.passed:
        pytest.fail(result.failure_text(), pytrace=False)
    return result
