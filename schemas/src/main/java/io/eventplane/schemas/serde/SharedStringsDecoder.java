package io.eventplane.schemas.serde;

import java.io.IOException;
import java.nio.ByteBuffer;

import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * A binary decoder whose {@code String}s are {@link SharedStrings shared} with those decoded before. It wraps the
 * decoder rather than a datum reader because generated classes with custom coders read their strings from the
 * decoder directly.
 */
final class SharedStringsDecoder extends Decoder {
    /** Each thread's buffer for a string's bytes (one decode at a time per thread; dropped when grown large). */
    private static final ThreadLocal<Utf8> SCRATCH = ThreadLocal.withInitial(Utf8::new);
    private static final int LARGEST_KEPT = 64 * 1024;

    private final BinaryDecoder in;
    private Utf8 scratch;

    SharedStringsDecoder(BinaryDecoder in) {
        this.in = in;
    }

    @Override
    public String readString() throws IOException {
        if (scratch == null) {
            scratch = SCRATCH.get();
        }
        scratch = in.readString(scratch); // Avro's own length checks; the bytes land in the reused buffer
        String value = SharedStrings.decode(scratch.getBytes(), scratch.getByteLength());
        if (scratch.getBytes().length > LARGEST_KEPT) {
            scratch = new Utf8();
            SCRATCH.set(scratch);
        }
        return value;
    }

    @Override
    public void readNull() throws IOException {
        in.readNull();
    }

    @Override
    public boolean readBoolean() throws IOException {
        return in.readBoolean();
    }

    @Override
    public int readInt() throws IOException {
        return in.readInt();
    }

    @Override
    public long readLong() throws IOException {
        return in.readLong();
    }

    @Override
    public float readFloat() throws IOException {
        return in.readFloat();
    }

    @Override
    public double readDouble() throws IOException {
        return in.readDouble();
    }

    @Override
    public Utf8 readString(Utf8 old) throws IOException {
        return in.readString(old);
    }

    @Override
    public void skipString() throws IOException {
        in.skipString();
    }

    @Override
    public ByteBuffer readBytes(ByteBuffer old) throws IOException {
        return in.readBytes(old);
    }

    @Override
    public void skipBytes() throws IOException {
        in.skipBytes();
    }

    @Override
    public void readFixed(byte[] bytes, int start, int length) throws IOException {
        in.readFixed(bytes, start, length);
    }

    @Override
    public void skipFixed(int length) throws IOException {
        in.skipFixed(length);
    }

    @Override
    public int readEnum() throws IOException {
        return in.readEnum();
    }

    @Override
    public long readArrayStart() throws IOException {
        return in.readArrayStart();
    }

    @Override
    public long arrayNext() throws IOException {
        return in.arrayNext();
    }

    @Override
    public long skipArray() throws IOException {
        return in.skipArray();
    }

    @Override
    public long readMapStart() throws IOException {
        return in.readMapStart();
    }

    @Override
    public long mapNext() throws IOException {
        return in.mapNext();
    }

    @Override
    public long skipMap() throws IOException {
        return in.skipMap();
    }

    @Override
    public int readIndex() throws IOException {
        return in.readIndex();
    }

    @Override
    public int remainingBytes() {
        return in.remainingBytes();
    }
}
