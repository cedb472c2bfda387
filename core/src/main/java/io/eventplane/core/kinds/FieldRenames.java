package io.eventplane.core.kinds;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a kind served under a second group differs on the wire from the stored kind: top-level fields renamed
 * (events.k8s.io/v1 Event's {@code note} is core/v1 Event's {@code message}). Served and stored names map one to one.
 */
public record FieldRenames(Map<String, String> servedToStored) {

    public FieldRenames {
        servedToStored = Map.copyOf(servedToStored);
    }

    public String toStored(String served) {
        return servedToStored.getOrDefault(served, served);
    }

    public String toServed(String stored) {
        for (Map.Entry<String, String> e : servedToStored.entrySet()) {
            if (e.getValue().equals(stored)) {
                return e.getKey();
            }
        }
        return stored;
    }

    /** The served path of a stored field path ({@code involvedObject.name} to {@code regarding.name}). */
    public String servedPath(String storedPath) {
        int end = storedPath.length();
        for (int i = 0; i < storedPath.length(); i++) {
            char c = storedPath.charAt(i);
            if (c == '.' || c == '[') {
                end = i;
                break;
            }
        }
        return toServed(storedPath.substring(0, end)) + storedPath.substring(end);
    }

    static FieldRenames of(String... servedStoredPairs) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < servedStoredPairs.length; i += 2) {
            m.put(servedStoredPairs[i], servedStoredPairs[i + 1]);
        }
        return new FieldRenames(m);
    }
}
