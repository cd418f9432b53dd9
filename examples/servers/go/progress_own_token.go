package main

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressOwnTokenWork is pitfall 1: the author numbers the progress himself
// ("task-1") instead of reading req.Params.GetProgressToken(), and sends it
// whether or not the client asked. Cancellation is wired correctly.
func progressOwnTokenWork(ctx context.Context, req *mcp.CallToolRequest, in WorkInput) (*mcp.CallToolResult, any, error) {
	for i := 1; i <= in.Steps; i++ {
		if err := sleepCtx(ctx, in.stepDuration()); err != nil {
			return nil, nil, err // the SDK's cancellation: let it propagate
		}
		notifyProgress(ctx, req, "task-1", float64(i), float64(in.Steps), fmt.Sprintf("step %d of %d", i, in.Steps))
	}
	return done(in.Steps), nil, nil
}
