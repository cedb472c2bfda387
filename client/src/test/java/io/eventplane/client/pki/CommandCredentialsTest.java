package io.eventplane.client.pki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandCredentialsTest {

    @Test
    @DisplayName("issue 23: a command credential proves its identity to the holder of the cluster secret, and no other")
    void issueAndVerify(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("commands.secret");
        CommandCredentials cluster = CommandCredentials.loadOrCreate(file);
        assertEquals(cluster.issue("x"), CommandCredentials.loadOrCreate(file).issue("x"), "read again, not remade");
        assertTrue(Files.readString(file).trim().matches("[0-9a-f]{64}"));

        String scheduler = cluster.issue("system:kube-scheduler");
        assertEquals(Optional.of("system:kube-scheduler"), cluster.verify(scheduler));
        String renamed = scheduler.substring(0, 65) + "system:kube-controller-manager";
        assertEquals(Optional.empty(), cluster.verify(renamed), "the identity is what was signed");
        assertEquals(Optional.empty(), cluster.verify("not a credential"));
        assertEquals(Optional.empty(), CommandCredentials.of(new byte[32]).verify(scheduler), "another cluster's");
    }

    @Test
    @DisplayName("issue 23: a credential covers its own identity; the gateway's every user; node-sim's every node")
    void covers() {
        List<String> nodes = List.of("system:nodes", "system:authenticated");
        assertTrue(CommandCredentials.covers("system:kube-scheduler", "system:kube-scheduler", List.of()));
        assertFalse(CommandCredentials.covers("system:kube-scheduler", "alice", List.of()));
        assertTrue(CommandCredentials.covers(CommandCredentials.APISERVER, "alice", List.of("devs")));
        assertTrue(CommandCredentials.covers(CommandCredentials.NODE_SIM, "system:node:n7", nodes));
        assertFalse(CommandCredentials.covers(CommandCredentials.NODE_SIM, "system:node:n7", List.of()));
        assertFalse(CommandCredentials.covers(CommandCredentials.NODE_SIM, "system:kube-scheduler", List.of()));
        assertFalse(CommandCredentials.covers("system:node:n1", "system:node:n2", nodes));
    }
}
