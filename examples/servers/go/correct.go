package main

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// correctWork is the seed article's fixed code in Go: each step sleeps in
// sleepCtx (a select on ctx.Done()), so the SDK's cancellation (the ctx is
// cancelled on notifications/cancelled or when the connection goes) cuts it
// short; it reports progress only when the client sent _meta.progressToken,
// with increasing values and a fixed total; on cancellation it returns the ctx
// error and lets the SDK handle it.
func correctWork(ctx context.Context, req *mcp.CallToolRequest, in WorkInput) (*mcp.CallToolResult, any, error) {
	token := req.Params.GetProgressToken() // nil when the client asked for no progress
	for i := 1; i <= in.Steps; i++ {
		if err := sleepCtx(ctx, in.stepDuration()); err != nil {
			return nil, nil, err // the SDK's cancellation: let it propagate
		}
		if token != nil {
			notifyProgress(ctx, req, token, float64(i), float64(in.Steps), fmt.Sprintf("step %d of %d", i, in.Steps))
		}
	}
	return done(in.Steps), nil, nil
}
