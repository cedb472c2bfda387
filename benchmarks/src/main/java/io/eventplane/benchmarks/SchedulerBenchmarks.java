package io.eventplane.benchmarks;

import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.scheduler.AssumedPods;
import io.eventplane.scheduler.ClusterSnapshot;
import io.eventplane.scheduler.Placement;
import io.eventplane.scheduler.PodInfo;
import io.eventplane.scheduler.SchedulerDecider;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The scheduler's filter and score for one pod over a cluster of {@code nodes} simulated nodes (3 zones) already
 * holding {@code podsPerNode} pods each: a basic pod, and one with a zone topology spread constraint (which counts
 * matching pods per domain), as scheduler_perf's shapes. Decisions only: nothing is bound.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.eventplane", "-Xmx2g"})
public class SchedulerBenchmarks {
    @Param({"5000"})
    int nodes;

    @Param({"10"})
    int podsPerNode;

    private ClusterSnapshot snapshot;
    private PodInfo basic;
    private PodInfo spread;
    private SchedulerDecider decider;
    private final AssumedPods assumed = new AssumedPods(Duration.ofSeconds(30));
    private final Map<String, Pod> assumedInView = new HashMap<>();
    private String[] assumedKeys;
    private int next;
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    @Setup
    public void setUp() {
        List<Node> all = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            all.add(parse(Node.class, """
                    {"apiVersion":"v1","kind":"Node","metadata":{"name":"node-%05d","resourceVersion":"1",
                     "labels":{"kubernetes.io/hostname":"node-%05d","topology.kubernetes.io/zone":"zone-%d"}},
                     "status":{"capacity":{"cpu":"4","memory":"16Gi","pods":"110"},
                      "allocatable":{"cpu":"4","memory":"16Gi","pods":"110"},
                      "conditions":[{"type":"Ready","status":"True"}]}}
                    """.formatted(i, i, i % 3)));
        }
        snapshot = ClusterSnapshot.of(all);
        int n = 0;
        for (int i = 0; i < nodes; i++) {
            for (int k = 0; k < podsPerNode; k++) {
                snapshot.add(String.format("node-%05d", i), PodInfo.of(pod("placed-" + n++, false)));
            }
        }
        basic = PodInfo.of(pod("incoming", false));
        spread = PodInfo.of(pod("incoming-spread", true));
        decider = new SchedulerDecider();
        // a burst's worth of bindings the view does not show yet
        assumedKeys = new String[nodes * 2];
        for (int i = 0; i < assumedKeys.length; i++) {
            Pod p = pod("assumed-" + i, false);
            assumedKeys[i] = "Pod/default/assumed-" + i;
            assumedInView.put(assumedKeys[i], p);
            assumed.assume(new AssumedPods.Assumed(assumedKeys[i], p.getMetadata().getUid(), "node-00001",
                    PodInfo.of(p), T0));
        }
    }

    private static Pod pod(String name, boolean spread) {
        String constraint = spread ? ",\"topologySpreadConstraints\":[{\"maxSkew\":1,\"topologyKey\":"
                + "\"topology.kubernetes.io/zone\",\"whenUnsatisfiable\":\"DoNotSchedule\","
                + "\"labelSelector\":{\"matchLabels\":{\"app\":\"web\"}}}]" : "";
        return parse(Pod.class, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"default\",\"uid\":\"uid-" + name + "\",\"resourceVersion\":\"1\","
                + "\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\","
                + "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"128Mi\"}}}]" + constraint + "}}");
    }

    private static <T extends org.apache.avro.specific.SpecificRecord> T parse(Class<T> type, String json) {
        return KubeJson.get().parseObject(json.getBytes(StandardCharsets.UTF_8), type, FieldValidation.STRICT,
                new ArrayList<>());
    }

    @Benchmark
    public Placement decideBasicPod() {
        return decider.decide(basic, snapshot);
    }

    @Benchmark
    public Placement decideSpreadPod() {
        return decider.decide(spread, snapshot);
    }

    /**
     * The scheduler cycle's bookkeeping with {@code 2 x nodes} assumed pods, one of which the view changed (still
     * unbound): costs what changed, not how many are assumed.
     */
    @Benchmark
    public List<AssumedPods.Assumed> pruneAssumedPods() {
        assumed.changed(assumedKeys[next++ % assumedKeys.length]);
        return assumed.prune(k -> Optional.ofNullable(assumedInView.get(k)), T0.plusSeconds(1));
    }
}
