package io.eventplane.controllers.job;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.Container;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/** The seed's Job examples as a user sends them, and what tests read off a Job. */
final class JobFixtures {
    private JobFixtures() {
    }

    /** The seed's pi Job (corrected, D8): perl computing pi, restartPolicy Never, backoffLimit 4. */
    static Job pi() {
        return job("pi", "Never", s -> s.setBackoffLimit(4));
    }

    static Job job(String name, String restartPolicy, Consumer<JobSpec.Builder> spec) {
        Container c = Container.newBuilder().setName("pi").setImage("perl:5.34.0")
                .setCommand(List.of("perl", "-Mbignum=bpi", "-wle", "print bpi(2000)")).build();
        JobSpec.Builder b = JobSpec.newBuilder().setTemplate(PodTemplateSpec.newBuilder()
                .setSpec(PodSpec.newBuilder().setContainers(List.of(c)).setRestartPolicy(restartPolicy).build()).build());
        spec.accept(b);
        return Job.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setSpec(b.build()).build();
    }

    /** Every pod exits with {@code code} {@code seconds} after it started. */
    static void exitAfter(SimulatedCluster cluster, int seconds, int code) {
        cluster.exits = p -> new SimulatedCluster.Exit(Duration.ofSeconds(seconds), code);
    }

    static JobStatus status(SimulatedCluster cluster, String job) {
        JobStatus s = cluster.get(Job.class, job).getStatus();
        return s == null ? new JobStatus() : s;
    }

    static int n(Integer i) {
        return i == null ? 0 : i;
    }

    /** The condition of {@code type} that is True, or null. */
    static JobCondition condition(SimulatedCluster cluster, String job, String type) {
        Job j = cluster.get(Job.class, job);
        return j == null ? null : JobConditions.findTrue(j, type).orElse(null);
    }

    static boolean finished(SimulatedCluster cluster, String job) {
        Job j = cluster.get(Job.class, job);
        return j != null && JobConditions.isFinished(j);
    }

    /** The Job's pods (controlled by it), by creation time (then name). */
    static List<Pod> pods(SimulatedCluster cluster, String job) {
        Job j = cluster.get(Job.class, job);
        return cluster.list(Pod.class).stream().filter(p -> Owners.isControlledBy(p.getMetadata(), j.getMetadata().getUid()))
                .sorted(java.util.Comparator.comparing((Pod p) -> p.getMetadata().getCreationTimestamp())
                        .thenComparing(p -> p.getMetadata().getName()))
                .toList();
    }

    static long active(SimulatedCluster cluster, String job) {
        return pods(cluster, job).stream().filter(PodStates::isActive).count();
    }

    static long inPhase(SimulatedCluster cluster, String job, String phase) {
        return pods(cluster, job).stream().filter(p -> phase.equals(PodStates.phase(p))).count();
    }
}
