package io.eventplane.launcher;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * What the load test reads from one line of a pod watch: the event's type and the pod's name, resourceVersion,
 * node and phase. Read with a streaming parser that skips everything else: the load test's own watch shares the
 * process (and its CPU) with the cluster it measures, and a whole JSON tree per event cost it ~4 s of CPU in a
 * 20,000-pod run.
 */
record WatchLine(String type, String name, String resourceVersion, String nodeName, String phase) {
    private static final JsonFactory JSON = new JsonFactory();

    static WatchLine parse(String line) throws IOException {
        String type = "";
        String name = "";
        String rv = "";
        String node = "";
        String phase = "";
        try (JsonParser p = JSON.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a watch event: " + line);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("type") && value == JsonToken.VALUE_STRING) {
                    type = p.getText();
                } else if (field.equals("object") && value == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String section = p.currentName();
                        if (p.nextToken() != JsonToken.START_OBJECT) {
                            p.skipChildren();
                            continue;
                        }
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String f = p.currentName();
                            JsonToken v = p.nextToken();
                            if (v != JsonToken.VALUE_STRING) {
                                p.skipChildren();
                            } else if (section.equals("metadata") && f.equals("name")) {
                                name = p.getText();
                            } else if (section.equals("metadata") && f.equals("resourceVersion")) {
                                rv = p.getText();
                            } else if (section.equals("spec") && f.equals("nodeName")) {
                                node = p.getText();
                            } else if (section.equals("status") && f.equals("phase")) {
                                phase = p.getText();
                            }
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
        return new WatchLine(type, name, rv, node, phase);
    }
}
