package io.eventplane.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A watch read straight off the socket, chunk by chunk, so tests see the wire format itself: the status line, the
 * headers, and each chunk of the chunked body.
 */
final class RawWatch implements AutoCloseable {
    final int status;
    final Map<String, String> headers = new LinkedHashMap<>();
    private final Socket socket;
    private final InputStream in;
    private static final com.fasterxml.jackson.databind.ObjectReader ONE_OBJECT = GatewayFixture.JSON.reader()
            .with(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** Events of the last chunk not yet returned. */
    private final java.util.ArrayDeque<JsonNode> pending = new java.util.ArrayDeque<>();

    RawWatch(String baseUrl, String pathAndQuery, String... extraHeaders) throws IOException {
        URI uri = URI.create(baseUrl);
        socket = new Socket(uri.getHost(), uri.getPort());
        socket.setSoTimeout(30_000);
        StringBuilder req = new StringBuilder("GET " + pathAndQuery + " HTTP/1.1\r\nHost: " + uri.getHost() + ":"
                + uri.getPort() + "\r\n");
        if (!java.util.Arrays.asList(extraHeaders).contains("Accept")) {
            req.append("Accept: application/json\r\n");
        }
        for (int i = 0; i + 1 < extraHeaders.length; i += 2) {
            req.append(extraHeaders[i]).append(": ").append(extraHeaders[i + 1]).append("\r\n");
        }
        req.append("\r\n");
        OutputStream out = socket.getOutputStream();
        out.write(req.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
        in = socket.getInputStream();
        String statusLine = line();
        status = Integer.parseInt(statusLine.split(" ")[1]);
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
        }
    }

    boolean chunked() {
        return "chunked".equalsIgnoreCase(headers.get("transfer-encoding"));
    }

    /** The next chunk's bytes as text; null at the end of the body. */
    String nextChunk() throws IOException {
        String sizeLine = line();
        int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
        if (size == 0) {
            line();
            return null;
        }
        byte[] data = in.readNBytes(size);
        line();
        return new String(data, StandardCharsets.UTF_8);
    }

    /**
     * The next watch event, asserting the wire format: a chunk holds whole events (what was ready when it was
     * written, as kube-apiserver flushes when its queue is empty), each exactly one JSON object and a newline.
     */
    JsonNode nextEvent() throws IOException {
        if (pending.isEmpty()) {
            String chunk = nextChunk();
            if (chunk == null) {
                return null;
            }
            if (!chunk.endsWith("\n")) {
                throw new AssertionError("a chunk must end with a whole event and its newline: " + chunk);
            }
            for (String line : chunk.substring(0, chunk.length() - 1).split("\n", -1)) {
                JsonNode event;
                try {
                    event = ONE_OBJECT.readTree(line);
                } catch (IOException e) {
                    throw new AssertionError("each line of a chunk must be one JSON object: " + line, e);
                }
                if (event == null || !event.isObject()) {
                    throw new AssertionError("each line of a chunk must be one JSON object: " + line);
                }
                pending.add(event);
            }
        }
        return pending.poll();
    }

    void timeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    static boolean isTimeout(IOException e) {
        return e instanceof SocketTimeoutException;
    }

    /** The rest of a non-chunked body with a Content-Length. */
    String fixedBody() throws IOException {
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                break;
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        if (c == -1 && b.size() == 0) {
            throw new IOException("connection closed");
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
