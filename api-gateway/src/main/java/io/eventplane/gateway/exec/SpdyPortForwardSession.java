package io.eventplane.gateway.exec;

import io.eventplane.model.Pod;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.spdy.DefaultSpdyDataFrame;
import io.netty.handler.codec.spdy.DefaultSpdyPingFrame;
import io.netty.handler.codec.spdy.DefaultSpdyRstStreamFrame;
import io.netty.handler.codec.spdy.DefaultSpdySynReplyFrame;
import io.netty.handler.codec.spdy.SpdyDataFrame;
import io.netty.handler.codec.spdy.SpdyFrame;
import io.netty.handler.codec.spdy.SpdyGoAwayFrame;
import io.netty.handler.codec.spdy.SpdyPingFrame;
import io.netty.handler.codec.spdy.SpdyRstStreamFrame;
import io.netty.handler.codec.spdy.SpdyStreamStatus;
import io.netty.handler.codec.spdy.SpdySynStreamFrame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code pods/portforward} as kubectl speaks it: SPDY/3.1 (over a plain upgrade, or tunnelled in WebSocket binary
 * messages as kubectl 1.31+ does). Each forwarded connection opens two streams sharing a {@code requestID} header,
 * an error stream and a data stream, both naming the {@code port}; each gets a SYN_REPLY at once, as the kubelet
 * answers. Once both are there, a port no container declares gets the kubelet's message on the error stream, and
 * a declared port's data goes to the same simulated responder as {@link PortForwardSession}'s, whose answer ends
 * the connection (both streams half-closed with FIN). PINGs are echoed; a GOAWAY ends the session.
 */
final class SpdyPortForwardSession implements StreamSession {
    static final String STREAM_TYPE = "streamType";
    static final String PORT = "port";
    static final String REQUEST_ID = "requestID";

    private final Pod pod;
    private final StreamSink sink;
    private final SpdyFraming framing = new SpdyFraming();
    private final Map<String, Connection> byRequest = new HashMap<>();
    private final Map<Integer, Connection> byStream = new HashMap<>();

    /** One forwarded connection: its two streams, what the client sent so far, and whether it is over. */
    private static final class Connection {
        final String requestId;
        final int port;
        Integer data;
        Integer error;
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        boolean ended;

        Connection(String requestId, int port) {
            this.requestId = requestId;
            this.port = port;
        }
    }

    SpdyPortForwardSession(Pod pod, StreamSink sink) {
        this.pod = pod;
        this.sink = sink;
    }

    @Override
    public synchronized void receive(byte[] message) {
        List<SpdyFrame> frames;
        try {
            frames = framing.decode(message);
        } catch (RuntimeException e) {
            sink.close(); // not SPDY: nothing sensible to answer
            return;
        }
        for (SpdyFrame frame : frames) {
            try {
                handle(frame);
            } catch (IOException e) {
                sink.close();
                return;
            } finally {
                if (frame instanceof SpdyDataFrame data) {
                    data.release();
                }
            }
        }
    }

    private void handle(SpdyFrame frame) throws IOException {
        if (frame instanceof SpdySynStreamFrame syn) {
            opened(syn);
        } else if (frame instanceof SpdyDataFrame data) {
            Connection c = byStream.get(data.streamId());
            if (c != null && !c.ended && c.data != null && c.data == data.streamId()) {
                c.received.writeBytes(ByteBufUtil.getBytes(data.content()));
                respond(c, data.isLast());
            }
        } else if (frame instanceof SpdyRstStreamFrame rst) {
            Connection c = byStream.get(rst.streamId());
            if (c != null && !c.ended) {
                // the client gave up on the connection: the kubelet then closes the error stream, which it awaits
                c.ended = true;
                if (c.error != null && c.error != rst.streamId()) {
                    send(fin(c.error, new byte[0]));
                }
            }
            forget(c);
        } else if (frame instanceof SpdyPingFrame ping) {
            send(new DefaultSpdyPingFrame(ping.id()));
        } else if (frame instanceof SpdyGoAwayFrame) {
            sink.close();
        }
        // SETTINGS and WINDOW_UPDATE need nothing: the answers are far smaller than any window
    }

    private void opened(SpdySynStreamFrame syn) throws IOException {
        int id = syn.streamId();
        String type = syn.headers().getAsString(STREAM_TYPE);
        String requestId = syn.headers().getAsString(REQUEST_ID);
        int port = port(syn.headers().getAsString(PORT));
        if (port < 1 || !("data".equals(type) || "error".equals(type))) {
            send(new DefaultSpdyRstStreamFrame(id, SpdyStreamStatus.REFUSED_STREAM));
            return;
        }
        if (requestId == null || requestId.isEmpty()) {
            // a client older than request ids: the kubelet pairs an error stream with the data stream two ids on
            requestId = String.valueOf("error".equals(type) ? id : id - 2);
        }
        DefaultSpdySynReplyFrame reply = new DefaultSpdySynReplyFrame(id);
        // The kubelet's reply has no headers, but Netty writes no header block for none and Go's SPDY reader
        // then fails: echoing the port is a header the client ignores.
        reply.headers().set(PORT, String.valueOf(port));
        send(reply);
        Connection c = byRequest.computeIfAbsent(requestId, r -> new Connection(r, port));
        if ("data".equals(type)) {
            c.data = id;
        } else {
            c.error = id;
        }
        byStream.put(id, c);
        if (c.data != null && c.error != null && PortForwardSession.owner(pod, c.port) == null) {
            c.ended = true;
            send(fin(c.error, PortForwardSession.refused(pod, c.port).getBytes(StandardCharsets.UTF_8)));
            send(fin(c.data, new byte[0]));
        }
    }

    /** Answers once the responder has what it needs (or the client has finished sending). */
    private void respond(Connection c, boolean clientDone) throws IOException {
        byte[] answer = PortForwardSession.answer(pod, c.port, c.received.toByteArray());
        if (answer == null && !clientDone) {
            return;
        }
        c.ended = true;
        send(fin(c.data, answer == null ? new byte[0] : answer));
        if (c.error != null) {
            send(fin(c.error, new byte[0]));
        }
    }

    private void forget(Connection c) {
        if (c == null) {
            return;
        }
        byRequest.remove(c.requestId);
        if (c.data != null) {
            byStream.remove(c.data);
        }
        if (c.error != null) {
            byStream.remove(c.error);
        }
    }

    private static DefaultSpdyDataFrame fin(int streamId, byte[] bytes) {
        DefaultSpdyDataFrame frame = new DefaultSpdyDataFrame(streamId, Unpooled.wrappedBuffer(bytes));
        frame.setLast(true);
        return frame;
    }

    private void send(SpdyFrame frame) throws IOException {
        sink.send(framing.encode(frame));
    }

    private static int port(String value) {
        try {
            int port = Integer.parseInt(value == null ? "" : value.trim());
            return port <= 65535 ? port : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public synchronized void closed() {
        framing.close();
    }
}
