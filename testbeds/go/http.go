package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpModes maps each Streamable HTTP mode of PROGRAM.md to go-sdk's options for it: a session
// (Mcp-Session-Id, GET stream, DELETE) unless Stateless, each POST answered by an SSE stream
// unless JSONResponse.
var httpModes = map[string]mcp.StreamableHTTPOptions{
	"stateful-sse":   {},
	"stateful-json":  {JSONResponse: true},
	"stateless-sse":  {Stateless: true},
	"stateless-json": {Stateless: true, JSONResponse: true},
}

// serveHTTP serves `server` with go-sdk's NewStreamableHTTPHandler at /mcp on 127.0.0.1:port
// only, until SIGTERM or SIGINT. A signal shuts the listener down, gives open exchanges a
// moment to end, then closes what is left (an SSE stream or a hanging handler would otherwise
// keep the process alive).
func serveHTTP(server *mcp.Server, port int, mode string) error {
	opts, ok := httpModes[mode]
	if !ok {
		return fmt.Errorf("unknown --mode %q (one of stateful-sse, stateful-json, stateless-sse, stateless-json)", mode)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &opts))
	listener, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	httpServer := &http.Server{Handler: mux}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- httpServer.Serve(listener) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	grace, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if err := httpServer.Shutdown(grace); err != nil {
		_ = httpServer.Close()
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
