// Package mcpsimtest runs mcp-sim's lifecycle campaign on an MCP server from a Go test.
//
//	func TestServerLifecycle(t *testing.T) {
//		mcpsimtest.Check(t, []string{"./bin/server"}, mcpsimtest.Runs(20))
//	}
//
// Check runs `mcp-sim check --json FILE -- <command>` and fails the test (t.Fatalf) with each
// finding that fails the check: its rule, minimal case, reproduction rate and replay command. A
// clean campaign passes. The package judges nothing itself: the CLI's exit code is the verdict (0
// pass, 1 findings, anything else an error) and its --json report gives the text; a run that ends
// without a readable report fails too, with what the CLI printed.
//
// The CLI is the MCPSim option, else $MCP_SIM (a command line split on spaces), else "npx mcp-sim".
package mcpsimtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// DefaultMCPSim is the CLI's command line when neither the MCPSim option nor $MCP_SIM says.
const DefaultMCPSim = "npx mcp-sim"

// EnvMCPSim names the environment variable that holds the CLI's command line.
const EnvMCPSim = "MCP_SIM"

type config struct {
	mcpSim  []string
	flags   []string
	dir     string
	env     []string
	context context.Context
}

// Option sets one flag of `mcp-sim check`, or how the CLI is run.
type Option func(*config)

func flag(name string, value string) Option {
	return func(c *config) { c.flags = append(c.flags, name, value) }
}

// Runs is --runs: the number of generated runs.
func Runs(n int) Option { return flag("--runs", strconv.Itoa(n)) }

// RateRuns is --rate-runs: the re-runs of each minimal case for its reproduction rate.
func RateRuns(n int) Option { return flag("--rate-runs", strconv.Itoa(n)) }

// Seed is --seed: the campaign's seed.
func Seed(n int64) Option { return flag("--seed", strconv.FormatInt(n, 10)) }

// HangAfter is --hang-after (milliseconds): a call silent this long is a finding.
func HangAfter(ms int) Option { return flag("--hang-after", strconv.Itoa(ms)) }

// FailOn is --fail-on: the lowest severity that fails (must, should or advice).
func FailOn(level string) Option { return flag("--fail-on", level) }

// Out is --out: the folder of the findings' replay files (default .mcp-sim/repro).
func Out(dir string) Option { return flag("--out", dir) }

// Args adds any other flags of `mcp-sim check`, as given.
func Args(args ...string) Option {
	return func(c *config) { c.flags = append(c.flags, args...) }
}

// MCPSim is the CLI's command line (for example "node", "/path/to/mcp-sim/bin/mcp-sim.js").
func MCPSim(command ...string) Option {
	return func(c *config) { c.mcpSim = append([]string(nil), command...) }
}

// Dir is the folder the CLI runs in (default: the test's own, its package folder).
func Dir(dir string) Option { return func(c *config) { c.dir = dir } }

// Env adds KEY=VALUE entries to the CLI's environment.
func Env(kv ...string) Option { return func(c *config) { c.env = append(c.env, kv...) } }

// Context bounds the CLI's run (a cancelled context kills it).
func Context(ctx context.Context) Option { return func(c *config) { c.context = ctx } }

// Finding is one finding of the report, as much of it as a failing test prints.
type Finding struct {
	Invariant   string   `json:"invariant"`
	Level       string   `json:"level"`
	Message     string   `json:"message"`
	FailsCheck  *bool    `json:"failsCheck"`
	Steps       []string `json:"steps"`
	Determinism string   `json:"determinism"`
	Replay      *struct {
		Command string `json:"command"`
	} `json:"replay"`
}

// Fails says whether the finding fails the check (a report without the field: it does).
func (f Finding) Fails() bool { return f.FailsCheck == nil || *f.FailsCheck }

// Text is the finding as the CLI's text report words it: rule, message, minimal case, rate, replay.
func (f Finding) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s", f.Invariant, f.Level, f.Message)
	if len(f.Steps) > 0 {
		b.WriteString("\n  minimal case:")
		for _, s := range f.Steps {
			b.WriteString("\n    " + s)
		}
	}
	if f.Determinism != "" {
		b.WriteString("\n  " + f.Determinism)
	}
	if f.Replay != nil && f.Replay.Command != "" {
		b.WriteString("\n  replay: " + f.Replay.Command)
	}
	return b.String()
}

