// Command server is mcp-sim's Go SDK test bed (testbeds/PROGRAM.md): one tool `run` whose
// `program` argument is a scripted handler program (mcp-sim's HandlerProgram), interpreted in
// real time with go-sdk's raw tool API (Server.AddTool, the low layer) or, with --layer high,
// its typed one (mcp.AddTool, typed.go). Handler events go to stderr as `mcp-sim-event {json}`
// lines.
//
// Abort policies, the way Go authors write them: honour selects on ctx.Done() in every wait and
// returns ctx.Err(); swallow does the same but returns a result; ignore runs the steps under
// context.WithoutCancel(ctx), so nothing it waits on sees the cancel (a goroutine still reports
// that the request's ctx ended, for the side channel).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A program's fields: what PROGRAM.md makes optional is omitempty, so the typed layer's input
// schema (inferred from these types by mcp.AddTool) requires only what the contract requires.
type step struct {
	Kind      string   `json:"kind"`
	Progress  float64  `json:"progress,omitempty"`
	Total     *float64 `json:"total,omitempty"`
	Message   *string  `json:"message,omitempty"`
	Ms        int      `json:"ms,omitempty"`
	Method    string   `json:"method,omitempty"`
	TimeoutMs *int     `json:"timeoutMs,omitempty"`
}

type end struct {
	Kind    string  `json:"kind"`
	Code    int64   `json:"code,omitempty"`
	Message *string `json:"message,omitempty"`
}

type faults struct {
	ProgressToken string `json:"progressToken,omitempty"`
}

type program struct {
	Steps   []step  `json:"steps"`
	End     end     `json:"end"`
	OnAbort string  `json:"onAbort,omitempty"`
	Faults  *faults `json:"faults,omitempty"`
}

var stderrMu sync.Mutex

// event writes one side-channel line.
func writeEvent(body map[string]any) {
	line, _ := json.Marshal(body)
	stderrMu.Lock()
	defer stderrMu.Unlock()
	fmt.Fprintf(os.Stderr, "mcp-sim-event %s\n", line)
}

func result() *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}
}

// wait sleeps d or returns ctx.Err() when ctx ends first.
func wait(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// downstream sends the request a `call` step names, with the simulator's params.
func downstream(ctx context.Context, ss *mcp.ServerSession, method string) error {
	var err error
	switch method {
	case "roots/list":
		_, err = ss.ListRoots(ctx, &mcp.ListRootsParams{})
	case "sampling/createMessage":
		_, err = ss.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 16, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "run"}}}})
	case "elicitation/create":
		_, err = ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: "run", RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}}})
	default:
		err = fmt.Errorf("call step: unknown method %q", method)
	}
	return err
}

// handlers counts the run handlers still going, so the process can let them report how the
// connection's end reached them before it exits (see awaitHandlers).
var handlers sync.WaitGroup

// closeGrace bounds how long the process waits, once its transport has ended, for handlers to
// observe that end and write their last side-channel events: a handler the SDK never cancels
// (or one that ignores the cancel) is left, and its missing handler-end is what mcp-sim sees.
const closeGrace = time.Second

// awaitHandlers waits for the running handlers, at most closeGrace.
func awaitHandlers() {
	done := make(chan struct{})
	go func() {
		handlers.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(closeGrace):
	}
}

