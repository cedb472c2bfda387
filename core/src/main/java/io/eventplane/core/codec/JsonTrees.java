package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.fasterxml.jackson.dataformat.yaml.snakeyaml.error.MarkedYAMLException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads one JSON or YAML document into a Jackson tree while remembering duplicate keys (a tree cannot hold them, and
 * Kubernetes' strict decoding reports them). Numbers keep their exact decimal value so quantities keep their spelling.
 */
final class JsonTrees {

    /** The document and, per object node (by identity), the keys that appeared more than once in it. */
    record Parsed(JsonNode root, Map<JsonNode, List<String>> duplicates) {
    }

    private static final JsonFactory JSON = JsonFactory.builder().build();
    /** Plain empty values ({@code labels:}) are null, as in Kubernetes' YAML; quoted empty strings stay strings. */
    private static final YAMLFactory YAML = YAMLFactory.builder().enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL).build();
    private static final Pattern SOURCE = Pattern.compile("\\s*\\(start marker at \\[Source:[^\\]]*\\]\\)|\\s*\\[Source:[^\\]]*\\]");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int MAX_MESSAGE = 200;

    private JsonTrees() {
    }

    /** Parses JSON (input starting with '{' or '[', so JSON errors read as JSON errors) or else YAML; throws {@link DecodeException} with line and column. */
    static Parsed parse(byte[] input) {
        if (looksLikeJson(input)) {
            return read(JSON, input, "JSON");
        }
        return read(YAML, input, "YAML");
    }

    private static boolean looksLikeJson(byte[] input) {
        int i = 0;
        if (input.length >= 3 && (input[0] & 0xff) == 0xEF && (input[1] & 0xff) == 0xBB && (input[2] & 0xff) == 0xBF) {
            i = 3;
        }
        for (; i < input.length; i++) {
            byte b = input[i];
            if (b == ' ' || b == '\t' || b == '\r' || b == '\n') {
                continue;
            }
            return b == '{' || b == '[';
        }
        return false;
    }

    private static Parsed read(JsonFactory factory, byte[] input, String format) {
        try (JsonParser p = factory.createParser(input)) {
            TreeReader reader = new TreeReader(p);
            JsonToken first = p.nextToken();
            if (first == null) {
                throw DecodeException.malformed("empty " + format + " document: expected an object");
            }
            JsonNode root = reader.readValue(first);
            JsonToken next = p.nextToken();
            while (next == JsonToken.VALUE_NULL) {
                next = p.nextToken(); // an empty YAML document, e.g. after a trailing "---"
            }
            if (next != null) {
                throw DecodeException.malformed(format.equals("YAML")
                        ? "expected a single YAML document, found several (line " + p.currentTokenLocation().getLineNr() + ")"
                        : "unexpected data after the JSON object at line " + p.currentTokenLocation().getLineNr()
                          + ", column " + p.currentTokenLocation().getColumnNr());
            }
            return new Parsed(root, reader.duplicates);
        } catch (JsonProcessingException e) {
            throw DecodeException.malformed(describe(format, e));
        } catch (IOException | RuntimeException e) {
            if (e instanceof DecodeException d) {
                throw d;
            }
            throw DecodeException.malformed("malformed " + format + ": " + firstLine(e.getMessage()));
        }
    }

    /** Builds the tree for one document; for YAML also resolves anchors, aliases and merge keys as Kubernetes' YAML does. */
    private static final class TreeReader {
        /** Nodes that aliases may copy into one document: enough for any manifest, too few for an alias bomb. */
        private static final int ALIAS_NODE_BUDGET = 100_000;

        private final JsonParser p;
        private final YAMLParser yaml;
        private final Map<JsonNode, List<String>> duplicates = new IdentityHashMap<>();
        private final Map<String, JsonNode> anchors = new HashMap<>();
        private int aliasBudget = ALIAS_NODE_BUDGET;

        TreeReader(JsonParser p) {
            this.p = p;
            this.yaml = p instanceof YAMLParser y ? y : null;
        }

        JsonNode readValue(JsonToken t) throws IOException {
            if (yaml != null && yaml.isCurrentAlias()) {
                return alias(yaml.getText());
            }
            String anchor = yaml == null ? null : yaml.getCurrentAnchor();
            JsonNode node = readPlain(t);
            if (anchor != null) {
                anchors.put(anchor, node);
            }
            return node;
        }

        private JsonNode alias(String name) {
            JsonNode target = anchors.get(name);
            if (target == null) {
                throw DecodeException.malformed("malformed YAML at line " + p.currentTokenLocation().getLineNr()
                        + ": unknown alias \"*" + name + "\"");
            }
            aliasBudget -= size(target);
            if (aliasBudget < 0) {
                throw DecodeException.malformed("malformed YAML: aliases expand to too many nodes");
            }
            return target.deepCopy();
        }

        private int size(JsonNode node) {
            int n = 1;
            for (JsonNode child : node) {
                n += size(child);
                if (n > aliasBudget) {
                    break;
                }
            }
            return n;
        }

        private JsonNode readPlain(JsonToken t) throws IOException {
            switch (t) {
                case START_OBJECT: {
                    ObjectNode node = NODES.objectNode();
                    List<JsonNode> merges = null;
                    for (JsonToken f = p.nextToken(); f == JsonToken.FIELD_NAME; f = p.nextToken()) {
                        String name = p.currentName();
                        JsonNode value = readValue(p.nextToken());
                        if (yaml != null && name.equals("<<")) {
                            (merges == null ? merges = new ArrayList<>() : merges).add(value);
                            continue;
                        }
                        if (node.has(name)) {
                            duplicates.computeIfAbsent(node, k -> new ArrayList<>()).add(name);
                        }
                        node.set(name, value); // last one wins, as in Kubernetes' non-strict decoding
                    }
                    if (merges != null) {
                        merge(node, merges);
                    }
                    return node;
                }
                case START_ARRAY: {
                    ArrayNode node = NODES.arrayNode();
                    for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                        node.add(readValue(e));
                    }
                    return node;
                }
                case VALUE_STRING:
                    return TextNode.valueOf(p.getText());
                case VALUE_NUMBER_INT:
                    return switch (p.getNumberType()) {
                        case INT -> IntNode.valueOf(p.getIntValue());
                        case LONG -> LongNode.valueOf(p.getLongValue());
                        default -> BigIntegerNode.valueOf(p.getBigIntegerValue());
                    };
                case VALUE_NUMBER_FLOAT:
                    try {
                        return DecimalNode.valueOf(p.getDecimalValue());
                    } catch (NumberFormatException e) {
                        return DoubleNode.valueOf(p.getDoubleValue()); // YAML .inf / .nan
                    }
                case VALUE_TRUE:
                    return BooleanNode.TRUE;
                case VALUE_FALSE:
                    return BooleanNode.FALSE;
                case VALUE_NULL:
                    return NullNode.getInstance();
                default:
                    // YAML binary (!!binary) and other embedded values: keep their text; the schema decides.
                    return TextNode.valueOf(p.getText());
            }
        }

        /** YAML merge keys ({@code <<: *base} or a list of them): merged keys never override the mapping's own. */
        private void merge(ObjectNode node, List<JsonNode> merges) {
            for (JsonNode m : merges) {
                for (JsonNode source : m.isArray() ? m : List.of(m)) {
                    if (!source.isObject()) {
                        throw DecodeException.malformed("malformed YAML: a merge key (<<) needs a mapping or a list of mappings");
                    }
                    source.fields().forEachRemaining(e -> {
                        if (!node.has(e.getKey())) {
                            node.set(e.getKey(), e.getValue());
                        }
                    });
                }
            }
        }
    }

    private static String describe(String format, JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 0 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        String problem = e instanceof MarkedYAMLException y && y.getProblem() != null ? y.getProblem() : e.getOriginalMessage();
        // Jackson appends "(start marker at [Source: ...; line: 1, column: 14])" to some messages: the location is ours.
        problem = problem == null ? null : SOURCE.matcher(problem).replaceAll("");
        return "malformed " + format + where + ": " + firstLine(problem);
    }

    /** Parser messages can carry source excerpts and carets over several lines; a client needs the first one. */
    private static String firstLine(String message) {
        if (message == null || message.isBlank()) {
            return "unreadable input";
        }
        String line = message.strip().lines().findFirst().orElse("").strip();
        return line.length() > MAX_MESSAGE ? line.substring(0, MAX_MESSAGE) + "..." : line;
    }
}
