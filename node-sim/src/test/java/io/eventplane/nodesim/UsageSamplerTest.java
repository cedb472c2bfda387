package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.testkit.objects.KubeObjects;
import io.eventplane.usage.NodeUsage;
import io.eventplane.usage.PodUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The kubelets' resource metrics over a view: loads shared by Ready pods, node totals, OOM kills from loads. */
class UsageSamplerTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    private final ObjectStore view = new ObjectStore();
    private final Map<String, PodRun> runs = new HashMap<>();
    private final List<String> killed = new ArrayList<>();
    private long position;

    private final UsageSampler.Runs kubelet = new UsageSampler.Runs() {
        @Override
        public Optional<PodRun> runOf(String podUid) {
            return Optional.ofNullable(runs.get(podUid));
        }

        @Override
        public void oomKill(String podKey, String container, Instant now) {
            killed.add(podKey + ":" + container);
        }
    };

    private final UsageSampler sampler = new UsageSampler(view, kubelet, Duration.ofSeconds(15),
            new UsageRules.SystemUse(0.1, 256.0 * 1024 * 1024));

    private void put(String kind, SpecificRecord object) {
        var m = ObjectAccess.meta(object);
        position++;
        view.apply(ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("t").setRequestId("r" + position).setTime(T0).build())
                .setType(ChangeType.CREATED).setKind(kind).setNamespace(m.getNamespace() == null ? "" : m.getNamespace())
                .setName(m.getName()).setUid(m.getUid()).setResourceVersion(position).setObject(object).build());
    }

    /** A pod of {@code owner} on node-1, running since T0, Ready or not. */
    private Pod pod(String name, SpecificRecord owner, boolean ready, Map<String, String> annotations, String memoryLimit) {
        var container = KubeObjects.container("app").image("nginx").imagePullPolicy("Never");
        if (memoryLimit != null) {
            container.requests("100m", "64Mi").limits("1", memoryLimit);
        }
        var builder = KubeObjects.pod(name).uid("uid-" + name).annotations(new HashMap<>(annotations)).onNode("node-1")
                .containers(container.build()).running()
                .condition(PodCondition.newBuilder().setType("Ready").setStatus(ready ? "True" : "False")
                        .setLastTransitionTime(T0).build());
        Pod p = (owner == null ? builder : builder.controlledBy(owner)).build();
        Pod sandboxed = PodLifecycle.creating(p, new PodLifecycle.PodHost("node-1", "10.1.0.1", "10.244.1." + position), T0);
        PodRun run = PodRun.start(sandboxed, PodRunHarness.CONFIG, new HashSet<>(), T0);
        run.advanceTo(sandboxed, T0.plusSeconds(1));
        runs.put(p.getMetadata().getUid(), run);
        put(Kinds.POD.kind(), p);
        return p;
    }

    private static double cpuOf(NodeUsage n, String pod) {
        PodUsage p = n.getPods().stream().filter(x -> x.getName().equals(pod)).findFirst().orElseThrow();
        return p.getContainers().get(0).getCpuNanocores() / 1e9;
    }

    @Test
    @DisplayName("a Deployment's cpu-load is shared by its Ready pods; an unready pod gets none; the node adds its system use")
    void sharedLoad() {
        var deployment = KubeObjects.deployment("web").uid("uid-web").createdAt(T0)
                .annotations(PodBehavior.PREFIX + "cpu-load", "ramp(0, 1200m, 60s)").build();
        put(Kinds.DEPLOYMENT.kind(), deployment);
        var rs = KubeObjects.replicaSet("web-1").uid("uid-rs").createdAt(T0.plusSeconds(30)).controlledBy(deployment)
                .build();
        put(Kinds.REPLICA_SET.kind(), rs);
        List<Pod> pods = List.of(pod("web-1-a", rs, true, Map.of(), null), pod("web-1-b", rs, true, Map.of(), null),
                pod("web-1-c", rs, true, Map.of(), null), pod("web-1-d", rs, false, Map.of(), null));

        NodeUsage n = sampler.sample(Map.of("node-1", pods), T0.plusSeconds(60)).get(0);

        assertEquals(0.4, cpuOf(n, "web-1-a"), 1e-6);
        assertEquals(0.4, cpuOf(n, "web-1-c"), 1e-6);
        assertEquals(0.0, cpuOf(n, "web-1-d"), 1e-6);
        assertEquals(1.3, n.getCpuNanocores() / 1e9, 1e-6);
        assertEquals(T0.plusSeconds(60), n.getTime());
        assertEquals(15_000, n.getWindowMillis());
    }

    @Test
    @DisplayName("scaling the workload up lowers each pod's share")
    void scalingLowersTheShare() {
        var rs = KubeObjects.replicaSet("frontend").uid("uid-fe").createdAt(T0)
                .annotations(PodBehavior.PREFIX + "cpu-load", "900m").build();
        put(Kinds.REPLICA_SET.kind(), rs);
        List<Pod> pods = new ArrayList<>(List.of(pod("fe-a", rs, true, Map.of(), null)));
        assertEquals(0.9, cpuOf(sampler.sample(Map.of("node-1", pods), T0.plusSeconds(5)).get(0), "fe-a"), 1e-6);

        pods.add(pod("fe-b", rs, true, Map.of(), null));
        pods.add(pod("fe-c", rs, true, Map.of(), null));

        assertEquals(0.3, cpuOf(sampler.sample(Map.of("node-1", pods), T0.plusSeconds(20)).get(0), "fe-a"), 1e-6);
    }

    @Test
    @DisplayName("a pod template's load applies when the workload declares none; a pod without controller is its own workload")
    void templateLoad() {
        Pod lone = pod("lone", null, true, Map.of(PodBehavior.PREFIX + "cpu-load", "250m"), null);

        assertEquals(0.25, cpuOf(sampler.sample(Map.of("node-1", List.of(lone)), T0.plusSeconds(5)).get(0), "lone"), 1e-6);
    }

    @Test
    @DisplayName("a memory load that takes a container above its limit OOM-kills it")
    void memoryLoadAboveLimit() {
        var rs = KubeObjects.replicaSet("cache").uid("uid-cache").createdAt(T0)
                .annotations(PodBehavior.PREFIX + "memory-load", "400Mi").build();
        put(Kinds.REPLICA_SET.kind(), rs);
        List<Pod> pods = List.of(pod("cache-a", rs, true, Map.of(), "512Mi"), pod("cache-b", rs, true, Map.of(), "128Mi"));

        sampler.sample(Map.of("node-1", pods), T0.plusSeconds(5));

        assertEquals(List.of(Keys.of("Pod", "default", "cache-b") + ":app"), killed);
    }

    @Test
    @DisplayName("a load that cannot be read is ignored")
    void unreadableLoad() {
        var rs = KubeObjects.replicaSet("x").uid("uid-x").createdAt(T0)
                .annotations(PodBehavior.PREFIX + "cpu-load", "much").build();
        put(Kinds.REPLICA_SET.kind(), rs);
        Pod p = pod("x-a", rs, true, Map.of(), null);

        NodeUsage n = sampler.sample(Map.of("node-1", List.of(p)), T0.plusSeconds(5)).get(0);

        assertEquals(0.0, cpuOf(n, "x-a"));
        assertTrue(n.getMemoryBytes() >= 256L * 1024 * 1024);
    }
}
