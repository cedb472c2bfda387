package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.marcnuri.helm.Helm;
import io.eventplane.controllers.ControllerManager;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The chart in helm/eventplane lints clean and renders one Deployment per service with the mains that exist, and one
 * per controller of {@link ControllerManager}: a controller added to the registry and not to the chart fails here.
 */
class HelmChartTest {
    static final Path CHART = Path.of("..", "helm", "eventplane").toAbsolutePath().normalize();

    @Test
    @DisplayName("the Helm chart passes strict lint")
    void lints() {
        var result = new Helm(CHART).lint().strict().call();
        assertTrue(!result.isFailed(), String.join("\n", result.getMessages()));
    }

    @Test
    @DisplayName("the Helm chart renders writer, gateway, scheduler, node-sim and every controller of the registry with their main classes and settings")
    void renders() throws Exception {
        String yaml = new Helm(CHART).template().withName("ep").set("kafka.bootstrap", "kafka:9092")
                .set("nodeSim.nodes", "250").set("nodeSim.replicas", "2").set("nodeSim.pressure", "node-3=memory").call();
        for (String main : new String[] {"io.eventplane.topology.WriterMain", "io.eventplane.gateway.GatewayMain",
                "io.eventplane.scheduler.SchedulerMain", "io.eventplane.nodesim.NodeSimMain",
                "io.eventplane.controllers.ControllerManager"}) {
            assertTrue(yaml.contains(main), main + " missing from\n" + yaml);
            Class.forName(main); // the chart names mains that exist
        }
        assertTrue(yaml.contains("value: \"kafka:9092\""), yaml);
        assertTrue(yaml.contains("value: \"250\""), yaml);
        // every controller of the registry runs as a Deployment of its own, with leader election
        for (ControllerManager.Definition d : ControllerManager.DEFINITIONS) {
            assertTrue(yaml.contains("name: ep-" + d.name() + "-controller\n"), d.name() + " has no Deployment in\n" + yaml);
            assertTrue(yaml.contains("name: EVENTPLANE_CONTROLLERS\n          value: " + d.name() + "\n"),
                    d.name() + " is not selected in\n" + yaml);
        }
        assertTrue(yaml.contains("name: EVENTPLANE_LEADER_ELECT\n          value: \"true\""), yaml);
        assertTrue(yaml.contains("name: EVENTPLANE_TERMINATED_POD_GC_THRESHOLD\n          value: \"12500\""), yaml);
        assertTrue(yaml.contains("path: /readyz"), yaml);
        // node-sim replicas shard the nodes, each known by its pod name
        assertTrue(yaml.contains("name: EVENTPLANE_NODESIM_ID\n          valueFrom:\n            fieldRef:\n              fieldPath: metadata.name"), yaml);
        assertTrue(yaml.contains("name: EVENTPLANE_NODESIM_LEASE_SECONDS\n          value: \"15\""), yaml);
        assertTrue(yaml.contains("name: EVENTPLANE_NODESIM_PRESSURE\n          value: node-3=memory"), yaml);
        // node-sim's run-to-completion defaults (issue 19)
        assertTrue(yaml.contains("name: EVENTPLANE_NODESIM_COMPLETION_RUN\n          value: 10s"), yaml);
        assertTrue(yaml.contains("name: EVENTPLANE_NODESIM_INIT_RUN\n          value: 1s"), yaml);
        assertTrue(yaml.contains("replicas: 2"), yaml);
        assertTrue(Files.exists(CHART.resolve("Chart.yaml")));
    }

    @Test
    @DisplayName("issue 23: with commandCredentials.secretName the writer gets the cluster's command secret and every other "
            + "service its own credential, each a key of the Secret `eventplane credentials` prints")
    void commandCredentials(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        java.io.ByteArrayOutputStream secret = new java.io.ByteArrayOutputStream();
        assertEquals(0, CredentialsCommand.run(Options.parse(new String[] {"--secret-file",
                dir.resolve("commands.secret").toString(), "--name", "ep-creds"}),
                new java.io.PrintStream(secret, true, java.nio.charset.StandardCharsets.UTF_8), new java.io.PrintStream(
                        java.io.OutputStream.nullOutputStream())));
        String manifest = secret.toString(java.nio.charset.StandardCharsets.UTF_8);
        String yaml = new Helm(CHART).template().withName("ep").set("commandCredentials.secretName", "ep-creds").call();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "- name: (EVENTPLANE_COMMAND_\\w+)\n\\s+valueFrom:\n\\s+secretKeyRef: \\{name: \"ep-creds\", key: \"([^\"]+)\"\\}")
                .matcher(yaml);
        java.util.Map<String, String> refs = new java.util.TreeMap<>();
        while (m.find()) {
            refs.put(m.group(2), m.group(1));
            assertTrue(manifest.contains("\n  " + m.group(2) + ": "), m.group(2) + " is no key of\n" + manifest);
        }
        assertEquals("EVENTPLANE_COMMAND_SECRET", refs.get("secret"), yaml);
        for (String service : new String[] {"gateway", "scheduler", "node-sim", "controller-deployment"}) {
            assertEquals("EVENTPLANE_COMMAND_CREDENTIAL", refs.get(service), service + " in\n" + yaml);
        }
        assertEquals(4 + ControllerManager.DEFINITIONS.size(), refs.size(), refs.toString());
        assertFalse(new Helm(CHART).template().withName("ep").call().contains("EVENTPLANE_COMMAND_"),
                "without a Secret, no credentials");
    }
}
