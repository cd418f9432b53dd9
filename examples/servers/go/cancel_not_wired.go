package main

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cancelNotWiredWork is pitfall 3a: the work never looks at ctx.Done(). The
// author passes context.Background() down ("the work must not be cut short by
// a request timeout") and sleeps with time.Sleep, so a cancel changes nothing:
// every step runs and reports progress, and the result comes at the usual time.
func cancelNotWiredWork(ctx context.Context, req *mcp.CallToolRequest, in WorkInput) (*mcp.CallToolResult, any, error) {
	token := req.Params.GetProgressToken()
	if err := crawl(context.Background(), req, token, in); err != nil {
		return nil, nil, err
	}
	return done(in.Steps), nil, nil
}

// crawl does the steps; it takes a ctx as Go style asks, and never checks it.
func crawl(ctx context.Context, req *mcp.CallToolRequest, token any, in WorkInput) error {
	for i := 1; i <= in.Steps; i++ {
		time.Sleep(in.stepDuration())
		if token != nil {
			notifyProgress(ctx, req, token, float64(i), float64(in.Steps), fmt.Sprintf("step %d of %d", i, in.Steps))
		}
	}
	return nil
}
