package io.eventplane.client.log;

import io.eventplane.core.Keys;
import io.eventplane.log.ObjectChanged;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * A digest of a complete state: SHA-256 over every object in key order, each as its key, its resourceVersion and its
 * Avro binary encoding with maps in key order. Two states have the same digest exactly when they hold the same objects
 * at the same versions with the same content, however they were built (the live view, a replay, a time-travel rebuild).
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
        return add(Keys.of(change.getKind(), change.getNamespace(), change.getName()), change.getResourceVersion(),
                (SpecificRecord) change.getObject());
    }

    /** Adds one object given as a log record: the same digest as {@link #add(ObjectChanged)} of it decoded. */
    public StateDigest add(String key, RawChange change) {
        return add(key, change.resourceVersion(), (SpecificRecord) change.decodeOnce().getObject());
    }

    /**
     * The key, the resourceVersion and the object's Avro binary encoding with every map in key order. Not the bytes
     * of the log: a map decoded from the log iterates in the decoder's hash order, which need not be the order the
     * writer encoded it in, so re-encoding a decoded object does not always give its bytes back.
     */
    private StateDigest add(String key, long resourceVersion, SpecificRecord object) {
        sha.update(key.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(Long.toString(resourceVersion).getBytes(StandardCharsets.US_ASCII));
        sha.update((byte) 0);
        SpecificRecord canonical = (SpecificRecord) canonical(object);
        buffer.reset();
        encoder = EncoderFactory.get().binaryEncoder(buffer, encoder);
        try {
            WRITERS.computeIfAbsent(canonical.getSchema(), SpecificDatumWriter::new).write(canonical, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        sha.update(buffer.toByteArray());
        objects++;
        return this;
    }

    /** A copy whose maps iterate in key order (records and lists copied only where they hold a map). */
    private static Object canonical(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(k.toString(), canonical(v)));
            return sorted;
        }
        if (value instanceof List<?> list) {
            List<Object> out = null;
            for (int i = 0; i < list.size(); i++) {
                Object c = canonical(list.get(i));
                if (c != list.get(i) && out == null) {
                    out = new ArrayList<>(list.subList(0, i));
                }
                if (out != null) {
                    out.add(c);
                }
            }
            return out == null ? list : out;
        }
        if (value instanceof SpecificRecord record) {
            SpecificRecord out = null;
            int fields = record.getSchema().getFields().size();
            for (int i = 0; i < fields; i++) {
                Object v = record.get(i);
                Object c = canonical(v);
                if (c != v) {
                    if (out == null) {
                        out = (SpecificRecord) SpecificData.get().deepCopy(record.getSchema(), record);
                    }
                    out.put(i, c);
                }
            }
            return out == null ? record : out;
        }
        return value;
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
