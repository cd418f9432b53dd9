// Command client is mcp-sim's Go SDK test-bed client (testbeds/CLIENT.md): it runs one client
// script (the caller's actions: calls of the tool `run`, aborts, a close) against mcp-sim's
// scripted server with go-sdk's ordinary client API, and writes what the SDK tells the caller
// to stderr as `mcp-sim-event {json}` lines.
//
// The SDK's ways, as a Go caller writes them: an abort cancels the call's context.Context (the
// SDK then sends notifications/cancelled itself), a timeout is context.WithTimeout (go-sdk has
// no timeout option of its own), progress is ClientOptions.ProgressNotificationHandler (one
// handler for the whole client) with the token set in the params' _meta, a close is
// ClientSession.Close.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type action struct {
	Kind      string `json:"kind"`
	Call      string `json:"call"`
	AtMs      int64  `json:"atMs"`
	Progress  bool   `json:"progress"`
	TimeoutMs *int64 `json:"timeoutMs"`
	// ResetTimeoutOnProgress and MaxTotalTimeoutMs are read and ignored: go-sdk has neither
	// (testbed.json's client lacks).
	ResetTimeoutOnProgress *bool  `json:"resetTimeoutOnProgress"`
	MaxTotalTimeoutMs      *int64 `json:"maxTotalTimeoutMs"`
}

type script struct {
	Server struct {
		Stdio []string `json:"stdio"`
		URL   string   `json:"url"`
	} `json:"server"`
	Actions        []action `json:"actions"`
	ServerRequests struct {
		DelayMs int64 `json:"delayMs"`
		Hang    bool  `json:"hang"`
	} `json:"serverRequests"`
	DeadlineMs int64 `json:"deadlineMs"`
}

var stderrMu sync.Mutex

// event writes one side-channel line (os.Stderr is unbuffered: each line goes out at once).
func event(body map[string]any) {
	line, _ := json.Marshal(body)
	stderrMu.Lock()
	defer stderrMu.Unlock()
	fmt.Fprintf(os.Stderr, "mcp-sim-event %s\n", line)
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "mcp-sim-client: "+format+"\n", args...)
	os.Exit(1)
}

func load(path string) *script {
	data, err := os.ReadFile(path)
	if err != nil {
		fail("cannot read the script: %v", err)
	}
	s := new(script)
	if err := json.Unmarshal(data, s); err != nil {
		fail("bad script %s: %v", path, err)
	}
	if (len(s.Server.Stdio) == 0) == (s.Server.URL == "") {
		fail("bad script %s: server needs exactly one of stdio (argv) and url", path)
	}
	for i, a := range s.Actions {
		switch a.Kind {
		case "call", "abort":
			if a.Call == "" {
				fail("bad script %s: actions[%d] (%s) has no call label", path, i, a.Kind)
			}
		case "close":
		default:
			fail("bad script %s: actions[%d] has unknown kind %q", path, i, a.Kind)
		}
	}
	if s.DeadlineMs <= 0 {
		s.DeadlineMs = 60_000
	}
	return s
}

// serverRequests answers the server's requests to the client the way the script says: after
// delayMs, or never (hang); a cancel of the request's context (the SDK's notifications/cancelled
// handling, or the connection's end) stops the wait. method names the request: go-sdk gives a
// client handler no JSON-RPC id, so the events carry none.
type serverRequests struct {
	delay time.Duration
	hang  bool
}

func (sr serverRequests) wait(ctx context.Context, method string) error {
	event(map[string]any{"event": "server-request", "method": method})
	var timer <-chan time.Time
	if !sr.hang {
		t := time.NewTimer(sr.delay)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-ctx.Done():
		event(map[string]any{"event": "server-request-cancelled", "method": method})
		event(map[string]any{"event": "server-request-end", "method": method, "outcome": "aborted"})
		return ctx.Err()
	case <-timer:
		event(map[string]any{"event": "server-request-end", "method": method, "outcome": "result"})
		return nil
	}
}

func (sr serverRequests) createMessage(ctx context.Context, _ *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	if err := sr.wait(ctx, "sampling/createMessage"); err != nil {
		return nil, err
	}
	return &mcp.CreateMessageResult{Role: "assistant", Content: &mcp.TextContent{Text: "ok"}, Model: "mcp-sim", StopReason: "endTurn"}, nil
}

func (sr serverRequests) elicit(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	if err := sr.wait(ctx, "elicitation/create"); err != nil {
		return nil, err
	}
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
}

// roots wraps the SDK's own roots/list answer (go-sdk has no roots handler: it answers from the
// roots given to Client.AddRoots, none here, so {"roots":[]}) in a receiving middleware, the
// SDK's hook for that, so the request is seen, delayed or hung like the other two.
func (sr serverRequests) roots(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "roots/list" {
			return next(ctx, method, req)
		}
		if err := sr.wait(ctx, method); err != nil {
			return nil, err
		}
		return next(ctx, method, req)
	}
}

// outcome classifies what CallTool returned (CLIENT.md's call-end outcomes). go-sdk returns the
// call context's own error on an abort (context.Canceled) or a timeout (context.DeadlineExceeded),
// mcp.ErrConnectionClosed (wrapped) when the connection ended, and a *jsonrpc.Error (wrapped)
// for the server's error: errors.Is/As tell them apart, no message is parsed.
func outcome(res *mcp.CallToolResult, err error) map[string]any {
	out := map[string]any{}
	var rpcErr *jsonrpc.Error
	switch {
	case err == nil:
		out["outcome"] = "result"
		if res != nil && res.IsError {
			out["isError"] = true
		}
		return out
	case errors.Is(err, context.DeadlineExceeded):
		out["outcome"] = "timeout"
	case errors.Is(err, context.Canceled):
		out["outcome"] = "aborted"
	case errors.Is(err, mcp.ErrConnectionClosed):
		out["outcome"] = "closed"
	case errors.As(err, &rpcErr):
		out["outcome"] = "error"
		out["code"] = rpcErr.Code
	default:
		out["outcome"] = "other"
	}
	out["message"] = err.Error()
	return out
}