// run is the low layer's handler (Server.AddTool): it reads its arguments itself.
func run(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var args struct {
		Program *program `json:"program"`
		Call    string   `json:"call"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &args); err != nil || args.Program == nil {
		return nil, &jsonrpc.Error{Code: -32602, Message: "tool run: arguments.program (a HandlerProgram) expected"}
	}
	return interpret(ctx, req, args.Program, args.Call)
}

// interpret runs program p of the call labelled `call`, on either layer.
func interpret(ctx context.Context, req *mcp.CallToolRequest, p *program, call string) (*mcp.CallToolResult, error) {
	handlers.Add(1)
	defer handlers.Done()
	// go-sdk v1.8.0 does not give a tool handler its request's JSON-RPC id: the side channel
	// names the call by the label mcp-sim put in the arguments (PROGRAM.md, "call").
	event := func(body map[string]any) {
		body["call"] = call
		writeEvent(body)
	}
	event(map[string]any{"event": "handler-start"})
	work := ctx
	if p.OnAbort == "ignore" {
		work = context.WithoutCancel(ctx)
		go func() {
			<-ctx.Done()
			event(map[string]any{"event": "abort-observed"})
		}()
	}
	end := func(outcome string) { event(map[string]any{"event": "handler-end", "outcome": outcome}) }
	aborted := func() (*mcp.CallToolResult, error) {
		if p.OnAbort != "ignore" {
			event(map[string]any{"event": "abort-observed"})
		}
		if p.OnAbort == "swallow" {
			end("swallowed")
			return result(), nil
		}
		end("aborted")
		return nil, ctx.Err()
	}
	token := req.Params.GetProgressToken()
	for index, s := range p.Steps {
		if work.Err() != nil {
			return aborted()
		}
		event(map[string]any{"event": "step", "index": index})
		switch s.Kind {
		case "progress":
			t := token
			if p.Faults != nil && p.Faults.ProgressToken == "invent" {
				t = fmt.Sprintf("invented-%d", index)
			}
			if t != nil {
				params := &mcp.ProgressNotificationParams{ProgressToken: t, Progress: s.Progress}
				if s.Total != nil {
					params.Total = *s.Total
				}
				if s.Message != nil {
					params.Message = *s.Message
				}
				_ = req.Session.NotifyProgress(work, params)
			}
		case "sleep":
			if wait(work, time.Duration(s.Ms)*time.Millisecond) != nil {
				return aborted()
			}
		case "call":
			callCtx, cancel := work, context.CancelFunc(func() {})
			if s.TimeoutMs != nil {
				callCtx, cancel = context.WithTimeout(work, time.Duration(*s.TimeoutMs)*time.Millisecond)
			}
			err := downstream(callCtx, req.Session, s.Method)
			cancel()
			// A failed downstream call is the handler's business; only an abort stops the script.
			if err != nil && work.Err() != nil {
				return aborted()
			}
		}
	}
	switch p.End.Kind {
	case "error":
		end("error")
		msg := "scripted error"
		if p.End.Message != nil {
			msg = *p.End.Message
		}
		return nil, &jsonrpc.Error{Code: p.End.Code, Message: msg}
	case "hang":
		<-work.Done()
		return aborted()
	}
	end("result")
	return result(), nil
}

const runDescription = "Runs the scripted handler program in `program` (mcp-sim testbeds/PROGRAM.md)."

func main() {
	layer := flag.String("layer", "low", "the interpreter: low (Server.AddTool) or high (the typed mcp.AddTool)")
	httpFlag := flag.Bool("http", false, "serve Streamable HTTP on 127.0.0.1 instead of stdio")
	port := flag.Int("port", 0, "with --http: the loopback port")
	mode := flag.String("mode", "stateful-sse", "with --http: stateful-sse, stateful-json, stateless-sse or stateless-json")
	flag.Parse()
	server := mcp.NewServer(&mcp.Implementation{Name: "mcp-sim-testbed-go", Version: sdkVersion()}, nil)
	switch *layer {
	case "low":
		server.AddTool(&mcp.Tool{
			Name:        "run",
			Description: runDescription,
			InputSchema: json.RawMessage(`{"type":"object","properties":{"program":{"type":"object"}},"required":["program"]}`),
		}, run)
	case "high":
		addTypedTool(server)
	default:
		log.Fatalf("server: unknown --layer %q (low or high)", *layer)
	}
	if *httpFlag {
		err := serveHTTP(server, *port, *mode)
		awaitHandlers()
		if err != nil {
			log.Fatalf("server: %v", err)
		}
		return
	}
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil && !errors.Is(err, context.Canceled) {
		log.Printf("server: %v", err)
	}
	awaitHandlers()
}

// sdkVersion is the go-sdk release this binary was built with (from its build info), so the
// serverInfo names the release under test.
func sdkVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/modelcontextprotocol/go-sdk" {
				return dep.Version
			}
		}
	}
	return "unknown"
}
