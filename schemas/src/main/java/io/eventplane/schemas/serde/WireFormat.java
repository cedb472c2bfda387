package io.eventplane.schemas.serde;

import java.nio.ByteBuffer;

import org.apache.kafka.common.errors.SerializationException;

/** The Confluent wire format: magic byte 0, a 4-byte big-endian schema id, then the Avro binary encoding. */
public final class WireFormat {

    public static final byte MAGIC_BYTE = 0;
    public static final int HEADER_SIZE = 5;

    private WireFormat() {
    }

    /**
     * The schema id in the header of {@code data}.
     *
     * @throws SerializationException if the bytes do not start with a Confluent wire-format header
     */
    public static int schemaId(byte[] data) {
        if (data.length < HEADER_SIZE) {
            throw new SerializationException("not in the Confluent wire format: " + data.length
                    + " byte(s), fewer than the " + HEADER_SIZE + "-byte header (magic byte 0 + 4-byte schema id)");
        }
        if (data[0] != MAGIC_BYTE) {
            throw new SerializationException(String.format(
                    "not in the Confluent wire format: magic byte is 0x%02x, expected 0x00", data[0]));
        }
        return ByteBuffer.wrap(data, 1, 4).getInt();
    }

    public static byte[] header(int schemaId) {
        return ByteBuffer.allocate(HEADER_SIZE).put(MAGIC_BYTE).putInt(schemaId).array();
    }
}
