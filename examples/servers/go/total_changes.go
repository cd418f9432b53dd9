package main

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// totalChangesWork is pitfall 2's second half: half way the author finds more
// work ("it was 80, not 50") and raises total, so a progress bar jumps back.
func totalChangesWork(ctx context.Context, req *mcp.CallToolRequest, in WorkInput) (*mcp.CallToolResult, any, error) {
	token := req.Params.GetProgressToken()
	total := 50.0
	for i := 1; i <= in.Steps; i++ {
		if err := sleepCtx(ctx, in.stepDuration()); err != nil {
			return nil, nil, err // the SDK's cancellation: let it propagate
		}
		if i > in.Steps/2 {
			total = 80 // "it was 80, not 50"
		}
		if token != nil {
			notifyProgress(ctx, req, token, float64(i), total, fmt.Sprintf("step %d", i))
		}
	}
	return done(in.Steps), nil, nil
}
