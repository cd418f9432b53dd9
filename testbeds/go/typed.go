package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// runInput is the typed layer's input: mcp.AddTool infers the tool's input schema from it (the
// program's own types, omitempty where PROGRAM.md makes a field optional), validates each call's
// arguments against that schema and decodes them before the handler runs.
type runInput struct {
	Program program `json:"program"`
	Call    string  `json:"call,omitempty"`
}

// addTypedTool registers `run` on go-sdk's typed tool API, mcp.AddTool with a
// ToolHandlerFor[runInput, any], the way the SDK's examples write a tool (testbeds/PROGRAM.md,
// "Layers"). The program runs as on the low layer; what differs is the SDK's: the schema it
// infers and enforces, and what it makes of the handler's error (a *jsonrpc.Error is the
// JSON-RPC error, any other error, ctx.Err() of an honoured cancel included, an isError result).
func addTypedTool(server *mcp.Server) {
	mcp.AddTool(server, &mcp.Tool{Name: "run", Description: runDescription}, func(ctx context.Context, req *mcp.CallToolRequest, in runInput) (*mcp.CallToolResult, any, error) {
		res, err := interpret(ctx, req, &in.Program, in.Call)
		return res, nil, err
	})
}
