package io.eventplane.core.customavro;

import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * BACKWARD compatibility of a custom kind's version as the registry judges it: can a reader on the new schema read
 * every object written with the old one? Answers with the JSON path of the first field that breaks it (Avro reports a
 * union of records as a whole, so the field is found by walking both schemas down to it).
 */
public final class CustomAvroCompatibility {
    private CustomAvroCompatibility() {
    }

    /** What keeps {@code newer} from reading data written with {@code older}, naming the field; empty if nothing. */
    public static Optional<String> problem(Schema older, Schema newer) {
        if (compatible(newer, older)) {
            return Optional.empty();
        }
        return Optional.of(explain(newer, older, ""));
    }

    private static boolean compatible(Schema reader, Schema writer) {
        return SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getType()
                == SchemaCompatibilityType.COMPATIBLE;
    }

    private static String explain(Schema reader, Schema writer, String path) {
        Schema r = nonNull(reader);
        Schema w = nonNull(writer);
        if (r.getType() == Schema.Type.RECORD && w.getType() == Schema.Type.RECORD) {
            for (Schema.Field rf : r.getFields()) {
                Schema.Field wf = w.getField(rf.name());
                String at = (path.isEmpty() ? "" : path + ".") + CustomAvroSchemas.jsonName(rf);
                if (wf == null && !rf.hasDefaultValue()) {
                    return at + " is required but objects already stored lack it";
                }
                if (wf != null && !compatible(rf.schema(), wf.schema())) {
                    return explain(rf.schema(), wf.schema(), at);
                }
            }
        } else if (r.getType() == Schema.Type.ARRAY && w.getType() == Schema.Type.ARRAY) {
            return explain(r.getElementType(), w.getElementType(), path + "[*]");
        } else if (r.getType() == Schema.Type.MAP && w.getType() == Schema.Type.MAP) {
            return explain(r.getValueType(), w.getValueType(), path + "[*]");
        } else if (r.getType() == w.getType() && reader.getType() != Schema.Type.UNION
                && writer.getType() == Schema.Type.UNION) {
            return (path.isEmpty() ? "the object" : path) + " becomes required (stored objects may lack it)";
        }
        return (path.isEmpty() ? "the object" : path) + " changes type (stored objects have " + typeName(w)
                + ", the new schema wants " + typeName(r) + ")";
    }

    private static Schema nonNull(Schema s) {
        return s.getType() == Schema.Type.UNION && s.getTypes().size() == 2 ? s.getTypes().get(1) : s;
    }

    private static String typeName(Schema s) {
        return CustomAvroSchemas.isJsonText(s) ? "JSON text" : s.getType().getName();
    }
}
