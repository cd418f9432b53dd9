package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bridge is the post-hangs server's hand-written stateless Streamable HTTP
// endpoint (seed 004's class). Its author wanted plain request/response JSON
// without sessions, so he wrote the HTTP side himself: every POSTed message
// is forwarded to one go-sdk server over mcp.NewInMemoryTransports, and each
// request's POST waits on a waiter keyed by its JSON-RPC id until the response
// with that id comes back. Having read that a server must not answer a
// cancelled request, he also drops the SDK's response to a cancelled request.
// NG: that response was the only thing that resumed the waiter, so the
// cancelled request's POST never ends. (A second request reusing an id in
// flight replaces the first one's waiter, which then never ends either.)
type bridge struct {
	conn mcp.Connection

	mu        sync.Mutex
	waiters   map[jsonrpc.ID]chan *jsonrpc.Response
	cancelled map[jsonrpc.ID]bool
}

func newBridge(ctx context.Context, server *mcp.Server) (*bridge, error) {
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverSide, nil); err != nil {
		return nil, err
	}
	conn, err := clientSide.Connect(ctx)
	if err != nil {
		return nil, err
	}
	b := &bridge{conn: conn, waiters: map[jsonrpc.ID]chan *jsonrpc.Response{}, cancelled: map[jsonrpc.ID]bool{}}
	go b.readResponses(ctx)
	return b, nil
}

// readResponses hands each response from the SDK to the waiter of its id.
// Notifications (progress) are dropped: a JSON response has no room for them.
func (b *bridge) readResponses(ctx context.Context) {
	for {
		msg, err := b.conn.Read(ctx)
		if err != nil {
			return
		}
		resp, ok := msg.(*jsonrpc.Response)
		if !ok {
			continue
		}
		b.mu.Lock()
		if b.cancelled[resp.ID] {
			// "No response for a cancelled request": dropped, and the waiter with it.
			delete(b.cancelled, resp.ID)
			b.mu.Unlock()
			continue
		}
		waiter := b.waiters[resp.ID]
		delete(b.waiters, resp.ID)
		b.mu.Unlock()
		if waiter != nil {
			waiter <- resp
		}
	}
}

func (b *bridge) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "only POST", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		http.Error(w, "not a JSON-RPC message: "+err.Error(), http.StatusBadRequest)
		return
	}
	req, isRequest := msg.(*jsonrpc.Request)
	if !isRequest || !req.ID.IsValid() { // a notification, or a response to the server
		if isRequest && req.Method == "notifications/cancelled" {
			var params struct {
				RequestID any `json:"requestId"`
			}
			if json.Unmarshal(req.Params, &params) == nil {
				if id, err := jsonrpc.MakeID(params.RequestID); err == nil {
					b.mu.Lock()
					if b.waiters[id] != nil {
						b.cancelled[id] = true
					}
					b.mu.Unlock()
				}
			}
		}
		_ = b.conn.Write(r.Context(), msg)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	waiter := make(chan *jsonrpc.Response, 1)
	b.mu.Lock()
	b.waiters[req.ID] = waiter
	b.mu.Unlock()
	if err := b.conn.Write(r.Context(), req); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	resp := <-waiter // NG: nothing else ends this wait
	data, err := jsonrpc.EncodeMessage(resp)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}

// serveBridge serves the hand-written endpoint at /mcp on 127.0.0.1.
func serveBridge(server *mcp.Server, port int) error {
	b, err := newBridge(context.Background(), server)
	if err != nil {
		return err
	}
	return serveMux(b, port)
}
