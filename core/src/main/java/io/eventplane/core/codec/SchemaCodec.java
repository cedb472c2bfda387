package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.IOException;

/**
 * The JSON mapping of one Avro schema node, compiled once from the schema and then shared by every decode and encode.
 * Everything Kubernetes-specific is keyed on schema facts only: logical types (times), the {@code k8s: quantity}
 * property on a string type (quantities), and unions (nullable fields, IntOrString).
 *
 * <p>One subclass per kind of schema node, each in its own file; {@link SchemaCompiler} builds the tree for a record
 * schema and {@link KubeJson} keeps one per record class.
 */
abstract class SchemaCodec {

    /** Whether this codec reads JSON values of the given type; picks the branch of a union when decoding. */
    abstract boolean reads(JsonNodeType type);

    /** Whether this codec writes the given Java value; picks the branch of a union when encoding. */
    abstract boolean writes(Object value);

    /** What a JSON value must look like here, for messages: {@code integer (int32)}, {@code object}. */
    abstract String expected();

    /** Decodes a non-null JSON value; on a problem records it in {@code ctx} and returns null. */
    abstract Object decode(JsonNode node, DecodeContext ctx);

    abstract JsonNode encode(Object value);

    /**
     * Writes exactly what {@link #encode} returns, to a generator made by an ObjectMapper. Codecs on the hot path
     * (records, unions, arrays, maps, scalars) write straight to it: a watch event costs no JSON tree.
     */
    void write(Object value, JsonGenerator out) throws IOException {
        out.writeTree(encode(value));
    }

    /** Whether JSON null is a value here (a union with null), rather than a type error. */
    boolean nullable() {
        return false;
    }

    Object decodeNullable(JsonNode node, DecodeContext ctx) {
        if (node.isNull() || node.isMissingNode()) {
            return nullable() ? null : ctx.mismatch(expected(), node);
        }
        return decode(node, ctx);
    }

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** False for a double or float node holding NaN or an infinity. */
    static boolean isFinite(JsonNode node) {
        return !(node.isDouble() || node.isFloat()) || Double.isFinite(node.doubleValue());
    }
}
