package main

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// progressAfterResultWork hands its last step's report to a goroutine "so the
// result is not held up", with context.WithoutCancel so the notification is
// not dropped when the SDK cancels the request's ctx at return. The goroutine
// reports a moment after the handler returned: progress after the response.
func progressAfterResultWork(ctx context.Context, req *mcp.CallToolRequest, in WorkInput) (*mcp.CallToolResult, any, error) {
	token := req.Params.GetProgressToken()
	for i := 1; i < in.Steps; i++ {
		if err := sleepCtx(ctx, in.stepDuration()); err != nil {
			return nil, nil, err // the SDK's cancellation: let it propagate
		}
		if token != nil {
			notifyProgress(ctx, req, token, float64(i), float64(in.Steps), fmt.Sprintf("step %d of %d", i, in.Steps))
		}
	}
	if token != nil {
		bg := context.WithoutCancel(ctx)
		go func() {
			time.Sleep(time.Millisecond) // flushing the last report
			notifyProgress(bg, req, token, float64(in.Steps), float64(in.Steps), "finished")
		}()
	}
	return done(in.Steps), nil, nil
}
