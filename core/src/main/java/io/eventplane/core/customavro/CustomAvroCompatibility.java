package io.eventplane.core.customavro;

import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * BACKWARD compatibility of a custom kind's version as the registry judges it: can a reader on the new schema read
 * every object written with the old one? Answers with the JSON path of the first field that breaks it.
 */
public final class CustomAvroCompatibility {
    private CustomAvroCompatibility() {
    }

    /** What keeps {@code newer} from reading data written with {@code older}, naming the field; empty if nothing. */
    public static Optional<String> problem(Schema older, Schema newer) {
        SchemaCompatibility.SchemaPairCompatibility result =
                SchemaCompatibility.checkReaderWriterCompatibility(newer, older);
        if (result.getType() == SchemaCompatibilityType.COMPATIBLE) {
            return Optional.empty();
        }
        Incompatibility first = result.getResult().getIncompatibilities().get(0);
        String field = fieldPath(newer, first.getLocation());
        String why = switch (first.getType()) {
            case READER_FIELD_MISSING_DEFAULT_VALUE -> "is required but objects already stored lack it";
            case TYPE_MISMATCH, MISSING_UNION_BRANCH -> "changes type (stored objects have "
                    + typeName(first.getWriterFragment()) + ", the new schema wants "
                    + typeName(first.getReaderFragment()) + ")";
            default -> first.getMessage();
        };
        return Optional.of((field.isEmpty() ? "the object" : field) + " " + why);
    }

    /** The JSON path in {@code schema} of an Avro compatibility location ("/fields/2/type/1/items"). */
    static String fieldPath(Schema schema, String location) {
        StringBuilder path = new StringBuilder();
        Schema at = schema;
        String[] steps = location.split("/");
        for (int i = 1; i < steps.length; i++) {
            String step = steps[i];
            if (step.matches("\\d+") && at.getType() == Schema.Type.UNION) {
                at = at.getTypes().get(Integer.parseInt(step));
                continue;
            }
            at = nonNull(at);
            if (step.equals("fields") && i + 1 < steps.length && at.getType() == Schema.Type.RECORD) {
                Schema.Field f = at.getFields().get(Integer.parseInt(steps[++i]));
                path.append(path.isEmpty() ? "" : ".").append(CustomAvroSchemas.jsonName(f));
                at = f.schema();
            } else if (step.equals("items") && at.getType() == Schema.Type.ARRAY) {
                path.append("[*]");
                at = at.getElementType();
            } else if (step.equals("values") && at.getType() == Schema.Type.MAP) {
                path.append("[*]");
                at = at.getValueType();
            } else if (!step.equals("type")) {
                break;
            }
        }
        return path.toString();
    }

    private static Schema nonNull(Schema s) {
        return s.getType() == Schema.Type.UNION && s.getTypes().size() == 2 ? s.getTypes().get(1) : s;
    }

    private static String typeName(Schema s) {
        Schema t = nonNull(s);
        return CustomAvroSchemas.isJsonText(t) ? "JSON text" : t.getType().getName();
    }
}
