package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// retryAttempts is the retry policy of the swallowing variant's steps, with a
// backoff that starts at one stepMs and doubles.
const retryAttempts = 3

// cancelSwallowedWork is pitfall 3b in its Go form: the step is cancellable,
// but every error is "transient" to the retry helper and "one failed step must
// not fail the whole tool" to the handler, context.Canceled included. After a
// cancel each remaining step fails, is retried after a backoff, is logged and
// skipped; progress goes on (sent with context.Background() "so that no
// progress is lost", which is also what keeps the SDK from dropping it) and
// the handler answers with a normal result ("done 4 (3 steps failed)") instead
// of returning ctx.Err().
func cancelSwallowedWork(ctx context.Context, req *mcp.CallToolRequest, in WorkInput) (*mcp.CallToolResult, any, error) {
	token := req.Params.GetProgressToken()
	failed := 0
	for i := 1; i <= in.Steps; i++ {
		err := withRetry(retryAttempts, in.stepDuration(), func() error { return sleepCtx(ctx, in.stepDuration()) })
		if err != nil {
			// NG: the cancellation is counted as one more failed step.
			failed++
			log.Printf("step %d failed: %v; continuing", i, err)
		}
		if token != nil {
			notifyProgress(context.Background(), req, token, float64(i), float64(in.Steps), fmt.Sprintf("step %d of %d", i, in.Steps))
		}
	}
	text := fmt.Sprintf("done %d", in.Steps)
	if failed > 0 {
		text += fmt.Sprintf(" (%d steps failed)", failed)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
}

// withRetry calls f until it succeeds, at most attempts times, sleeping
// backoff after a failure and doubling it. NG: it retries every error,
// context.Canceled too.
func withRetry(attempts int, backoff time.Duration, f func() error) (err error) {
	for try := 1; try <= attempts; try++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(backoff)
		backoff *= 2
	}
	return err
}
