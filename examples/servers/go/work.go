package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// WorkInput is the `work` tool's arguments. The SDK derives the input schema
// from this struct; workTool adds the bounds and defaults of the contract.
type WorkInput struct {
	Steps  int `json:"steps,omitempty" jsonschema:"number of steps (1 to 8, default 4)"`
	StepMs int `json:"stepMs,omitempty" jsonschema:"milliseconds per step (5 to 40, default 20)"`
}

// stepDuration is how long one step takes.
func (in WorkInput) stepDuration() time.Duration { return time.Duration(in.StepMs) * time.Millisecond }

// sleepCtx sleeps d, or less if ctx ends first: then it returns ctx.Err().
// This is where a handler's cancellation interrupts its work.
func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// WorkHandler is the typed tool handler every variant provides.
type WorkHandler = mcp.ToolHandlerFor[WorkInput, any]

var variants = map[string]WorkHandler{
	"correct":               correctWork,
	"progress-own-token":    progressOwnTokenWork,
	"progress-rounded":      progressRoundedWork,
	"total-changes":         totalChangesWork,
	"progress-after-result": progressAfterResultWork,
	"cancel-not-wired":      cancelNotWiredWork,
	"cancel-swallowed":      cancelSwallowedWork,
	"never-ends":            neverEndsWork,
	postHangs:               correctWork, // the fault is in its HTTP endpoint (post_hangs.go)
}

// postHangs names the server whose tool is correct and whose hand-written
// HTTP endpoint is not.
const postHangs = "post-hangs"

func workTool() *mcp.Tool {
	schema, err := jsonschema.For[WorkInput](nil)
	if err != nil {
		panic(err)
	}
	bound := func(name string, lo, hi, def float64) {
		p := schema.Properties[name]
		p.Minimum, p.Maximum = &lo, &hi
		p.Default = json.RawMessage(fmt.Sprint(def))
	}
	bound("steps", 1, 8, 4)
	bound("stepMs", 5, 40, 20)
	return &mcp.Tool{
		Name:        "work",
		Description: "Works for steps × stepMs milliseconds, reporting progress after each step when asked to.",
		InputSchema: schema,
	}
}

// done is the tool's result once every step ran.
func done(steps int) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("done %d", steps)}}}
}

// notifyProgress sends one progress notification for the request's token.
// Errors are ignored, as in the SDK's own example: progress is advisory.
func notifyProgress(ctx context.Context, req *mcp.CallToolRequest, token any, progress, total float64, message string) {
	_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: token,
		Progress:      progress,
		Total:         total,
		Message:       message,
	})
}
