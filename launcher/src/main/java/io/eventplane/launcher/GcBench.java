package io.eventplane.launcher;

import io.eventplane.reconcile.Controller;
import io.eventplane.gc.GarbageCollector;
import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Subscription;
import io.eventplane.client.TopicSetup;
import io.eventplane.client.WatchEvent;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.model.Container;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetSpec;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.avro.specific.SpecificRecord;

/**
 * {@code eventplane bench gc}: a Deployment owning a ReplicaSet owning N pods (owner references set by hand, as the
 * controllers would), deleted once in each propagation mode; prints how long the garbage collector takes until what
 * the mode promises holds, and checks it (Background and Foreground: nothing left; Foreground: the Deployment goes
 * last; Orphan: the ReplicaSet and its pods stay, the ReplicaSet without its owner reference).
 */
final class GcBench {
    private GcBench() {
    }

    static void run(EventplaneConfig config, Path work, int pods, PrintStream out) throws Exception {
        TopicSetup.ensureTopics(config);
        Commands user = new Commands("bench");
        try (WriterService writer = new WriterService(config, work.resolve("gcbench-writer"), 20).start();
             ObjectView view = new ObjectView(config, "gcbench-view").start();
             CommandSender sender = new CommandSender(config, "gcbench");
             Controller gc = Controller.keyed(config, "garbage-collector", "garbage-collector-controller",
                     java.time.Clock.systemUTC(), new GarbageCollector()).start()) {
            await(() -> writer.isReady() && view.isReady() && gc.isReady(), Duration.ofSeconds(120));
            out.printf("gc bench: Deployment -> ReplicaSet -> %d pods, deleted in each mode%n", pods);
            for (String mode : List.of("Background", "Foreground", "Orphan")) {
                String ns = mode.toLowerCase();
                Deployment d = (Deployment) create(view, sender, user, deployment(ns));
                ReplicaSet rs = (ReplicaSet) create(view, sender, user, replicaSet(ns, ref(d)));
                OwnerReference rsRef = ref(rs);
                for (int i = 0; i < pods; i++) {
                    sender.send(user.create(pod(ns, "web-" + i, rsRef)));
                }
                sender.flush();
                await(() -> view.list("Pod", ns).size() == pods, Duration.ofSeconds(300));
                long t0 = System.nanoTime();
                sender.send(user.deleteWith(Kinds.DEPLOYMENT, ns, "web", new Preconditions(),
                        DeleteOptions.newBuilder().setPropagationPolicy(mode).build()));
                sender.flush();
                BooleanSupplier done = mode.equals("Orphan")
                        ? () -> view.get("Deployment", ns, "web").isEmpty() && view.get("ReplicaSet", ns, "web-1").map(
                                c -> ObjectAccess.meta((SpecificRecord) c.getObject()).getOwnerReferences() == null).orElse(false)
                        : () -> view.get("Deployment", ns, "web").isEmpty() && view.list("ReplicaSet", ns).isEmpty()
                                && view.list("Pod", ns).isEmpty();
                await(done, Duration.ofSeconds(600));
                double seconds = (System.nanoTime() - t0) / 1e9;
                List<String> deleted = deletions(view, ns);
                String verdict;
                if (mode.equals("Orphan")) {
                    boolean ok = view.list("Pod", ns).size() == pods && view.list("ReplicaSet", ns).size() == 1
                            && deleted.equals(List.of("Deployment/web"));
                    verdict = ok ? "ReplicaSet and " + pods + " pods kept, the ReplicaSet without its owner reference"
                            : "UNEXPECTED: " + view.list("Pod", ns).size() + " pods, deleted " + deleted.size();
                } else {
                    int dIndex = deleted.indexOf("Deployment/web");
                    int rsIndex = deleted.indexOf("ReplicaSet/web-1");
                    boolean order = mode.equals("Foreground") ? dIndex == deleted.size() - 1 && rsIndex == deleted.size() - 2
                            : dIndex == 0;
                    verdict = (deleted.size() == pods + 2 ? "all " + (pods + 2) + " objects deleted" : "UNEXPECTED count " + deleted.size())
                            + (order ? mode.equals("Foreground") ? ", owners last (pods, then ReplicaSet, then Deployment)"
                                    : ", Deployment first" : ", UNEXPECTED order");
                }
                out.printf("  %-10s %8.2f s  (%.0f objects/s)  %s%n", mode, seconds, (pods + 2) / seconds, verdict);
            }
            out.printf("  garbage collector: %s%n", gc.metrics());
        }
    }

    private static List<String> deletions(ObjectView view, String ns) throws Exception {
        List<String> out = new ArrayList<>();
        try (Subscription s = view.watch(new long[] {0}, c -> c.getNamespace().equals(ns) && c.getType() == ChangeType.DELETED,
                1_000_000)) {
            for (WatchEvent e = s.poll(Duration.ofMillis(100)); e != null; e = s.poll(Duration.ofMillis(100))) {
                out.add(e.change().getKind() + "/" + e.change().getName());
            }
        }
        return out;
    }

    private static SpecificRecord create(ObjectView view, CommandSender sender, Commands user, SpecificRecord o) throws Exception {
        ObjectMeta m = ObjectAccess.meta(o);
        String kind = Kinds.of(o).kind();
        sender.send(user.create(o));
        sender.flush();
        await(() -> view.get(kind, m.getNamespace(), m.getName()).isPresent(), Duration.ofSeconds(60));
        return (SpecificRecord) view.get(kind, m.getNamespace(), m.getName()).map(ObjectChanged::getObject).orElseThrow();
    }

    private static void await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("gc bench: timed out after " + timeout);
            }
            Thread.sleep(10);
        }
    }

    private static OwnerReference ref(SpecificRecord owner) {
        ObjectMeta m = ObjectAccess.meta(owner);
        var kind = Kinds.of(owner);
        return OwnerReference.newBuilder().setApiVersion(kind.apiVersion()).setKind(kind.kind()).setName(m.getName())
                .setUid(m.getUid()).setController(true).setBlockOwnerDeletion(true).build();
    }

    private static PodTemplateSpec template() {
        return PodTemplateSpec.newBuilder().setMetadata(ObjectMeta.newBuilder().setLabels(Map.of("app", "web")).build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("c").setImage("nginx").build())).build())
                .build();
    }

    private static Deployment deployment(String ns) {
        return Deployment.newBuilder().setMetadata(ObjectMeta.newBuilder().setNamespace(ns).setName("web").build())
                .setSpec(DeploymentSpec.newBuilder().setSelector(LabelSelector.newBuilder().setMatchLabels(Map.of("app", "web")).build())
                        .setTemplate(template()).build()).build();
    }

    private static ReplicaSet replicaSet(String ns, OwnerReference owner) {
        return ReplicaSet.newBuilder().setMetadata(ObjectMeta.newBuilder().setNamespace(ns).setName("web-1")
                        .setOwnerReferences(List.of(owner)).build())
                .setSpec(ReplicaSetSpec.newBuilder().setSelector(LabelSelector.newBuilder().setMatchLabels(Map.of("app", "web")).build())
                        .setTemplate(template()).build()).build();
    }

    private static Pod pod(String ns, String name, OwnerReference owner) {
        return Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setNamespace(ns).setName(name).setLabels(Map.of("app", "web"))
                        .setOwnerReferences(List.of(owner)).build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("c").setImage("nginx").build())).build())
                .build();
    }
}
