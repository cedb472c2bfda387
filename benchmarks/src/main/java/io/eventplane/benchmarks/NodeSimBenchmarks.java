package io.eventplane.benchmarks;

import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.model.Pod;
import io.eventplane.model.PodStatus;
import io.eventplane.nodesim.KubeletConfig;
import io.eventplane.nodesim.PodLifecycle;
import io.eventplane.nodesim.PodRun;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * node-sim's evaluation of one pod (what the kubelet loop does for every change of a pod on its node): advance the
 * pod's run to now, compute its status and compare it with the stored one; and the status update it then sends,
 * slimmed to identity and status.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.eventplane", "-Xmx1g"})
public class NodeSimBenchmarks {
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private PodRun run;
    private Pod running;
    private Instant now;

    @Setup
    public void setUp() {
        Pod pod = KubeJson.get().parseObject(HotPathBenchmarks.RUNNING_POD.getBytes(StandardCharsets.UTF_8), Pod.class,
                FieldValidation.STRICT, new ArrayList<>());
        pod.setStatus(null);
        Pod sandboxed = PodLifecycle.creating(pod, new PodLifecycle.PodHost("node-17", "10.1.0.17", "10.244.3.9"), T0);
        run = PodRun.start(sandboxed, KubeletConfig.defaults(), new HashSet<>(), T0);
        now = T0.plusSeconds(120);
        run.advanceTo(sandboxed, now);
        running = ObjectAccess.with(sandboxed, "status", run.status(sandboxed));
        run.takeEvents();
    }

    /** A pod whose run has nothing new: evaluated, found unchanged (the common case on a status echo). */
    @Benchmark
    public boolean evaluateUnchangedPod() {
        run.advanceTo(running, now);
        PodStatus next = run.status(running);
        return next.equals(running.getStatus());
    }

    @Benchmark
    public Pod statusOnlyUpdate() {
        return ObjectAccess.statusOnly(running);
    }
}
