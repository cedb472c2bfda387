package io.eventplane.launcher;

import io.eventplane.client.ServiceIdentities;
import io.eventplane.client.pki.CommandCredentials;
import io.eventplane.controllers.ControllerManager;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code eventplane credentials}: the Kubernetes Secret the Helm chart's {@code commandCredentials.secretName} names,
 * from the cluster's command secret (made in the file when missing): the secret itself for the writer, and each
 * service's own credential ({@link CommandCredentials}).
 */
final class CredentialsCommand {
    private CredentialsCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) {
        Path file = Path.of(options.get("secret-file", Path.of(options.get("data-dir", ".eventplane"), "pki",
                LocalCluster.COMMAND_SECRET).toString()));
        CommandCredentials cluster = CommandCredentials.loadOrCreate(file);
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("secret", read(file));
        keys.put("gateway", cluster.issue(CommandCredentials.APISERVER));
        keys.put("scheduler", cluster.issue(ServiceIdentities.SCHEDULER));
        keys.put("node-sim", cluster.issue(CommandCredentials.NODE_SIM));
        for (ControllerManager.Definition d : ControllerManager.DEFINITIONS) {
            keys.put("controller-" + d.name(), cluster.issue(ServiceIdentities.controller(d.actor()).name()));
        }
        out.println("apiVersion: v1");
        out.println("kind: Secret");
        out.println("metadata:");
        out.println("  name: " + options.get("name", "eventplane-command-credentials"));
        out.println("type: Opaque");
        out.println("data:");
        Base64.Encoder b64 = Base64.getEncoder();
        keys.forEach((k, v) -> out.println("  " + k + ": " + b64.encodeToString(v.getBytes(
                java.nio.charset.StandardCharsets.UTF_8))));
        err.println("eventplane credentials: from " + file + "; keep it secret (the writer's key is in it)");
        return 0;
    }

    private static String read(Path file) {
        try {
            return java.nio.file.Files.readString(file).trim();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
