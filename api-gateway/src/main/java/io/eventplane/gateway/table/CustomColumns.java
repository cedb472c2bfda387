package io.eventplane.gateway.table;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.kinds.CustomKinds.CustomKind;
import io.eventplane.gateway.wire.Json;
import io.eventplane.model.apiextensions.CustomResourceColumnDefinition;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * A custom kind's columns: NAME, then its version's additionalPrinterColumns (each a simple JSONPath into the
 * object), or AGE when it declares none, as kube-apiserver's table convertor for custom resources does. Date
 * columns print as ages.
 */
final class CustomColumns implements Columns {
    private final CustomKind kind;
    private final List<CustomResourceColumnDefinition> definitions;

    CustomColumns(CustomKind kind) {
        this.kind = kind;
        List<CustomResourceColumnDefinition> d = kind.version().getAdditionalPrinterColumns();
        this.definitions = d == null ? List.of() : d;
    }

    @Override
    public List<Column> columns() {
        List<Column> out = new ArrayList<>();
        out.add(Column.nameColumn());
        if (definitions.isEmpty()) {
            out.add(Column.ageColumn());
        }
        for (CustomResourceColumnDefinition c : definitions) {
            out.add(new Column(c.getName(), c.getType(), c.getFormat() == null ? "" : c.getFormat(),
                    c.getDescription() == null ? "" : c.getDescription(), c.getPriority() == null ? 0 : c.getPriority()));
        }
        return out;
    }

    @Override
    public List<Object> cells(SpecificRecord object, Instant now) {
        JsonNode json = Json.encodeObject(kind.info(), object);
        List<Object> cells = new ArrayList<>();
        cells.add(json.path("metadata").path("name").asText());
        if (definitions.isEmpty()) {
            cells.add(KindColumns.age(object, now));
        }
        for (CustomResourceColumnDefinition c : definitions) {
            cells.add(cell(at(json, c.getJsonPath()), c.getType(), now));
        }
        return cells;
    }

    private static Object cell(JsonNode value, String type, Instant now) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return null;
        }
        switch (type) {
            case "integer" -> {
                return value.isNumber() ? (Object) value.longValue() : value.asText();
            }
            case "number" -> {
                return value.isNumber() ? value.asText() : value.asText();
            }
            case "boolean" -> {
                return value.isBoolean() ? value.booleanValue() : value.asText();
            }
            case "date" -> {
                try {
                    return Ages.since(Instant.parse(value.asText()), now);
                } catch (DateTimeParseException e) {
                    return value.asText();
                }
            }
            default -> {
                return value.isValueNode() ? value.asText() : value.toString();
            }
        }
    }

    /** The value at a simple JSONPath ({@code .spec.replicas}, {@code .status.conditions[0].type}), or null. */
    static JsonNode at(JsonNode root, String path) {
        if (path == null) {
            return null;
        }
        String p = path.trim();
        if (p.startsWith("{") && p.endsWith("}")) {
            p = p.substring(1, p.length() - 1);
        }
        JsonNode node = root;
        for (String step : p.split("\\.")) {
            if (step.isEmpty()) {
                continue;
            }
            int bracket = step.indexOf('[');
            String field = bracket < 0 ? step : step.substring(0, bracket);
            node = field.isEmpty() ? node : node.path(field);
            while (bracket >= 0) {
                int close = step.indexOf(']', bracket);
                if (close < 0) {
                    return null;
                }
                String index = step.substring(bracket + 1, close);
                try {
                    node = node.path(Integer.parseInt(index));
                } catch (NumberFormatException e) {
                    return null;
                }
                bracket = step.indexOf('[', close);
            }
        }
        return node;
    }
}
