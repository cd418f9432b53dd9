package main

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// subSteps is how many small items the rounded variant processes: more than
// 100, so an integer percentage must repeat.
const subSteps = 150

// progressRoundedWork is pitfall 2: progress as int(100*done/total) over many
// small items (2 ms each, whatever the arguments), so the same percentage is
// sent twice in a row (progress must increase).
func progressRoundedWork(ctx context.Context, req *mcp.CallToolRequest, in WorkInput) (*mcp.CallToolResult, any, error) {
	token := req.Params.GetProgressToken()
	for i := 1; i <= subSteps; i++ {
		if err := sleepCtx(ctx, 2*time.Millisecond); err != nil {
			return nil, nil, err
		}
		if token != nil {
			percent := i * 100 / subSteps
			notifyProgress(ctx, req, token, float64(percent), 100, fmt.Sprintf("%d%%", percent))
		}
	}
	return done(in.Steps), nil, nil
}
