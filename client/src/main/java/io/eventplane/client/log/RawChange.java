package io.eventplane.client.log;

import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import java.time.Instant;

/**
 * A change of the event log as read from Kafka: its header fields (who, when, what, which version) decoded, the object
 * left as the record's bytes until someone asks for it. Folding a log needs only the headers, and a digest can be
 * taken over the object's bytes as they are, so a replay decodes an object only when it is asked for: this is what
 * lets a replay run at the speed of reading the log rather than of decoding every object in it.
 *
 * <p>The bytes are always in the current ObjectChanged schema (the {@link LogCodec} re-encodes records written with
 * an older schema), so the same state has the same bytes however it was read.
 */
public final class RawChange {
    private final LogCodec codec;
    final byte[] wire;
    final int objectStart;
    private final ChangeType type;
    private final String kind;
    private final String namespace;
    private final String name;
    private final long resourceVersion;
    private final Instant time;
    private ObjectChanged decoded;

    RawChange(LogCodec codec, byte[] wire, int objectStart, ChangeType type, String kind, String namespace,
              String name, long resourceVersion, Instant time) {
        this.codec = codec;
        this.wire = wire;
        this.objectStart = objectStart;
        this.type = type;
        this.kind = kind;
        this.namespace = namespace;
        this.name = name;
        this.resourceVersion = resourceVersion;
        this.time = time;
    }

    public ChangeType type() {
        return type;
    }

    public String kind() {
        return kind;
    }

    public String namespace() {
        return namespace;
    }

    public String name() {
        return name;
    }

    public long resourceVersion() {
        return resourceVersion;
    }

    /** The envelope's time: when the change was asked for. */
    public Instant time() {
        return time;
    }

    /** The whole change, decoded on first use. */
    public synchronized ObjectChanged decode() {
        if (decoded == null) {
            decoded = codec.decode(wire);
        }
        return decoded;
    }

    /** The whole change decoded, without keeping it (a digest reads every object once). */
    synchronized ObjectChanged decodeOnce() {
        return decoded != null ? decoded : codec.decode(wire);
    }

    /** The record as it is in the log (Confluent wire format, current schema). */
    public byte[] wire() {
        return wire;
    }
}
