package dev.mcpsim.examples;

import io.modelcontextprotocol.json.McpJsonMapper;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;

/**
 * What a Java author has to write because the official Java SDK (io.modelcontextprotocol.sdk:mcp
 * up to 2.1.0) has no server-side cancellation: it logs {@code notifications/cancelled} as "No
 * handler registered for notification method", keeps running the handler, and sends its result.
 * A tool handler is also never told its JSON-RPC request id, so it cannot match a cancel itself.
 *
 * <p>This class does, in one place, what the TypeScript SDK does inside its Protocol class:
 * <ul>
 *   <li>it sees every incoming frame before the SDK does, stamps each request's id into
 *       {@code params._meta} under {@link #REQUEST_ID_META} so the handler knows it;</li>
 *   <li>on {@code notifications/cancelled} it interrupts the thread running that request's handler
 *       (the handler's {@link Thread#sleep}, {@code Future.get}, blocking I/O then throw);</li>
 *   <li>it drops the response the SDK then writes for a cancelled id, so a cancelled request gets
 *       no answer, as the specification asks.</li>
 * </ul>
 * Whether a handler stops is still up to the handler: this is where the seed article's pitfalls
 * live in Java (the interrupt not reaching the worker, an {@code InterruptedException} swallowed).
 */
final class CancellationSupport {

    /** Key under {@code params._meta} that carries the request id to the handler. */
    static final String REQUEST_ID_META = "dev.mcpsim/requestId";
    /** Key under {@code params._meta} that carries the request's id exactly as the client sent it. */
    static final String RAW_ID_META = "dev.mcpsim/rawRequestId";

    /** How every frame the SDK writes that is not a response begins. */
    private static final String NOT_A_RESPONSE_PREFIX = "{\"jsonrpc\":\"2.0\",\"method\"";

    private final McpJsonMapper json;
    private final EventLog events;

