package io.eventplane.client.log;

import io.eventplane.core.Keys;
import io.eventplane.log.ObjectChanged;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * A digest of a complete state: SHA-256 over every object in key order, each as its key, its resourceVersion and its
 * Avro binary encoding. Two states have the same digest exactly when they hold the same objects at the same versions
 * with the same content, however they were built (the live view, a replay, a time-travel rebuild).
 */
public final class StateDigest {
    private final MessageDigest sha;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(4096);
    private BinaryEncoder encoder;
    private long objects;
    private static final Map<Schema, SpecificDatumWriter<SpecificRecord>> WRITERS = new ConcurrentHashMap<>();

    public StateDigest() {
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Adds one object; callers add objects in ascending key order. */
    public StateDigest add(ObjectChanged change) {
        String key = Keys.of(change.getKind(), change.getNamespace(), change.getName());
        sha.update(key.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(Long.toString(change.getResourceVersion()).getBytes(StandardCharsets.US_ASCII));
        sha.update((byte) 0);
        SpecificRecord object = (SpecificRecord) change.getObject();
        buffer.reset();
        encoder = EncoderFactory.get().binaryEncoder(buffer, encoder);
        try {
            WRITERS.computeIfAbsent(object.getSchema(), SpecificDatumWriter::new).write(object, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sha.update(buffer.toByteArray());
        objects++;
        return this;
    }

    /** Adds one object given as a log record's bytes (current schema): no decoding, the same digest as {@link #add}. */
    public StateDigest add(String key, RawChange change) {
        sha.update(key.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(Long.toString(change.resourceVersion()).getBytes(StandardCharsets.US_ASCII));
        sha.update((byte) 0);
        int[] object = LogCodec.objectBytes(change);
        sha.update(change.wire, object[0], object[1]);
        objects++;
        return this;
    }

    public long objects() {
        return objects;
    }

    /** {@code sha256:<hex>}; the digest cannot be added to afterwards. */
    public String finish() {
        return "sha256:" + HexFormat.of().formatHex(sha.digest());
    }

    /** The digest of a whole state given in key order. */
    public static String of(Iterable<ObjectChanged> inKeyOrder) {
        StateDigest d = new StateDigest();
        inKeyOrder.forEach(d::add);
        return d.finish();
    }
}
