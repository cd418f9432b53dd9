// Command photos is a Go MCP server as its author writes it on the first day:
// two tools on the official go-sdk (mcp.NewServer, mcp.AddTool with typed
// input), served on stdio.
//
// count is right: each step waits in a select on ctx.Done(), so the SDK's
// cancellation (it cancels ctx on notifications/cancelled) stops the work, and
// progress is sent only when the client asked for it, with increasing values.
// resize has the common pitfall: it reports a rounded percentage over more
// than 100 images, so the same value goes out twice (progress must increase).
//
// Check it (README, "Check your server"):
//
//	npx mcp-sim check --cwd examples/your-server/go -- go run .
package main

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type CountInput struct {
	N int `json:"n" jsonschema:"how far to count, 1 to 8"`
}

type ResizeInput struct {
	Images int `json:"images" jsonschema:"how many images, 101 to 160"`
}

// progress sends a progress notification when the client sent a token: the SDK leaves that to the tool.
func progress(ctx context.Context, req *mcp.CallToolRequest, done, total float64) {
	if token := req.Params.GetProgressToken(); token != nil {
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: done, Total: total})
	}
}

func count(ctx context.Context, req *mcp.CallToolRequest, in CountInput) (*mcp.CallToolResult, any, error) {
	n := min(max(in.N, 1), 8)
	for i := 1; i <= n; i++ {
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		progress(ctx, req, float64(i), float64(n))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("counted to %d", n)}}}, nil, nil
}

func resize(ctx context.Context, req *mcp.CallToolRequest, in ResizeInput) (*mcp.CallToolResult, any, error) {
	images := min(max(in.Images, 101), 160)
	for i := 1; i <= images; i++ {
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
		progress(ctx, req, float64(i*100/images), 100) // BUG: a rounded percentage repeats over >100 images
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("resized %d images", images)}}}, nil, nil
}

func main() {
	server := mcp.NewServer(&mcp.Implementation{Name: "photos", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "count", Description: "Count to n, one step every 20 ms, reporting each step."}, count)
	mcp.AddTool(server, &mcp.Tool{Name: "resize", Description: "Resize the images, reporting a percentage."}, resize)
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
