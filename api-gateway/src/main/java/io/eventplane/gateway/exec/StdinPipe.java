package io.eventplane.gateway.exec;

import java.io.InputStream;
import java.util.concurrent.LinkedBlockingQueue;

/** The stdin channel as the running command reads it: blocks until data comes or the client closes it. */
final class StdinPipe extends InputStream {
    private static final byte[] END = new byte[0];
    private final LinkedBlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private byte[] current = new byte[0];
    private int position;
    private boolean ended;

    void feed(byte[] data) {
        if (data.length > 0) {
            chunks.add(data);
        }
    }

    void end() {
        chunks.add(END);
    }

    @Override
    public int read() throws java.io.IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws java.io.IOException {
        if (length == 0) {
            return 0;
        }
        while (position >= current.length) {
            if (ended) {
                return -1;
            }
            try {
                byte[] next = chunks.take();
                if (next == END) {
                    ended = true;
                    return -1;
                }
                current = next;
                position = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("stdin closed");
            }
        }
        int n = Math.min(length, current.length - position);
        System.arraycopy(current, position, buffer, offset, n);
        position += n;
        return n;
    }
}
