package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Container;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NodeAdmissionTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");

    private static Pod pod(String name, String cpu) {
        return KubeObjects.pod(name).onNode("node-1").requests(cpu, null).build();
    }

    @Test
    @DisplayName("node admission: a pod that does not fit beside the admitted ones fails with OutOfcpu and the "
            + "kubelet's message")
    void outOfCpu() {
        Pod rejected = NodeAdmission.reject(pod("late", "2"), List.of(pod("a", "1500m"), pod("b", "1")),
                NodeShape.defaults(), T0).orElseThrow();

        assertEquals("Failed", rejected.getStatus().getPhase());
        assertEquals("OutOfcpu", rejected.getStatus().getReason());
        assertEquals("Pod was rejected: Node didn't have enough resource: cpu, requested: 2000, used: 2500, "
                + "capacity: 4000", rejected.getStatus().getMessage());
        assertTrue(NodeAdmission.reject(pod("fits", "1500m"), List.of(pod("a", "1500m"), pod("b", "1")),
                NodeShape.defaults(), T0).isEmpty());
    }

    @Test
    @DisplayName("POD-10.1 POD-10.2 POD-10.6 the request counted is max(apps + sidecars, largest init with the sidecars before it)")
    void effectiveRequest() {
        Container init = Container.newBuilder().setName("i").setImage("x").setResources(ResourceRequirements.newBuilder()
                .setRequests(Map.of("cpu", "2")).build()).build();
        Pod p = pod("p", "500m");
        p = Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setInitContainers(List.of(init)).build()).build();

        assertEquals(2000, NodeAdmission.request(p.getSpec(), "cpu"));
    }

    @Test
    @DisplayName("image rules: patterns with *, missing or a pull duration; bad rules are refused precisely")
    void imageRules() {
        ImageRules rules = ImageRules.parse("nginx:1.161=missing; *big*=45s");

        assertTrue(rules.find("nginx:1.161").orElseThrow().pullDuration() == null);
        assertTrue(rules.find("docker.io/library/nginx:1.161").isPresent());
        assertEquals(Duration.ofSeconds(45), rules.find("example/bigimage:2").orElseThrow().pullDuration());
        assertTrue(rules.find("nginx:1.27").isEmpty());
        assertEquals("image rule \"x=soon\": \"soon\" is not a duration (like 30s, 1m30s, 500ms or 12)",
                assertThrows(IllegalArgumentException.class, () -> ImageRules.parse("x=soon")).getMessage());
    }

    @Test
    @DisplayName("durations: Go style or plain seconds")
    void durations() {
        assertEquals(Duration.ofSeconds(90), PodBehavior.parseDuration("1m30s"));
        assertEquals(Duration.ofMillis(500), PodBehavior.parseDuration("500ms"));
        assertEquals(Duration.ofMillis(2500), PodBehavior.parseDuration("2.5"));
        assertThrows(IllegalArgumentException.class, () -> PodBehavior.parseDuration("10x"));
    }
}
