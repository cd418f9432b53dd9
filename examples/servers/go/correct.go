package main

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// correctWork is the seed article's fixed code in Go: it sleeps in a select on
// ctx.Done(), so the SDK's cancellation (ctx cancelled on notifications/cancelled
// or when the connection goes) interrupts the step; it reports progress only
// when the client sent _meta.progressToken, with increasing values and a fixed
// total; on cancellation it returns ctx.Err() and lets the SDK handle it.
func correctWork(ctx context.Context, req *mcp.CallToolRequest, in WorkInput) (*mcp.CallToolResult, any, error) {
	token := req.Params.GetProgressToken() // nil when the client asked for no progress
	for i := 1; i <= in.Steps; i++ {
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(time.Duration(in.StepMs) * time.Millisecond):
		}
		if token != nil {
			notifyProgress(ctx, req, token, float64(i), float64(in.Steps), fmt.Sprintf("step %d of %d", i, in.Steps))
		}
	}
	return done(in.Steps), nil, nil
}
