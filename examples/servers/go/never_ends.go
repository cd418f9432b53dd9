package main

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// neverEndsWork waits for a result on a channel that nothing ever sends on
// (the worker that should answer was never started), without a select on
// ctx.Done(): the call is never answered, cancelled or not.
func neverEndsWork(ctx context.Context, req *mcp.CallToolRequest, in WorkInput) (*mcp.CallToolResult, any, error) {
	results := make(chan *mcp.CallToolResult)
	return <-results, nil, nil
}
