package io.eventplane.gateway.discovery;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.gateway.wire.Json;

/**
 * {@code /version}: we serve the Kubernetes 1.32 API. The kubectl on PATH is a dispatcher that runs
 * {@code kubectl.1.<minor>} from this answer, so minor must be a version that is installed (1.27-1.33).
 */
public final class VersionInfo {
    public static final String GIT_VERSION = "v1.32.5";

    private VersionInfo() {
    }

    public static ObjectNode json() {
        ObjectNode n = Json.object();
        n.put("major", "1");
        n.put("minor", "32");
        n.put("gitVersion", GIT_VERSION);
        n.put("gitCommit", "eventplane");
        n.put("gitTreeState", "clean");
        n.put("buildDate", "2025-05-15T00:00:00Z");
        n.put("goVersion", "go1.23.8");
        n.put("compiler", "gc");
        n.put("platform", "linux/amd64");
        return n;
    }
}