func tokenLabel(token any) string {
	if s, ok := token.(string); ok {
		return s
	}
	b, _ := json.Marshal(token)
	return string(b)
}

func main() {
	if len(os.Args) != 2 {
		fail("usage: client <script.json>")
	}
	s := load(os.Args[1])
	sr := serverRequests{delay: time.Duration(s.ServerRequests.DelayMs) * time.Millisecond, hang: s.ServerRequests.Hang}

	client := mcp.NewClient(&mcp.Implementation{Name: "mcp-sim-client", Version: "1.0.0"}, &mcp.ClientOptions{
		// With Capabilities nil the SDK declares roots ({"listChanged":true}); the two handlers
		// make it declare sampling and elicitation.
		CreateMessageHandler: sr.createMessage,
		ElicitationHandler:   sr.elicit,
		// One handler for the whole client, given the notification's token: the event is
		// labelled by that token (the call's label, which is the token this client sends).
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			p := req.Params
			body := map[string]any{"event": "progress", "call": tokenLabel(p.ProgressToken), "progress": p.Progress}
			if p.Total != 0 {
				body["total"] = p.Total
			}
			if p.Message != "" {
				body["message"] = p.Message
			}
			event(body)
		},
	})
	client.AddReceivingMiddleware(sr.roots)

	var transport mcp.Transport
	if len(s.Server.Stdio) > 0 {
		cmd := exec.Command(s.Server.Stdio[0], s.Server.Stdio[1:]...)
		cmd.Stderr = os.Stderr
		transport = &mcp.CommandTransport{Command: cmd}
	} else {
		transport = &mcp.StreamableClientTransport{Endpoint: s.Server.URL}
	}

	type connected struct {
		cs  *mcp.ClientSession
		err error
	}
	conn := make(chan connected, 1)
	go func() {
		cs, err := client.Connect(context.Background(), transport, nil)
		conn <- connected{cs, err}
	}()
	var cs *mcp.ClientSession
	select {
	case c := <-conn:
		if c.err != nil {
			fail("cannot connect: %v", c.err)
		}
		cs = c.cs
	case <-time.After(time.Duration(s.DeadlineMs) * time.Millisecond):
		fail("cannot connect: no initialize result within deadlineMs (%d ms)", s.DeadlineMs)
	}
	event(map[string]any{"event": "ready"})
	ready := time.Now()
	deadline := ready.Add(time.Duration(s.DeadlineMs) * time.Millisecond)

	var (
		calls    sync.WaitGroup
		cancels  = map[string]context.CancelFunc{}
		closing  sync.Once
		closeEnd = make(chan struct{})
	)
	closeSession := func() {
		closing.Do(func() {
			go func() {
				if err := cs.Close(); err != nil {
					fmt.Fprintf(os.Stderr, "mcp-sim-client: ClientSession.Close: %v\n", err)
				}
				close(closeEnd)
			}()
		})
	}

	actions := append([]action(nil), s.Actions...)
	sort.SliceStable(actions, func(i, j int) bool { return actions[i].AtMs < actions[j].AtMs })
	for _, a := range actions {
		time.Sleep(time.Until(ready.Add(time.Duration(a.AtMs) * time.Millisecond)))
		switch a.Kind {
		case "call":
			ctx, cancel := context.WithCancel(context.Background())
			cancels[a.Call] = cancel
			callCtx, stop := ctx, context.CancelFunc(func() {})
			if a.TimeoutMs != nil {
				callCtx, stop = context.WithTimeout(ctx, time.Duration(*a.TimeoutMs)*time.Millisecond)
			}
			params := &mcp.CallToolParams{Name: "run", Arguments: map[string]any{"call": a.Call}}
			if a.Progress {
				// go-sdk picks no token: the caller sets it in _meta.
				params.SetProgressToken(a.Call)
			}
			calls.Add(1)
			event(map[string]any{"event": "call-start", "call": a.Call})
			go func(label string) {
				defer calls.Done()
				defer cancel()
				defer stop()
				body := outcome(cs.CallTool(callCtx, params))
				body["event"] = "call-end"
				body["call"] = label
				event(body)
			}(a.Call)
		case "abort":
			event(map[string]any{"event": "abort", "call": a.Call})
			if cancel, ok := cancels[a.Call]; ok {
				cancel()
			}
		case "close":
			event(map[string]any{"event": "close"})
			closeSession()
		}
	}

	settled := make(chan struct{})
	go func() {
		calls.Wait()
		close(settled)
	}()
	select {
	case <-settled:
	case <-time.After(time.Until(deadline)):
	}
	// CLIENT.md: a moment for a cancel sent in the background, then the final close.
	time.Sleep(200 * time.Millisecond)
	event(map[string]any{"event": "close"})
	closeSession()
	// ClientSession.Close waits for every call still in flight (jsonrpc2's graceful close), so
	// it may not return: give it until the deadline (at least a second), then exit without
	// `closed`, so the missing event shows that the close did not finish.
	wait := time.Until(deadline)
	if wait < time.Second {
		wait = time.Second
	}
	select {
	case <-closeEnd:
		event(map[string]any{"event": "closed"})
		// CLIENT.md: linger, so a stdio server the close left running shows as running.
		time.Sleep(300 * time.Millisecond)
	case <-time.After(wait):
		fmt.Fprintf(os.Stderr, "mcp-sim-client: ClientSession.Close has not returned at the deadline: exiting without closing\n")
	}
	os.Exit(0)
}
