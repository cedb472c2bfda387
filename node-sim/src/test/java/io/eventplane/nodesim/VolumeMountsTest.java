package io.eventplane.nodesim;

import static io.eventplane.nodesim.ConfigReferencesTest.podWithVolumes;
import static io.eventplane.nodesim.ConfigReferencesTest.volume;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.EventType;
import io.eventplane.model.Container;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Volume;
import io.eventplane.model.VolumeMount;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The volumes set up before a pod's sandbox, the status meanwhile, and the index of pods waiting for objects. */
class VolumeMountsTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");

    private final ConfigReferencesTest.Api api = new ConfigReferencesTest.Api();
    private final VolumeMounts mounts = new VolumeMounts();
    private final List<EventNotice> events = new ArrayList<>();

    private Optional<Instant> setUp(Pod pod, double second) {
        return mounts.setUp(pod, api.view, T0.plusMillis((long) (second * 1000)), events::add);
    }

    @Test
    @DisplayName("POD-6.11 a missing ConfigMap volume: FailedMount with the kubelet's message, retried after 0.5, 1, 2, 4 s "
            + "... up to 2m2s; a look before the retry is due records nothing; once it exists, the volumes are ready")
    void backsOffThenMounts() {
        Pod pod = podWithVolumes(List.of("v"), volume("configMap", "app-config", null, false));

        assertEquals(Optional.of(T0.plusMillis(500)), setUp(pod, 0));
        assertEquals(1, events.size());
        assertEquals(EventType.Warning, events.get(0).type());
        assertEquals("FailedMount", events.get(0).reason());
        assertEquals("MountVolume.SetUp failed for volume \"v\" : configmap \"app-config\" not found",
                events.get(0).message());
        assertEquals("p", events.get(0).involvedObject().getName());

        assertEquals(Optional.of(T0.plusMillis(500)), setUp(pod, 0.2), "not due yet");
        assertEquals(1, events.size());
        assertEquals(Optional.of(T0.plusMillis(1500)), setUp(pod, 0.5));
        assertEquals(Optional.of(T0.plusMillis(3500)), setUp(pod, 1.5));
        assertEquals(3, events.size());

        api.configMap("app-config", "k", "v");
        assertEquals(Optional.empty(), setUp(pod, 2));
        assertEquals(3, events.size());
        assertEquals(List.of(Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(64),
                Duration.ofSeconds(122), Duration.ofSeconds(122)), List.of(VolumeMounts.delay(1), VolumeMounts.delay(2),
                VolumeMounts.delay(3), VolumeMounts.delay(8), VolumeMounts.delay(9), VolumeMounts.delay(20)));
    }

    @Test
    @DisplayName("POD-6.11 one FailedMount per failing volume; optional and present volumes are set up")
    void oneEventPerVolume() {
        api.configMap("present", "k", "v");
        Pod pod = podWithVolumes(List.of("v"), volume("secret", "tls", null, false));
        pod = Pod.newBuilder(pod).setSpec(PodSpec.newBuilder(pod.getSpec()).setVolumes(List.of(
                renamed(volume("secret", "tls", null, false), "certs"),
                renamed(volume("configMap", "present", "k", false), "config"),
                renamed(volume("configMap", "absent", null, true), "extra"),
                renamed(volume("projected.configMap", "present", "nope", false), "bundle")))
                .setContainers(List.of(Container.newBuilder(pod.getSpec().getContainers().get(0))
                        .setVolumeMounts(List.of(mount("certs"), mount("config"), mount("extra"), mount("bundle")))
                        .build())).build()).build();

        assertTrue(setUp(pod, 0).isPresent());

        assertEquals(List.of("MountVolume.SetUp failed for volume \"certs\" : secret \"tls\" not found",
                        "MountVolume.SetUp failed for volume \"bundle\" : configmap references non-existent config key: nope"),
                events.stream().map(EventNotice::message).toList());
    }

    @Test
    @DisplayName("POD-6.11 POD-4.2 waiting for volumes: admitted (startTime, hostIP), no sandbox (no pod IP, "
            + "PodReadyToStartContainers False), containers ContainerCreating; the sandbox comes later with its own time")
    void statusWhileWaiting() {
        Pod bound = PodLifecycleTest.boundPod(PodLifecycleTest.nginx());

        Pod waiting = PodLifecycle.waitingForVolumes(bound, "10.1.0.1", T0);

        PodStatus st = waiting.getStatus();
        assertEquals("Pending", st.getPhase());
        assertEquals("10.1.0.1", st.getHostIP());
        assertEquals(null, st.getPodIP());
        assertEquals(T0, st.getStartTime());
        assertEquals("ContainerCreating", st.getContainerStatuses().get(0).getState().getWaiting().getReason());
        assertEquals("False", condition(waiting, "PodReadyToStartContainers"));
        assertFalse(PodLifecycle.hasSandbox(waiting));
        assertTrue(PodLifecycle.admitted(waiting));
        assertEquals(waiting.getStatus(), PodLifecycle.waitingForVolumes(waiting, "10.1.0.1", T0.plusSeconds(5))
                .getStatus(), "the same status while it waits: nothing to write");

        Pod hostNetwork = Pod.newBuilder(bound).setSpec(PodSpec.newBuilder(bound.getSpec()).setHostNetwork(true).build())
                .build();
        assertFalse(PodLifecycle.hasSandbox(PodLifecycle.waitingForVolumes(hostNetwork, "10.1.0.1", T0)),
                "a hostNetwork pod shows the node's address before its sandbox");

        Pod sandboxed = PodLifecycle.creating(waiting, new PodLifecycle.PodHost("node-1", "10.1.0.1", "10.244.1.7"),
                T0.plusSeconds(30));
        assertTrue(PodLifecycle.hasSandbox(sandboxed));
        assertEquals(T0, sandboxed.getStatus().getStartTime());
        assertEquals(T0.plusSeconds(30), PodLifecycle.sandboxReadyAt(sandboxed), "the containers' history starts here");
    }

    @Test
    @DisplayName("the pods waiting for an object are found by its key alone, and leave the index when they stop waiting")
    void waitIndex() {
        ReferenceWaits waits = new ReferenceWaits();
        waits.waiting("Pod/default/a", Set.of("ConfigMap/default/cm", "Secret/default/s"));
        waits.waiting("Pod/default/b", Set.of("ConfigMap/default/cm"));

        assertEquals(Set.of("Pod/default/a", "Pod/default/b"), waits.waitingOn("ConfigMap/default/cm"));
        assertEquals(Set.of("Pod/default/a"), waits.waitingOn("Secret/default/s"));

        waits.waiting("Pod/default/a", Set.of("Secret/default/s"));
        waits.stop("Pod/default/b");

        assertEquals(Set.of(), waits.waitingOn("ConfigMap/default/cm"));
        assertEquals(Set.of("Pod/default/a"), waits.waitingOn("Secret/default/s"));
    }

    private static Volume renamed(Volume v, String name) {
        return Volume.newBuilder(v).setName(name).build();
    }

    private static VolumeMount mount(String name) {
        return VolumeMount.newBuilder().setName(name).setMountPath("/" + name).build();
    }

    private static String condition(Pod pod, String type) {
        return pod.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
                .orElseThrow().getStatus();
    }
}
