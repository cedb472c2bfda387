package io.eventplane.client;

import io.eventplane.client.pki.CommandCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which credential ({@link CommandCredentials}) this process sends with each command, by the process's settings:
 * {@value #SECRET_FILE} names the cluster's secret, or {@value #SECRET} holds it (a process that runs every service, as {@code eventplane up}
 * does, and the writer): each command gets the credential of its own actor; otherwise {@value #CREDENTIAL_FILE} (or
 * {@value #CREDENTIAL}) holds the one credential of this service (the Helm chart's scheduler, controllers, node-sim,
 * gateway), sent with every command; with neither, commands go without one (a writer that checks refuses them).
 */
public final class CommandSigning {
    public static final String SECRET_FILE = "EVENTPLANE_COMMAND_SECRET_FILE";
    /** The secret itself (hex), e.g. from a Kubernetes Secret (the Helm chart's writer). */
    public static final String SECRET = "EVENTPLANE_COMMAND_SECRET";
    public static final String CREDENTIAL_FILE = "EVENTPLANE_COMMAND_CREDENTIAL_FILE";
    public static final String CREDENTIAL = "EVENTPLANE_COMMAND_CREDENTIAL";
    private static final Map<String, CommandCredentials> SECRETS = new ConcurrentHashMap<>();
    private static final Map<String, String> CREDENTIAL_FILES = new ConcurrentHashMap<>();

    private CommandSigning() {
    }

    /** The cluster's credentials when this process holds its secret (settings read each time: tests change them). */
    public static CommandCredentials secret() {
        String file = EventplaneConfig.setting(SECRET_FILE, "");
        if (!file.isEmpty()) {
            return SECRETS.computeIfAbsent(file, f -> CommandCredentials.read(Path.of(f)));
        }
        String hex = EventplaneConfig.setting(SECRET, "");
        return hex.isEmpty() ? null : SECRETS.computeIfAbsent("hex:" + hex,
                h -> CommandCredentials.of(java.util.HexFormat.of().parseHex(hex.trim())));
    }

    /** The credential to send with a command of {@code actor}, or null. */
    public static String credentialFor(String actor) {
        CommandCredentials all = secret();
        if (all != null) {
            return actor == null ? null : all.issue(actor);
        }
        String file = EventplaneConfig.setting(CREDENTIAL_FILE, "");
        if (!file.isEmpty()) {
            return CREDENTIAL_FILES.computeIfAbsent(file, CommandSigning::readCredential);
        }
        String one = EventplaneConfig.setting(CREDENTIAL, "");
        return one.isEmpty() ? null : one;
    }

    private static String readCredential(String file) {
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the command credential " + file, e);
        }
    }
}
