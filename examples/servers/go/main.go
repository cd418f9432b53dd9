// Command server is mcp-sim's Go example servers: one MCP server per pitfall of the
// progress and cancellation lifecycle, written with the official go-sdk the way
// its users write tools. --variant picks the tool handler (one file each);
// everything else (transport, flags, shutdown) is shared and correct, so a
// black-box fuzz of a variant sees only what its handler got wrong.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	variant := flag.String("variant", "correct", "which server to run: "+fmt.Sprint(variantNames()))
	useHTTP := flag.Bool("http", false, "serve Streamable HTTP on 127.0.0.1 instead of stdio")
	port := flag.Int("port", 0, "HTTP port (with --http); 0 picks a free one and prints it on stderr")
	stateless := flag.Bool("stateless", false, "Streamable HTTP without sessions (StreamableHTTPOptions.Stateless)")
	jsonResponse := flag.Bool("json", false, "answer POSTs with application/json instead of an SSE stream (StreamableHTTPOptions.JSONResponse)")
	flag.Parse()

	handler, ok := variants[*variant]
	if !ok {
		fmt.Fprintf(os.Stderr, "--variant %q: unknown server; use one of %v\n", *variant, variantNames())
		os.Exit(2)
	}
	if !*useHTTP && (*stateless || *jsonResponse || *port != 0) {
		fmt.Fprintln(os.Stderr, "--stateless, --json and --port need --http: stdio has no HTTP modes")
		os.Exit(2)
	}
	if *variant == postHangs && (!*useHTTP || *stateless || *jsonResponse) {
		fmt.Fprintln(os.Stderr, "--variant post-hangs: HTTP only, with its own stateless JSON endpoint; run it with --http --port N and without --stateless or --json")
		os.Exit(2)
	}

	newServer := func() *mcp.Server {
		server := mcp.NewServer(&mcp.Implementation{Name: "mcp-sim-go-" + *variant, Version: "1.0.0"}, nil)
		mcp.AddTool(server, workTool(), handler)
		return server
	}

	// No signal handling, as in the SDK's examples: SIGTERM ends the process at
	// once (Go's default). stdin EOF ends a stdio session: Run returns once the
	// handlers in flight have returned (the SDK cancels their ctx).
	var err error
	switch {
	case *variant == postHangs:
		err = serveBridge(newServer(), *port)
	case *useHTTP:
		err = serveHTTP(newServer, *port, &mcp.StreamableHTTPOptions{Stateless: *stateless, JSONResponse: *jsonResponse})
	default:
		err = newServer().Run(context.Background(), &mcp.StdioTransport{})
	}
	if err != nil {
		log.Fatalf("server %s: %v", *variant, err)
	}
}

// serveHTTP serves one MCP endpoint at /mcp on 127.0.0.1 until the process ends.
func serveHTTP(newServer func() *mcp.Server, port int, opts *mcp.StreamableHTTPOptions) error {
	server := newServer()
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, opts)
	return serveMux(handler, port)
}

// serveMux serves handler at /mcp on 127.0.0.1.
func serveMux(handler http.Handler, port int) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "listening on http://%s/mcp\n", ln.Addr())
	httpServer := &http.Server{Handler: mux}
	return httpServer.Serve(ln)
}

// variantNames lists the --variant values, sorted, for the usage and errors.
func variantNames() []string {
	names := make([]string, 0, len(variants))
	for name := range variants {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
