package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.codec.KubeTime;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.Statuses;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes protobuf bodies kubectl sends for built-in types from its generators ({@code kubectl create
 * namespace x} posts {@code application/vnd.kubernetes.protobuf}), turned into JSON for the ordinary decoding path.
 * Only the messages of a Namespace are described here; other kinds get 415 and should be sent as JSON.
 *
 * <p>Wire format: the magic {@code k8s\0}, then a runtime.Unknown {typeMeta=1, raw=2, contentEncoding=3,
 * contentType=4} whose raw bytes are the object's message. Empty strings, zero numbers and empty messages are what Go
 * emits for unset optional fields, so they count as absent.
 */
final class ProtobufBodies {
    static final String CONTENT_TYPE = "application/vnd.kubernetes.protobuf";
    private static final byte[] MAGIC = {'k', '8', 's', 0};

    private enum Type { STRING, INT64, BOOL, MESSAGE, TIME, STRING_MAP, BYTES }

    private record Field(String name, Type type, boolean repeated, String message) {
        static Field of(String name, Type type) {
            return new Field(name, type, false, null);
        }

        static Field message(String name, String message, boolean repeated) {
            return new Field(name, Type.MESSAGE, repeated, message);
        }
    }

    /** Field numbers from Kubernetes' generated.proto files (apimachinery meta/v1, runtime, core/v1). */
    private static final Map<String, Map<Integer, Field>> MESSAGES = Map.of(
            "Unknown", Map.of(1, Field.message("typeMeta", "TypeMeta", false), 2, Field.of("raw", Type.BYTES)),
            "TypeMeta", Map.of(1, Field.of("apiVersion", Type.STRING), 2, Field.of("kind", Type.STRING)),
            "ObjectMeta", Map.ofEntries(Map.entry(1, Field.of("name", Type.STRING)),
                    Map.entry(2, Field.of("generateName", Type.STRING)), Map.entry(3, Field.of("namespace", Type.STRING)),
                    Map.entry(5, Field.of("uid", Type.STRING)), Map.entry(6, Field.of("resourceVersion", Type.STRING)),
                    Map.entry(7, Field.of("generation", Type.INT64)), Map.entry(8, Field.of("creationTimestamp", Type.TIME)),
                    Map.entry(9, Field.of("deletionTimestamp", Type.TIME)),
                    Map.entry(10, Field.of("deletionGracePeriodSeconds", Type.INT64)),
                    Map.entry(11, Field.of("labels", Type.STRING_MAP)), Map.entry(12, Field.of("annotations", Type.STRING_MAP)),
                    Map.entry(13, Field.message("ownerReferences", "OwnerReference", true)),
                    Map.entry(14, new Field("finalizers", Type.STRING, true, null))),
            "OwnerReference", Map.of(1, Field.of("kind", Type.STRING), 3, Field.of("name", Type.STRING),
                    4, Field.of("uid", Type.STRING), 5, Field.of("apiVersion", Type.STRING),
                    6, Field.of("controller", Type.BOOL), 7, Field.of("blockOwnerDeletion", Type.BOOL)),
            "Namespace", Map.of(1, Field.message("metadata", "ObjectMeta", false),
                    2, Field.message("spec", "NamespaceSpec", false), 3, Field.message("status", "NamespaceStatus", false)),
            "NamespaceSpec", Map.of(1, new Field("finalizers", Type.STRING, true, null)),
            "NamespaceStatus", Map.of(1, Field.of("phase", Type.STRING)));

    private ProtobufBodies() {
    }

    /** @throws ApiException 415 for kinds not described here, 400 for bytes that are not a Kubernetes protobuf */
    static ObjectNode decode(byte[] body, KindInfo kind) {
        if (kind != Kinds.NAMESPACE) {
            throw new ApiException(Statuses.unsupportedMediaType(CONTENT_TYPE + " (protobuf is accepted for namespaces "
                    + "only; send " + kind.plural() + " as JSON)", List.of("application/json", "application/yaml")));
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (body.length < MAGIC.length || body[i] != MAGIC[i]) {
                throw new ApiException(Statuses.badRequest("the body is not a Kubernetes protobuf message"));
            }
        }
        try {
            ObjectNode unknown = read(new Reader(body, MAGIC.length, body.length), "Unknown");
            String kindName = unknown.path("typeMeta").path("kind").asText(kind.kind());
            byte[] raw = unknown.has("raw") ? unknown.get("raw").binaryValue() : new byte[0];
            ObjectNode object = read(new Reader(raw, 0, raw.length), kindName.equals("Namespace") ? "Namespace" : "?");
            ObjectNode out = Json.object();
            out.put("apiVersion", unknown.path("typeMeta").path("apiVersion").asText(kind.apiVersion()));
            out.put("kind", kindName);
            out.setAll(object);
            return out;
        } catch (RuntimeException | java.io.IOException e) {
            throw new ApiException(Statuses.badRequest("cannot decode the protobuf body: " + e.getMessage()));
        }
    }

