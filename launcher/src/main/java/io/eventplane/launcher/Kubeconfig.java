package io.eventplane.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A kubeconfig for the local cluster: plain HTTP on loopback, no credentials. */
final class Kubeconfig {
    private Kubeconfig() {
    }

    static void write(Path file, String serverUrl) throws IOException {
        String yaml = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: eventplane
                  cluster:
                    server: %s
                users:
                - name: eventplane-admin
                  user: {}
                contexts:
                - name: eventplane
                  context:
                    cluster: eventplane
                    user: eventplane-admin
                    namespace: default
                current-context: eventplane
                """.formatted(serverUrl);
        Files.createDirectories(file.getParent());
        Files.writeString(file, yaml);
    }

    /** The server URL of a kubeconfig written by {@link #write}, or null when there is none. */
    static String server(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        for (String line : Files.readAllLines(file)) {
            String t = line.trim();
            if (t.startsWith("server:")) {
                return t.substring("server:".length()).trim();
            }
        }
        return null;
    }
}