    /** Requests seen inbound and not answered yet, per key ({@link #key}); a duplicate id counts twice. */
    private final Map<String, Integer> inFlight = new ConcurrentHashMap<>();
    /** Per cancelled key, how many of its responses are still to be dropped. */
    private final Map<String, Integer> cancelled = new ConcurrentHashMap<>();
    /**
     * Cancels that named a request not seen yet, with when they came (nanoTime). Over HTTP the
     * cancel and its request travel on two connections, and a busy server can read the cancel
     * first; the request then starts cancelled. Kept {@link #EARLY_CANCEL_TTL_NANOS}.
     */
    private final Map<String, Long> earlyCancels = new ConcurrentHashMap<>();
    /** Keys answered lately, so a cancel that crossed its response is not taken for an early one. */
    private final Set<String> answered = Collections.newSetFromMap(new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > ANSWERED_REMEMBERED;
        }
    });
    private static final long EARLY_CANCEL_TTL_NANOS = 5_000_000_000L;
    private static final int ANSWERED_REMEMBERED = 4096;

    /** Threads currently running a handler, per request key (duplicate ids: several). */
    private final Map<String, Set<Thread>> running = new ConcurrentHashMap<>();

    CancellationSupport(McpJsonMapper json, EventLog events) {
        this.json = json;
        this.events = events;
    }

    /**
     * A key for a JSON-RPC id that keeps {@code 1} and {@code "1"} apart, scoped to a session
     * (empty for stdio).
     */
    static String key(String scope, Object id) {
        return scope + (id instanceof String ? "s:" : "n:") + id;
    }

    /** The handler side: registers the current thread for its request and unregisters it. */
    final class Scope implements AutoCloseable {
        private final String key;

        private Scope(String key) {
            this.key = key;
            if (key == null) {
                return;
            }
            synchronized (CancellationSupport.this) {
                running.computeIfAbsent(key, k -> new CopyOnWriteArraySet<>()).add(Thread.currentThread());
                if (cancelled.containsKey(key)) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        /** True once the client cancelled this request. */
        boolean isCancelled() {
            return key != null && cancelled.containsKey(key);
        }

        @Override
        public void close() {
            if (key == null) {
                return;
            }
            synchronized (CancellationSupport.this) {
                Set<Thread> threads = running.get(key);
                if (threads != null) {
                    threads.remove(Thread.currentThread());
                    if (threads.isEmpty()) {
                        running.remove(key);
                    }
                }
                // An interrupt meant for this request must not leak into the pooled thread's next task.
                Thread.interrupted();
            }
        }
    }

    /** Opens the handler's scope; {@code meta} is the request's {@code _meta} (may be null). */
    Scope enter(Map<String, Object> meta) {
        Object key = meta == null ? null : meta.get(REQUEST_ID_META);
        return new Scope(key instanceof String ? (String) key : null);
    }

    /**
     * Reads one incoming frame (a JSON text) and returns the text to hand to the SDK: requests get
     * their id stamped into {@code _meta}, cancels interrupt their handler. Anything that does not
     * parse is passed on unchanged, for the SDK to judge.
     */
    @SuppressWarnings("unchecked")
    String inbound(String scope, String frame) {
        Map<String, Object> message = parseObject(frame);
        if (message == null) {
            return frame;
        }
        Object method = message.get("method");
        Object id = message.get("id");
        if (method instanceof String && id != null) {
            String key = key(scope, id);
            synchronized (this) {
                inFlight.merge(key, 1, Integer::sum);
                Long early = earlyCancels.remove(key);
                if (early != null && System.nanoTime() - early < EARLY_CANCEL_TTL_NANOS) {
                    cancelled.merge(key, 1, Integer::sum);
                    events.emit("cancel-observed", id, "\"early\":true");
                }
            }
            Object params = message.get("params");
            Map<String, Object> p = params instanceof Map ? (Map<String, Object>) params : new LinkedHashMap<>();
            Object metaValue = p.get("_meta");
            Map<String, Object> meta = metaValue instanceof Map ? (Map<String, Object>) metaValue : new LinkedHashMap<>();
            meta.put(REQUEST_ID_META, key);
            meta.put(RAW_ID_META, id);
            p.put("_meta", meta);
            message.put("params", p);
            try {
                return json.writeValueAsString(message);
            } catch (IOException e) {
                return frame;
            }
        }
        if ("notifications/cancelled".equals(method) && message.get("params") instanceof Map) {
            Object requestId = ((Map<String, Object>) message.get("params")).get("requestId");
            if (requestId != null) {
                cancel(key(scope, requestId), requestId);
            }
        }
        return frame;
    }

    private void cancel(String key, Object requestId) {
        synchronized (this) {
            Integer pending = inFlight.get(key);
            if (pending == null) {
                if (!answered.contains(key)) {
                    long now = System.nanoTime();
                    earlyCancels.values().removeIf(at -> now - at >= EARLY_CANCEL_TTL_NANOS);
                    earlyCancels.put(key, now); // its request may still be on its way (HTTP)
                }
                return; // already answered: the specification says ignore it
            }
            cancelled.put(key, pending);
            for (Thread t : running.getOrDefault(key, Set.of())) {
                t.interrupt();
            }
        }
        events.emit("cancel-observed", requestId, null);
    }

    /** The frame as a JSON object, or null when it is none (left for the SDK to judge). */
    @SuppressWarnings("unchecked")
    private Map<String, Object> parseObject(String frame) {
        try {
            Object parsed = json.readValue(frame, Object.class);
            return parsed instanceof Map ? (Map<String, Object>) parsed : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Cancels every request in flight in one session (its scope prefix); the session ended. */
    void cancelScope(String scope) {
        synchronized (this) {
            inFlight.forEach((key, n) -> {
                if (key.startsWith(scope)) {
                    cancelled.put(key, n);
                    running.getOrDefault(key, Set.of()).forEach(Thread::interrupt);
                }
            });
        }
    }

    /** Cancels every request in flight (the connection closed). */
    void cancelAll() {
        synchronized (this) {
            cancelled.putAll(inFlight);
            running.values().forEach(threads -> threads.forEach(Thread::interrupt));
        }
    }

    /**
     * Judges one outgoing frame: false for a response to a cancelled request, which must not be
     * sent. Every response ends its request's in-flight entry.
     */
    boolean outbound(String scope, String frame) {
        // The SDK writes record fields in order: notifications and requests begin with
        // {"jsonrpc":"2.0","method", responses with {"jsonrpc":"2.0","id". Skipping the parse for
        // the first keeps the writer fast when a handler reports progress every millisecond.
        if (frame.startsWith(NOT_A_RESPONSE_PREFIX)) {
            return true;
        }
        Map<String, Object> message = parseObject(frame);
        if (message == null) {
            return true;
        }
        Object id = message.get("id");
        if (message.containsKey("method") || id == null) {
            return true;
        }
        String key = key(scope, id);
        synchronized (this) {
            answered.add(key);
            inFlight.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
            if (!cancelled.containsKey(key)) {
                return true;
            }
            cancelled.computeIfPresent(key, (k, n) -> n > 1 ? n - 1 : null);
            return false;
        }
    }

    /**
     * Puts this support between the process's stdio and the SDK's {@code StdioServerTransportProvider}:
     * returns the stream the SDK reads; {@code onEof} runs when stdin ends.
     */
    InputStream tapStdin(InputStream stdin, Runnable onEof) throws IOException {
        PipedOutputStream toSdk = new PipedOutputStream();
        PipedInputStream sdkIn = new PipedInputStream(toSdk, 1 << 16);
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    String forward = line.isBlank() ? line : inbound("", line);
                    toSdk.write((forward + "\n").getBytes(StandardCharsets.UTF_8));
                    toSdk.flush();
                }
            } catch (IOException e) {
                // stdin broke: treat it as closed
            } finally {
                cancelAll();
                try {
                    toSdk.close();
                } catch (IOException ignored) {
                    // nothing left to tell the SDK
                }
                onEof.run();
            }
        }, "stdin-cancellation-tap");
        reader.setDaemon(true);
        reader.start();
        return sdkIn;
    }

    /** The stream the SDK writes to: whole lines, each judged by {@link #outbound}. */
    OutputStream filterStdout(OutputStream stdout) {
        return new FilterOutputStream(stdout) {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) throws IOException {
                if (b != '\n') {
                    line.write(b);
                    return;
                }
                String frame = line.toString(StandardCharsets.UTF_8);
                line.reset();
                if (outbound("", frame)) {
                    out.write((frame + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) throws IOException {
                for (int i = off; i < off + len; i++) {
                    write(b[i]);
                }
            }
        };
    }
}
