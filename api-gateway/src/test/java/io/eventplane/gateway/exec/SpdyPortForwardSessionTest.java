package io.eventplane.gateway.exec;

import static io.eventplane.testkit.objects.KubeObjects.container;
import static io.eventplane.testkit.objects.KubeObjects.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Pod;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.spdy.DefaultSpdyDataFrame;
import io.netty.handler.codec.spdy.DefaultSpdyPingFrame;
import io.netty.handler.codec.spdy.DefaultSpdyRstStreamFrame;
import io.netty.handler.codec.spdy.DefaultSpdySynStreamFrame;
import io.netty.handler.codec.spdy.SpdyDataFrame;
import io.netty.handler.codec.spdy.SpdyFrame;
import io.netty.handler.codec.spdy.SpdyPingFrame;
import io.netty.handler.codec.spdy.SpdyRstStreamFrame;
import io.netty.handler.codec.spdy.SpdyStreamStatus;
import io.netty.handler.codec.spdy.SpdySynReplyFrame;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The SPDY side of kubectl's port-forward against the simulated responders, frames in and out as kubectl's. */
class SpdyPortForwardSessionTest {
    private final Pod pod = pod("web").namespace("default").uid("uid-1")
            .containers(container("app").port(8080)).running().build();
    private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    private boolean closed;
    private final StreamSink sink = new StreamSink() {
        @Override
        public void send(byte[] message) {
            sent.writeBytes(message);
        }

        @Override
        public void close() {
            closed = true;
        }
    };
    private final SpdyFraming client = new SpdyFraming(); // kubectl's end: its own compression contexts
    private final SpdyPortForwardSession session = new SpdyPortForwardSession(pod, sink);

    @Test
    @DisplayName("each stream gets a SYN_REPLY; a complete HTTP request on the data stream is answered, then both streams end")
    void answersADeclaredPort() {
        List<SpdyFrame> replies = exchange(syn(1, "error", 8080, "0"), syn(3, "data", 8080, "0"));
        assertEquals(2, replies.size());
        assertEquals(1, assertInstanceOf(SpdySynReplyFrame.class, replies.get(0)).streamId());
        assertEquals(3, assertInstanceOf(SpdySynReplyFrame.class, replies.get(1)).streamId());

        List<SpdyFrame> answer = exchange(data(3, "GET / HTTP/1.1\r\nHost: x\r\n"));
        assertTrue(answer.isEmpty(), "an incomplete request waits");
        answer = exchange(data(3, "\r\n"));
        SpdyDataFrame body = assertInstanceOf(SpdyDataFrame.class, answer.get(0));
        assertEquals(3, body.streamId());
        assertTrue(body.isLast());
        assertTrue(text(body).endsWith("pod default/web container app port 8080\n"), text(body));
        SpdyDataFrame errorEnd = assertInstanceOf(SpdyDataFrame.class, answer.get(1));
        assertEquals(1, errorEnd.streamId());
        assertTrue(errorEnd.isLast());
        assertEquals("", text(errorEnd));
        assertTrue(exchange(new DefaultSpdyRstStreamFrame(3, SpdyStreamStatus.CANCEL)).isEmpty());
        assertFalse(closed);
    }

    @Test
    @DisplayName("a port no container declares: the kubelet's connection-refused message on the error stream")
    void refusesAnUndeclaredPort() {
        List<SpdyFrame> frames = exchange(syn(1, "error", 7777, "0"), syn(3, "data", 7777, "0"));
        SpdyDataFrame error = assertInstanceOf(SpdyDataFrame.class, frames.get(2));
        assertEquals(1, error.streamId());
        assertEquals("error forwarding port 7777 to pod uid-1, uid : failed to connect to localhost:7777 inside "
                + "namespace: connection refused", text(error));
        assertTrue(error.isLast());
        SpdyDataFrame dataEnd = assertInstanceOf(SpdyDataFrame.class, frames.get(3));
        assertEquals(3, dataEnd.streamId());
        assertTrue(dataEnd.isLast());
    }

    @Test
    @DisplayName("two connections interleaved on one SPDY connection are paired by requestID")
    void pairsByRequestId() {
        exchange(syn(1, "error", 8080, "0"), syn(3, "error", 8080, "1"), syn(5, "data", 8080, "1"),
                syn(7, "data", 8080, "0"));
        List<SpdyFrame> second = exchange(data(5, "GET /b HTTP/1.1\r\n\r\n"));
        assertEquals(5, assertInstanceOf(SpdyDataFrame.class, second.get(0)).streamId());
        assertEquals(3, assertInstanceOf(SpdyDataFrame.class, second.get(1)).streamId(), "request 1's error stream");
        List<SpdyFrame> first = exchange(data(7, "GET /a HTTP/1.1\r\n\r\n"));
        assertEquals(7, assertInstanceOf(SpdyDataFrame.class, first.get(0)).streamId());
        assertEquals(1, assertInstanceOf(SpdyDataFrame.class, first.get(1)).streamId(), "request 0's error stream");
    }

    @Test
    @DisplayName("a PING is echoed with its id; a stream without a valid port is refused with RST_STREAM")
    void pingAndBadStreams() {
        SpdyPingFrame pong = assertInstanceOf(SpdyPingFrame.class, exchange(new DefaultSpdyPingFrame(1)).get(0));
        assertEquals(1, pong.id());
        SpdyRstStreamFrame refused = assertInstanceOf(SpdyRstStreamFrame.class,
                exchange(syn(3, "data", 0, "0")).get(0));
        assertEquals(3, refused.streamId());
    }

    @Test
    @DisplayName("frames cut anywhere (a WebSocket message boundary is not a frame boundary) still decode")
    void splitFrames() {
        byte[] bytes = client.encode(syn(1, "error", 8080, "0"));
        session.receive(Arrays.copyOfRange(bytes, 0, 5));
        assertEquals(0, sent.size());
        session.receive(Arrays.copyOfRange(bytes, 5, bytes.length));
        assertInstanceOf(SpdySynReplyFrame.class, received().get(0));
    }

    private List<SpdyFrame> exchange(SpdyFrame... frames) {
        for (SpdyFrame frame : frames) {
            session.receive(client.encode(frame));
        }
        return received();
    }

    private List<SpdyFrame> received() {
        List<SpdyFrame> frames = new ArrayList<>(client.decode(sent.toByteArray()));
        sent.reset();
        return frames;
    }

    private static DefaultSpdySynStreamFrame syn(int id, String type, int port, String requestId) {
        DefaultSpdySynStreamFrame syn = new DefaultSpdySynStreamFrame(id, 0, (byte) 0);
        syn.headers().set("streamtype", type).set("port", String.valueOf(port)).set("requestid", requestId);
        return syn;
    }

    private static DefaultSpdyDataFrame data(int id, String text) {
        return new DefaultSpdyDataFrame(id, Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
    }

    private static String text(SpdyDataFrame frame) {
        return new String(ByteBufUtil.getBytes(frame.content()), StandardCharsets.UTF_8);
    }
}
