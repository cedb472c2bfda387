package io.eventplane.launcher;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.TopicSetup;
import io.eventplane.controllers.ControllerManager;
import io.eventplane.controllers.job.JobConditions;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Container;
import io.eventplane.model.Job;
import io.eventplane.model.JobSpec;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.nodesim.NodeShape;
import io.eventplane.nodesim.NodeSimulator;
import io.eventplane.reconcile.Controller;
import io.eventplane.reconcile.ControllerRuntime;
import io.eventplane.scheduler.Scheduler;
import io.eventplane.schemas.Topics;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code eventplane bench jobs}: the whole control loop (writer, scheduler, simulated nodes, the job controller) on
 * fresh topics. Creates N Jobs of M completions each at once and reports the time until every Job is Complete, with
 * the pods per second that took: each pod created, scheduled, run (its program runs for {@code run} seconds, declared
 * with {@code sim.eventplane.io/run-duration}), finished, counted through the tracking finalizer and removed from it.
 */
final class JobBench {
    private JobBench() {
    }

    static void run(EventplaneConfig base, Path work, int jobs, int completions, int parallelism, int nodes,
                    double runSeconds, PrintStream out) throws Exception {
        EventplaneConfig config = new EventplaneConfig(base.bootstrapServers(), base.registryUrl(),
                new Topics("jobbench" + UUID.randomUUID().toString().substring(0, 8)), 1);
        TopicSetup.ensureTopics(config);
        long t0 = System.nanoTime();
        NodeShape shape = NodeShape.defaults().withPods(Integer.toString(Math.max(110,
                (int) Math.ceil(1.2 * jobs * Math.min(parallelism, completions) / nodes))));
        try (WriterService writer = new WriterService(config, work.resolve("writer"), 20).start();
             ObjectView view = new ObjectView(config, "jobbench-view").start();
             NodeSimulator sim = new NodeSimulator(config, nodes, shape, Clock.systemUTC()).start();
             Controller scheduler = Scheduler.controller(config, "scheduler").start();
             ControllerRuntime controllers = ControllerManager.start(config, Clock.systemUTC(), "job", false);
             CommandSender sender = new CommandSender(config, "bench")) {
            awaitTrue("the control loop", () -> writer.isReady() && view.isReady() && sim.isReady()
                    && scheduler.isReady() && controllers.isReady(), Duration.ofMinutes(2));
            awaitTrue(nodes + " nodes", () -> view.list("Node", null).size() >= nodes,
                    Duration.ofMinutes(2));
            out.printf("startup: writer, scheduler, %d simulated nodes and the job controller ready in %.2f s%n", nodes,
                    (System.nanoTime() - t0) / 1e9);
            Commands user = new Commands("bench");
            long start = System.nanoTime();
            for (int i = 0; i < jobs; i++) {
                sender.send(user.create(job("bench-" + i, completions, parallelism, runSeconds)));
            }
            sender.flush();
            int pods = jobs * completions;
            long lastPrint = System.nanoTime();
            long deadline = start + Duration.ofMinutes(60).toNanos();
            int complete = 0;
            int podsSeen = 0;
            while (complete < jobs) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(complete + " of " + jobs + " Jobs complete after 60 minutes");
                }
                Thread.sleep(200);
                complete = 0;
                int succeeded = 0;
                for (ObjectChanged c : view.list("Job", "default")) {
                    Job j = (Job) c.getObject();
                    if (JobConditions.findTrue(j, JobConditions.COMPLETE).isPresent()) {
                        complete++;
                    }
                    succeeded += j.getStatus() == null || j.getStatus().getSucceeded() == null ? 0 : j.getStatus().getSucceeded();
                }
                podsSeen = succeeded;
                if (System.nanoTime() - lastPrint > 5_000_000_000L) {
                    lastPrint = System.nanoTime();
                    out.printf("  ... %,d / %,d Jobs complete, %,d / %,d pods counted succeeded (%.0f s)%n", complete, jobs,
                            podsSeen, pods, (lastPrint - start) / 1e9);
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            out.printf("jobs: %,d Jobs x %d completions (parallelism %d, each pod runs %.1f s) on %d nodes: all Complete "
                            + "in %.1f s = %.0f pods/s (%.1f Jobs/s)%n", jobs, completions, parallelism, runSeconds, nodes,
                    seconds, pods / seconds, jobs / seconds);
        }
    }

    private static void awaitTrue(String what, java.util.function.BooleanSupplier ready, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " not ready within " + timeout);
            }
            Thread.sleep(50);
        }
    }

    static Job job(String name, int completions, int parallelism, double runSeconds) {
        Container c = Container.newBuilder().setName("work").setImage("busybox:1.36")
                .setCommand(List.of("sh", "-c", "echo working")).build();
        return Job.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setSpec(JobSpec.newBuilder().setCompletions(completions).setParallelism(parallelism)
                        .setTemplate(PodTemplateSpec.newBuilder()
                                .setMetadata(ObjectMeta.newBuilder().setAnnotations(Map.of("sim.eventplane.io/run-duration",
                                        runSeconds + "s")).build())
                                .setSpec(PodSpec.newBuilder().setContainers(List.of(c)).setRestartPolicy("Never").build())
                                .build())
                        .build())
                .build();
    }
}
