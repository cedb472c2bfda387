package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WatchLineTest {
    @Test
    @DisplayName("loadtest: a watch line's type, name, resourceVersion, node and phase, the rest skipped")
    void readsWhatTheLoadTestNeeds() throws Exception {
        WatchLine e = WatchLine.parse("{\"type\":\"MODIFIED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
                + "\"metadata\":{\"labels\":{\"name\":\"not-this\"},\"name\":\"load-000001\",\"namespace\":\"loadtest\","
                + "\"resourceVersion\":\"42\",\"ownerReferences\":[{\"name\":\"rs\"}]},"
                + "\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx\"}],\"nodeName\":\"node-7\"},"
                + "\"status\":{\"conditions\":[{\"type\":\"Ready\"}],\"phase\":\"Running\"}}}");
        assertEquals(new WatchLine("MODIFIED", "load-000001", "42", "node-7", "Running"), e);
    }

    @Test
    @DisplayName("loadtest: a bookmark carries only its resourceVersion; a pending pod has no node yet")
    void bookmarkAndPending() throws Exception {
        assertEquals(new WatchLine("BOOKMARK", "", "77", "", ""), WatchLine.parse(
                "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"resourceVersion\":\"77\"}}}"));
        assertEquals(new WatchLine("ADDED", "p", "5", "", "Pending"), WatchLine.parse(
                "{\"object\":{\"metadata\":{\"name\":\"p\",\"resourceVersion\":\"5\"},\"spec\":{},"
                        + "\"status\":{\"phase\":\"Pending\"}},\"type\":\"ADDED\"}"));
    }
}