    private static ObjectNode read(Reader r, String message) {
        Map<Integer, Field> fields = MESSAGES.get(message);
        if (fields == null) {
            throw new IllegalArgumentException("unexpected message " + message);
        }
        ObjectNode out = Json.object();
        while (r.more()) {
            long tag = r.varint();
            int number = (int) (tag >>> 3);
            int wire = (int) (tag & 7);
            Field f = fields.get(number);
            if (f == null) {
                r.skip(wire);
                continue;
            }
            switch (f.type()) {
                case STRING -> {
                    String s = new String(r.bytes(), StandardCharsets.UTF_8);
                    if (f.repeated()) {
                        array(out, f.name()).add(s);
                    } else if (!s.isEmpty()) {
                        out.put(f.name(), s);
                    }
                }
                case BYTES -> out.put(f.name(), r.bytes());
                case INT64 -> {
                    long v = r.varint();
                    if (v != 0) {
                        out.put(f.name(), v);
                    }
                }
                case BOOL -> out.put(f.name(), r.varint() != 0);
                case TIME -> {
                    ObjectNode t = time(r.sub());
                    if (t != null) {
                        out.set(f.name(), t.get("t"));
                    }
                }
                case STRING_MAP -> {
                    Reader entry = r.sub();
                    String key = "";
                    String value = "";
                    while (entry.more()) {
                        long et = entry.varint();
                        String s = new String(entry.bytes(), StandardCharsets.UTF_8);
                        if ((et >>> 3) == 1) {
                            key = s;
                        } else {
                            value = s;
                        }
                    }
                    ObjectNode map = out.get(f.name()) instanceof ObjectNode o ? o : out.putObject(f.name());
                    map.put(key, value);
                }
                case MESSAGE -> {
                    ObjectNode m = read(r.sub(), f.message());
                    if (f.repeated()) {
                        array(out, f.name()).add(m);
                    } else if (!m.isEmpty() || f.name().equals("spec")) {
                        out.set(f.name(), m);
                    }
                }
            }
        }
        return out;
    }

    private static ArrayNode array(ObjectNode n, String field) {
        return n.get(field) instanceof ArrayNode a ? a : n.putArray(field);
    }

    /** metav1.Time {seconds=1, nanos=2}; null when unset. */
    private static ObjectNode time(Reader r) {
        long seconds = 0;
        long nanos = 0;
        while (r.more()) {
            long tag = r.varint();
            if ((tag >>> 3) == 1) {
                seconds = r.varint();
            } else if ((tag >>> 3) == 2) {
                nanos = r.varint();
            } else {
                r.skip((int) (tag & 7));
            }
        }
        if (seconds == 0 && nanos == 0) {
            return null;
        }
        ObjectNode n = Json.object();
        n.put("t", KubeTime.formatTime(Instant.ofEpochSecond(seconds, nanos)));
        return n;
    }

    /** A bounded protobuf reader. */
    private static final class Reader {
        private final byte[] buf;
        private int pos;
        private final int end;

        Reader(byte[] buf, int pos, int end) {
            this.buf = buf;
            this.pos = pos;
            this.end = end;
        }

        boolean more() {
            return pos < end;
        }

        long varint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) {
                    throw new IllegalArgumentException("truncated varint");
                }
                byte b = buf[pos++];
                v |= (long) (b & 0x7f) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw new IllegalArgumentException("malformed varint");
        }

        Reader sub() {
            int len = (int) varint();
            if (len < 0 || pos + len > end) {
                throw new IllegalArgumentException("truncated message");
            }
            Reader r = new Reader(buf, pos, pos + len);
            pos += len;
            return r;
        }

        byte[] bytes() {
            Reader r = sub();
            byte[] out = new byte[r.end - r.pos];
            System.arraycopy(buf, r.pos, out, 0, out.length);
            return out;
        }

        void skip(int wire) {
            switch (wire) {
                case 0 -> varint();
                case 1 -> pos += 8;
                case 2 -> sub();
                case 5 -> pos += 4;
                default -> throw new IllegalArgumentException("unsupported wire type " + wire);
            }
            if (pos > end) {
                throw new IllegalArgumentException("truncated field");
            }
        }
    }
}
