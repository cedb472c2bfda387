package io.eventplane.schemas.serde;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable byte buffer that a serializer reuses from one record to the next (one per thread): unlike
 * {@link java.io.ByteArrayOutputStream} it takes no lock per write and keeps its capacity across records, so a record
 * costs one copy (the result) instead of a regrowth per doubling.
 */
final class ByteSink extends OutputStream {
    private static final int KEEP_AT_MOST = 1 << 20;
    private byte[] buf = new byte[8192];
    private int count;

    @Override
    public void write(int b) {
        ensure(1);
        buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, count, len);
        count += len;
    }

    private void ensure(int more) {
        if (count + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
        }
    }

    /** Empties the buffer for the next record (a buffer grown by a huge record is let go). */
    void reset() {
        count = 0;
        if (buf.length > KEEP_AT_MOST) {
            buf = new byte[8192];
        }
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, count);
    }
}
