package mcpsimtest

// The package's own tests, on mcp-sim's Go example servers (examples/servers/go, built by
// `npm run examples` into $MCP_SIM_EXAMPLES_CACHE/go/bin/server): the correct one passes, the one
// that sends progress with its own token ("task-1", pitfall 1) fails with that finding's text and
// its replay command. The CLI is $MCP_SIM, else this clone's bin/mcp-sim.js.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The campaign's size: short, so the suite stays within a minute on two busy cores.
var short = []Option{Runs(6), RateRuns(2)}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// cli is the mcp-sim command line of the tests: $MCP_SIM, else this clone's bin/mcp-sim.js.
func cli(t *testing.T) Option {
	if os.Getenv(EnvMCPSim) != "" {
		return func(*config) {}
	}
	return MCPSim("node", filepath.Join(repoRoot(t), "bin", "mcp-sim.js"))
}

// exampleServer is the command line of one Go example server; a missing build fails (never skips).
func exampleServer(t *testing.T, variant string) []string {
	t.Helper()
	cache := os.Getenv("MCP_SIM_EXAMPLES_CACHE")
	if cache == "" {
		cache = filepath.Join(repoRoot(t), "node_modules", ".cache", "mcp-sim", "examples")
	}
	server := filepath.Join(cache, "go", "bin", "server")
	if _, err := os.Stat(server); err != nil {
		t.Fatalf("the Go example servers are not built (%v): run `npm run examples` first", err)
	}
	return []string{server, "--variant", variant}
}

func TestCorrectServerPasses(t *testing.T) {
	t.Parallel()
	result := Check(t, exampleServer(t, "correct"), append(short, cli(t), Out(t.TempDir()))...)
	if result.Report == nil || len(result.Failing()) != 0 {
		t.Fatalf("a pass without a clean report: %+v", result)
	}
}

// TestCheckFailsTheTest runs TestDemoFaultyServer in a child of this test binary: Check must
// end that test with t.Fatalf (exit non-zero, FAIL), printing the finding (rule, message,
// minimal case) and its replay command.
func TestCheckFailsTheTest(t *testing.T) {
	t.Parallel()
	child := exec.Command(os.Args[0], "-test.run=^TestDemoFaultyServer$", "-test.v", "-test.count=1")
	child.Env = append(os.Environ(), "MCPSIMTEST_DEMO_OUT="+t.TempDir())
	output, err := child.CombinedOutput()
	if err == nil {
		t.Fatalf("Check did not fail the test on the faulty server:\n%s", output)
	}
	for _, want := range []string{"--- FAIL: TestDemoFaultyServer", "fail the check:", "progress.token-requested (MUST): the server sent progress for token", "minimal case:", "replay: npx mcp-sim replay "} {
		if !strings.Contains(string(output), want) {
			t.Errorf("the failing test's output lacks %q:\n%s", want, output)
		}
	}
}

// TestDemoFaultyServer is what a user's test on a faulty server looks like; it runs only as the
// child of TestCheckFailsTheTest (where it must fail), and is skipped otherwise.
func TestDemoFaultyServer(t *testing.T) {
	out := os.Getenv("MCPSIMTEST_DEMO_OUT")
	if out == "" {
		t.Skip("runs only as the child of TestCheckFailsTheTest, which expects it to fail")
	}
	Check(t, exampleServer(t, "progress-own-token"), append(short, cli(t), Out(out))...)
}

func TestUnusableCLIFailsWithItsOutput(t *testing.T) {
	result, err := Run(exampleServer(t, "correct"), cli(t), Args("--no-such-flag"))
	if err != nil {
		t.Fatal(err)
	}
	if result.Passed() || result.ExitCode != 2 || !strings.Contains(result.FailureText(), "mcp-sim did not judge") {
		t.Fatalf("a usage error must not pass: exit %d\n%s", result.ExitCode, result.FailureText())
	}
}
