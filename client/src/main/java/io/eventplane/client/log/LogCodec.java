package io.eventplane.client.log;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.schemas.serde.SchemaRegistryClient;
import io.eventplane.schemas.serde.WireFormat;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Reads event-log records into {@link RawChange}s: the header fields of ObjectChanged (the envelope, type, kind,
 * namespace, name, uid and versions, which come before the object in the schema) are read straight from the Avro
 * binary; the object stays as bytes. A record written with another schema than today's is decoded in full and
 * re-encoded, so every RawChange carries current-schema bytes.
 */
public final class LogCodec {
    private final String topic;
    private final Deserializer<ObjectChanged> deserializer;
    private final Serializer<ObjectChanged> serializer;
    private final SchemaRegistryClient registry;
    private final Map<Integer, Boolean> current = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong reencoded = new java.util.concurrent.atomic.AtomicLong();

    public LogCodec(EventplaneConfig config) {
        this(config.topics().events(), LogSerdes.changes(config), SchemaRegistryClient.forUrl(config.registryUrl()));
    }

    LogCodec(String topic, Serde<ObjectChanged> serde, SchemaRegistryClient registry) {
        this.topic = topic;
        this.deserializer = serde.deserializer();
        this.serializer = serde.serializer();
        this.registry = registry;
    }

    /** Parses one record of the events topic. */
    public RawChange parse(byte[] wire) {
        int id = WireFormat.schemaId(wire);
        if (!current.computeIfAbsent(id, i -> ObjectChanged.getClassSchema().equals(registry.getById(i)))) {
            wire = serializer.serialize(topic, deserializer.deserialize(topic, wire));
            reencoded.incrementAndGet();
        }
        try {
            Cursor c = new Cursor(wire, WireFormat.HEADER_SIZE);
            c.skipString(); // envelope.actor
            c.skipString(); // envelope.requestId
            if (c.readLong() == 1) { // envelope.causationId: union {null, string}
                c.skipString();
            }
            Instant time = Instant.ofEpochMilli(c.readLong());
            c.skipStringArray(); // envelope.groups
            if (c.readLong() == 1) { // envelope.realUser
                c.skipString();
            }
            c.skipStringArray(); // envelope.realGroups
            if (c.readLong() == 1) { // envelope.userAgent
                c.skipString();
            }
            int type = (int) c.readLong();
            String kind = c.readString();
            String namespace = c.readString();
            String name = c.readString();
            c.skipString(); // uid
            long rv = c.readLong();
            c.readLong(); // previousResourceVersion
            ChangeType[] types = ChangeType.values();
            if (type < 0 || type >= types.length) {
                throw new SerializationException("unknown change type " + type);
            }
            return new RawChange(this, wire, c.pos, types[type], kind, namespace, name, rv, time);
        } catch (ArrayIndexOutOfBoundsException | StringIndexOutOfBoundsException e) {
            throw new SerializationException("a record of " + topic + " is truncated (" + wire.length + " bytes)");
        }
    }

    /** How many records were written with an older schema and had to be decoded and re-encoded. */
    public long reencoded() {
        return reencoded.get();
    }

    /** Encodes a change as the log holds it (for tests and snapshots of decoded state). */
    public RawChange of(ObjectChanged change) {
        return parse(serializer.serialize(topic, change));
    }

    ObjectChanged decode(byte[] wire) {
        return deserializer.deserialize(topic, wire);
    }

    /** Avro binary primitives over a byte array: zig-zag varints and length-prefixed strings. */
    static final class Cursor {
        private final byte[] b;
        int pos;

        Cursor(byte[] b, int pos) {
            this.b = b;
            this.pos = pos;
        }

        long readLong() {
            long raw = 0;
            int shift = 0;
            while (true) {
                byte x = b[pos++];
                raw |= (long) (x & 0x7f) << shift;
                if ((x & 0x80) == 0) {
                    break;
                }
                shift += 7;
                if (shift > 63) {
                    throw new SerializationException("malformed varint in an event-log record");
                }
            }
            return (raw >>> 1) ^ -(raw & 1);
        }

        String readString() {
            int len = (int) readLong();
            String s = new String(b, pos, len, StandardCharsets.UTF_8);
            pos += len;
            return s;
        }

        /** An Avro array of strings: blocks of a count (negative: followed by the block's size) and items, then 0. */
        void skipStringArray() {
            long n;
            while ((n = readLong()) != 0) {
                if (n < 0) {
                    readLong();
                    n = -n;
                }
                for (long i = 0; i < n; i++) {
                    skipString();
                }
            }
        }

        void skipString() {
            int len = (int) readLong();
            if (len < 0 || pos + len > b.length) {
                throw new ArrayIndexOutOfBoundsException(pos + len);
            }
            pos += len;
        }
    }
}
