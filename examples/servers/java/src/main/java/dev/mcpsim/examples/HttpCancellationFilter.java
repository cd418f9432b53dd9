package dev.mcpsim.examples;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * {@link CancellationSupport} for Streamable HTTP, as a servlet filter in front of the SDK's
 * {@code HttpServletStreamableServerTransportProvider}: each POST body is read first (a request
 * gets its id stamped into {@code _meta}, a {@code notifications/cancelled} interrupts its
 * handler), and the request's SSE stream is written through a filter that drops the event
 * carrying the response to a cancelled id. The SDK then closes that stream as after any
 * response, so the cancelled request's POST still ends (with no JSON-RPC response in it).
 * A DELETE of the session cancels everything still running in it.
 */
final class HttpCancellationFilter implements Filter {

    private final CancellationSupport cancellation;

    HttpCancellationFilter(CancellationSupport cancellation) {
        this.cancellation = cancellation;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        String session = request.getHeader("Mcp-Session-Id");
        String scope = session == null ? "" : session + "/";
        if ("DELETE".equals(request.getMethod()) && session != null) {
            cancellation.cancelScope(scope);
        }
        if (!"POST".equals(request.getMethod())) {
            chain.doFilter(req, res);
            return;
        }
        String body = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        byte[] forwarded = cancellation.inbound(scope, body).getBytes(StandardCharsets.UTF_8);
        chain.doFilter(new ReplayedRequest(request, forwarded), new FilteredResponse(response, scope));
    }

    /** The request with its body replaced by the (possibly stamped) frame. */
    private static final class ReplayedRequest extends HttpServletRequestWrapper {
        private final byte[] body;

        ReplayedRequest(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("blocking reads only");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
        }
    }

    /** The response whose SSE events are judged one by one before they are written. */
    private final class FilteredResponse extends HttpServletResponseWrapper {
        private final String scope;
        private PrintWriter writer;

        FilteredResponse(HttpServletResponse response, String scope) {
            super(response);
            this.scope = scope;
        }

        @Override
        public synchronized PrintWriter getWriter() throws IOException {
            if (writer == null) {
                String type = getContentType();
                PrintWriter real = super.getWriter();
                writer = type != null && type.startsWith("text/event-stream")
                        ? new PrintWriter(new SseEventFilter(real, scope)) : real;
            }
            return writer;
        }
    }

    /** Buffers one SSE event (up to its blank line) and writes it unless it answers a cancelled id. */
    private final class SseEventFilter extends Writer {
        private final PrintWriter out;
        private final String scope;
        private final StringBuilder event = new StringBuilder();

        SseEventFilter(PrintWriter out, String scope) {
            this.out = out;
            this.scope = scope;
        }

        @Override
        public synchronized void write(char[] buf, int off, int len) {
            for (int i = off; i < off + len; i++) {
                event.append(buf[i]);
                int n = event.length();
                if (n >= 2 && event.charAt(n - 1) == '\n' && event.charAt(n - 2) == '\n') {
                    String text = event.toString();
                    event.setLength(0);
                    if (keep(text)) {
                        out.write(text);
                    }
                }
            }
        }

        private boolean keep(String text) {
            for (String line : text.split("\n")) {
                if (line.startsWith("data: ")) {
                    return cancellation.outbound(scope, line.substring("data: ".length()));
                }
            }
            return true;
        }

        @Override
        public synchronized void flush() {
            out.flush();
        }

        @Override
        public synchronized void close() {
            out.close();
        }
    }
}
