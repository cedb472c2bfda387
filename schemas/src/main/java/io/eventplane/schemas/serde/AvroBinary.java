package io.eventplane.schemas.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;

/** The plain Avro binary encoding of one datum (no wire-format header, no schema id): for one-off encodings and tests. */
public final class AvroBinary {
    private AvroBinary() {
    }

    /** What {@code writer} writes for {@code datum}. */
    public static <T> byte[] bytes(DatumWriter<T> writer, T datum) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        writer.write(datum, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
