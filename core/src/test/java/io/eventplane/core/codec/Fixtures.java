package io.eventplane.core.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Test fixtures from src/test/resources/examples and tree helpers. */
final class Fixtures {
    static final ObjectMapper JSON = new ObjectMapper();
    static final YAMLMapper YAML = new YAMLMapper();

    private Fixtures() {
    }

    static byte[] bytes(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/examples/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The documents of a multi-document YAML file, as separate texts. */
    static List<String> documents(String name) {
        List<String> docs = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : new String(bytes(name), StandardCharsets.UTF_8).split("\n", -1)) {
            if (line.strip().equals("---")) {
                docs.add(current.toString());
                current.setLength(0);
            } else {
                current.append(line).append('\n');
            }
        }
        docs.add(current.toString());
        return docs;
    }

    static JsonNode yamlTree(String yaml) {
        try {
            return normalize(YAML.readTree(yaml));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Same text, same node types: numbers parsed from YAML and built by the encoder compare equal. */
    static JsonNode normalize(JsonNode node) {
        try {
            return JSON.readTree(JSON.writeValueAsString(node));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
