package main

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cancelSwallowedWork is pitfall 3b: the work stops on ctx.Done(), but the
// handler turns every error into a tool result ("errors are results for the
// model"), the ctx error included, so the cancelled request is answered with a
// normal result instead of the SDK's cancellation.
func cancelSwallowedWork(ctx context.Context, req *mcp.CallToolRequest, in WorkInput) (*mcp.CallToolResult, any, error) {
	token := req.Params.GetProgressToken()
	for i := 1; i <= in.Steps; i++ {
		select {
		case <-ctx.Done():
			// NG: should be `return nil, nil, ctx.Err()`.
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("stopped after %d of %d steps", i-1, in.Steps)}}}, nil, nil
		case <-time.After(time.Duration(in.StepMs) * time.Millisecond):
		}
		if token != nil {
			notifyProgress(ctx, req, token, float64(i), float64(in.Steps), fmt.Sprintf("step %d of %d", i, in.Steps))
		}
	}
	return done(in.Steps), nil, nil
}
