"""The plugin on mcp-sim's Python example servers: the correct one passes; one that sends progress
with its own token ("task-1", pitfall 1) fails a test with that finding's text and replay command."""

from __future__ import annotations

import pytest
from conftest import SHORT, cli, server

import pytest_mcp_sim


def test_the_fixture_passes_a_correct_server(mcp_sim, tmp_path) -> None:
    result = mcp_sim.check(server("correct.py"), out=tmp_path, **SHORT)
    assert result.passed and result.exit_code == 0
    assert result.failing == ()


def test_check_fails_the_test_on_a_faulty_server(pytester: pytest.Pytester, tmp_path) -> None:
    """A user's test file on the faulty server, run by pytest in a child process (the plugin loaded by
    its entry point, the CLI named by --mcp-sim): it must fail, with the finding and its replay."""
    pytester.makepyfile(
        test_user=f"""
        def test_my_server(mcp_sim):
            mcp_sim.check({server("progress_own_token.py")!r}, out={str(tmp_path)!r}, runs={SHORT["runs"]}, rate_runs={SHORT["rate_runs"]})
        """
    )
    run = pytester.runpytest_subprocess("--mcp-sim", cli(), "-q")
    output = run.stdout.str()
    assert run.ret == pytest.ExitCode.TESTS_FAILED, output
    run.assert_outcomes(failed=1)
    for want in (
        "fail the check:",
        'progress.token-requested (MUST): the server sent progress for token "task-1"',
        "minimal case:",
        "replay: npx mcp-sim replay ",
    ):
        assert want in output, f"{want!r} not in:\n{output}"


def test_an_unusable_cli_fails_with_its_output(tmp_path) -> None:
    result = pytest_mcp_sim.run(server("correct.py"), args=["--no-such-flag"], mcp_sim=cli())
    assert not result.passed and result.exit_code == 2
    assert "mcp-sim did not judge" in result.failure_text()
    with pytest.raises(pytest.fail.Exception):
        pytest_mcp_sim.check(server("correct.py"), args=["--no-such-flag"], mcp_sim=cli())


def test_the_cli_is_found_by_argument_env_or_npx(monkeypatch) -> None:
    monkeypatch.delenv("MCP_SIM", raising=False)
    assert pytest_mcp_sim.mcp_sim_command() == ["npx", "mcp-sim"]
    monkeypatch.setenv("MCP_SIM", "node '/a b/bin/mcp-sim.js'")
    assert pytest_mcp_sim.mcp_sim_command() == ["node", "/a b/bin/mcp-sim.js"]
    assert pytest_mcp_sim.mcp_sim_command(["x", "y"]) == ["x", "y"]
