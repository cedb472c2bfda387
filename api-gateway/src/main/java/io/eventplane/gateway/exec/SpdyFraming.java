package io.eventplane.gateway.exec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.spdy.SpdyFrame;
import io.netty.handler.codec.spdy.SpdyFrameCodec;
import io.netty.handler.codec.spdy.SpdyVersion;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayList;
import java.util.List;

/**
 * SPDY/3.1 frames from and to bytes, for one connection (kubectl's port-forward protocol): Netty's codec in an
 * embedded channel, which keeps the zlib header-compression context of each direction for the connection's life.
 * The bytes may arrive cut anywhere (a WebSocket tunnel carries them as a byte stream); a partial frame waits for
 * the rest. Decoded data frames own a buffer: the caller releases them.
 */
final class SpdyFraming {
    private final EmbeddedChannel channel = new EmbeddedChannel(new SpdyFrameCodec(SpdyVersion.SPDY_3_1));

    /** The whole frames {@code bytes} complete; a malformed stream throws. */
    synchronized List<SpdyFrame> decode(byte[] bytes) {
        channel.writeInbound(Unpooled.wrappedBuffer(bytes));
        channel.checkException();
        List<SpdyFrame> frames = new ArrayList<>();
        for (Object frame = channel.readInbound(); frame != null; frame = channel.readInbound()) {
            if (frame instanceof SpdyFrame spdy) {
                frames.add(spdy);
            } else {
                ReferenceCountUtil.release(frame);
            }
        }
        return frames;
    }

    /** The wire bytes of {@code frame}. */
    synchronized byte[] encode(SpdyFrame frame) {
        channel.writeOutbound(frame);
        channel.checkException();
        ByteBuf all = Unpooled.buffer();
        try {
            for (Object out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
                ByteBuf buf = (ByteBuf) out;
                all.writeBytes(buf);
                buf.release();
            }
            return ByteBufUtil.getBytes(all);
        } finally {
            all.release();
        }
    }

    synchronized void close() {
        channel.finishAndReleaseAll();
    }
}
