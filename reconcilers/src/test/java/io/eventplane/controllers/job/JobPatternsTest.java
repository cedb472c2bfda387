package io.eventplane.controllers.job;

import static io.eventplane.controllers.job.JobFixtures.active;
import static io.eventplane.controllers.job.JobFixtures.condition;
import static io.eventplane.controllers.job.JobFixtures.exitAfter;
import static io.eventplane.controllers.job.JobFixtures.finished;
import static io.eventplane.controllers.job.JobFixtures.n;
import static io.eventplane.controllers.job.JobFixtures.pods;
import static io.eventplane.controllers.job.JobFixtures.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.Container;
import io.eventplane.model.Job;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The Job patterns of workloads.md §5.6 (JOB-28, JOB-29), each with the settings the pattern table gives, run in a
 * simulated cluster on a virtual clock.
 */
class JobPatternsTest {
    private final SimulatedCluster cluster = new SimulatedCluster();

    @Test
    @DisplayName("JOB-28 Job Template Expansion: one Job per work item from one template, completions 1 and "
            + "parallelism 1 each; every Job completes on its own with one pod")
    void templateExpansion() {
        exitAfter(cluster, 4, 0);
        List<String> items = List.of("apple", "banana", "cherry");
        for (String item : items) {
            Job job = JobFixtures.job("process-item-" + item, "Never", s -> s.setCompletions(1).setParallelism(1));
            job.getSpec().getTemplate().setMetadata(ObjectMeta.newBuilder()
                    .setLabels(new HashMap<>(Map.of("jobgroup", "jobexample"))).build());
            assertTrue(cluster.create(job).getAccepted(), item);
        }
        cluster.until(() -> items.stream().allMatch(i -> finished(cluster, "process-item-" + i)), 60);
        for (String item : items) {
            String name = "process-item-" + item;
            assertNotNull(condition(cluster, name, "Complete"), name);
            assertEquals(1, pods(cluster, name).size(), name);
            assertEquals("jobexample", pods(cluster, name).get(0).getMetadata().getLabels().get("jobgroup"));
        }
    }

    @Test
    @DisplayName("JOB-28 Queue with Pod Per Work Item: completions W=6 and parallelism 2 in one Job: 6 pods succeed, "
            + "never more than 2 at once")
    void podPerWorkItem() {
        exitAfter(cluster, 3, 0);
        List<Long> actives = new ArrayList<>();
        cluster.invariant(c -> {
            if (c.get(Job.class, "queue") != null) {
                actives.add(active(c, "queue"));
            }
        });
        cluster.create(JobFixtures.job("queue", "Never", s -> s.setCompletions(6).setParallelism(2)));
        cluster.until(() -> finished(cluster, "queue"), 120);
        assertNotNull(condition(cluster, "queue", "Complete"));
        assertEquals(6, n(status(cluster, "queue").getSucceeded()));
        assertEquals(6, pods(cluster, "queue").size(), "fewer pods than work items is not this pattern");
        assertEquals(2, actives.stream().mapToLong(Long::longValue).max().orElse(0));
    }

    @Test
    @DisplayName("JOB-28 Queue with Variable Pod Count: completions unset (the table's 1: one success ends the Job) "
            + "and parallelism 4: fewer pods than work items; the Job completes once one pod succeeded and all ended")
    void variablePodCount() {
        // the pods share 10 work items; the first to finish the queue exits 0, the others see it empty after it
        List<String> order = new ArrayList<>();
        cluster.exits = p -> {
            if (!order.contains(p.getMetadata().getName())) {
                order.add(p.getMetadata().getName());
            }
            return new SimulatedCluster.Exit(Duration.ofSeconds(5 + 2L * order.indexOf(p.getMetadata().getName())), 0);
        };
        cluster.create(JobFixtures.job("variable", "Never", s -> s.setParallelism(4)));
        cluster.until(() -> finished(cluster, "variable"), 60);
        assertNotNull(condition(cluster, "variable", "Complete"));
        assertEquals(4, pods(cluster, "variable").size(), "4 pods for 10 work items");
        assertEquals(4, n(status(cluster, "variable").getSucceeded()));
    }

    @Test
    @DisplayName("JOB-28 Single Job with Static Work Assignment: Indexed, completions W=4, parallelism 2: each pod "
            + "gets its own index, each index succeeds once")
    void staticWorkAssignment() {
        exitAfter(cluster, 3, 0);
        cluster.create(JobFixtures.job("static", "Never",
                s -> s.setCompletions(4).setParallelism(2).setCompletionMode("Indexed")));
        cluster.until(() -> finished(cluster, "static"), 60);
        assertNotNull(condition(cluster, "static", "Complete"));
        TreeSet<String> indexes = new TreeSet<>();
        for (Pod p : pods(cluster, "static")) {
            assertEquals("Succeeded", PodStates.phase(p));
            indexes.add(p.getMetadata().getAnnotations().get("batch.kubernetes.io/job-completion-index"));
        }
        assertEquals(new TreeSet<>(List.of("0", "1", "2", "3")), indexes);
        assertEquals(4, pods(cluster, "static").size(), "one pod per index when none fails");
        assertEquals("0-3", status(cluster, "static").getCompletedIndexes());
    }

    @Test
    @DisplayName("JOB-29 a controller pod that starts pods of its own: the Job tracks only its pod; it completes "
            + "when that pod does, while the workers it started keep running, neither counted nor deleted")
    void controllerPod() {
        cluster.exits = p -> p.getMetadata().getName().startsWith("worker-")
                ? new SimulatedCluster.Exit(Duration.ofHours(1), 0)
                : new SimulatedCluster.Exit(Duration.ofSeconds(20), 0);
        cluster.create(JobFixtures.job("spark", "Never", s -> { }));
        cluster.until(() -> active(cluster, "spark") == 1, 10);
        // what the controller pod does: create worker pods labelled by itself, not owned by the Job
        for (int i = 0; i < 3; i++) {
            Pod worker = Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("worker-" + i)
                    .setNamespace("default").setLabels(Map.of("app", "spark-worker")).build())
                    .setSpec(PodSpec.newBuilder().setRestartPolicy("Never").setContainers(List.of(Container.newBuilder()
                            .setName("w").setImage("spark:3.5").build())).build()).build();
            assertTrue(cluster.create(worker).getAccepted());
        }
        cluster.until(() -> finished(cluster, "spark"), 60);
        assertNotNull(condition(cluster, "spark", "Complete"));
        assertEquals(1, n(status(cluster, "spark").getSucceeded()), "only the controller pod counts");
        assertEquals(1, pods(cluster, "spark").size());
        for (int i = 0; i < 3; i++) {
            Pod worker = cluster.get(Pod.class, "worker-" + i);
            assertNotNull(worker, "the Job does not clean up pods it did not create");
            assertEquals("Running", PodStates.phase(worker));
        }
    }
}
