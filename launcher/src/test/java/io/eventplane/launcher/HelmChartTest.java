package io.eventplane.launcher;

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
}