// Report is the part of the --json report this package reads.
type Report struct {
	Verdict struct {
		Result   string   `json:"result"`
		ExitCode int      `json:"exitCode"`
		Failing  []string `json:"failing"`
	} `json:"verdict"`
	Findings []Finding `json:"findings"`
}

// Result is what one campaign gave.
type Result struct {
	Command  []string
	ExitCode int
	// Report is nil when the CLI wrote none (an error before or during the campaign).
	Report *Report
	// Output is what the CLI printed (stdout and stderr).
	Output string
}

// Passed says whether the campaign ran and its verdict is pass.
func (r *Result) Passed() bool {
	return r.ExitCode == 0 && r.Report != nil && r.Report.Verdict.Result == "pass"
}

// Failing lists the findings that fail the check.
func (r *Result) Failing() []Finding {
	var out []Finding
	if r.Report != nil {
		for _, f := range r.Report.Findings {
			if f.Fails() {
				out = append(out, f)
			}
		}
	}
	return out
}

// FailureText is what Check prints when the campaign did not pass.
func (r *Result) FailureText() string {
	target := strings.Join(r.Command, " ")
	if r.Report == nil || (r.ExitCode != 0 && r.ExitCode != 1) {
		return fmt.Sprintf("mcp-sim did not judge `%s` (exit %d, report: %t):\n%s", target, r.ExitCode, r.Report != nil, strings.TrimSpace(r.Output))
	}
	failing := r.Failing()
	if len(failing) == 0 {
		return fmt.Sprintf("mcp-sim failed `%s` (exit %d, verdict %q):\n%s", target, r.ExitCode, r.Report.Verdict.Result, strings.TrimSpace(r.Output))
	}
	plural := "s"
	if len(failing) == 1 {
		plural = ""
	}
	lines := []string{fmt.Sprintf("mcp-sim: %d finding%s on `%s` fail the check:", len(failing), plural, target)}
	for _, f := range failing {
		lines = append(lines, f.Text())
	}
	return strings.Join(lines, "\n")
}

// mcpSimCommand is the CLI's command line: the option, else $MCP_SIM, else npx mcp-sim.
func mcpSimCommand(c *config) []string {
	if len(c.mcpSim) > 0 {
		return c.mcpSim
	}
	if env := strings.Fields(os.Getenv(EnvMCPSim)); len(env) > 0 {
		return env
	}
	return strings.Fields(DefaultMCPSim)
}

// Run runs `mcp-sim check` on a stdio server command and returns its result; it fails no test.
// The error is for a CLI that could not be started at all.
func Run(command []string, opts ...Option) (*Result, error) {
	if len(command) == 0 {
		return nil, errors.New("mcpsimtest: the server command is empty")
	}
	c := &config{context: context.Background()}
	for _, o := range opts {
		o(c)
	}
	folder, err := os.MkdirTemp("", "mcpsimtest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(folder)
	reportPath := filepath.Join(folder, "report.json")
	cli := mcpSimCommand(c)
	argv := append(append(append(append([]string{}, cli[1:]...), "check", "--json", reportPath), c.flags...), "--")
	argv = append(argv, command...)
	cmd := exec.CommandContext(c.context, cli[0], argv...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), c.env...)
	var output bytes.Buffer
	cmd.Stdout = &output
	cmd.Stderr = &output
	result := &Result{Command: append([]string(nil), command...)}
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return nil, fmt.Errorf("mcpsimtest: cannot run %q: %w", strings.Join(cli, " "), err)
		}
		result.ExitCode = exit.ExitCode()
	}
	result.Output = output.String()
	if data, err := os.ReadFile(reportPath); err == nil {
		var report Report
		if json.Unmarshal(data, &report) == nil {
			result.Report = &report
		}
	}
	return result, nil
}

// Check runs the campaign like Run and fails the test (t.Fatalf) unless it passed, with each
// finding that fails the check: its rule, message, minimal case, reproduction rate and replay command.
func Check(t testing.TB, command []string, opts ...Option) *Result {
	t.Helper()
	result, err := Run(command, opts...)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if !result.Passed() {
		t.Fatalf("%s", result.FailureText())
	}
	return result
}
