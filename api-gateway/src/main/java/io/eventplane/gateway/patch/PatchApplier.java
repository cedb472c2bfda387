package io.eventplane.gateway.patch;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.avro.Schema;

/** Applies a PATCH body of one of the three JSON patch types to an object's JSON. Pure: no I/O. */
public final class PatchApplier {
    /** The patch types, by their Content-Type. */
    public enum Type {
        JSON("application/json-patch+json"),
        MERGE("application/merge-patch+json"),
        STRATEGIC("application/strategic-merge-patch+json");

        private final String contentType;

        Type(String contentType) {
            this.contentType = contentType;
        }

        public String contentType() {
            return contentType;
        }

        /** The type of a (parameter-free, lower-case) content type, or null. */
        public static Type of(String contentType) {
            for (Type t : values()) {
                if (t.contentType.equals(contentType)) {
                    return t;
                }
            }
            return null;
        }
    }

    private PatchApplier() {
    }

    /**
     * @return the patched document (a new tree; {@code current} is not modified)
     * @throws PatchException when the patch does not apply
     */
    public static JsonNode apply(Type type, JsonNode current, JsonNode patch) {
        return apply(type, current, patch, null);
    }

    /**
     * @param schema the kind's record schema, which tells a strategic merge patch how lists of the same field name
     *               merge (a Service's ports by port, a container's by containerPort); null to go by field names
     */
    public static JsonNode apply(Type type, JsonNode current, JsonNode patch, Schema schema) {
        return switch (type) {
            case JSON -> JsonPatch.apply(current, patch);
            case MERGE -> {
                if (!patch.isObject()) {
                    throw new PatchException("a merge patch must be a JSON object");
                }
                yield MergePatch.apply(current, patch);
            }
            case STRATEGIC -> StrategicMergePatch.apply(current, patch, schema);
        };
    }
}
