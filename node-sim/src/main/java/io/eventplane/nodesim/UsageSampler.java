package io.eventplane.nodesim;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PodStates;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Pod;
import io.eventplane.usage.ContainerUsage;
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
import java.util.Set;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelets' resource metrics: once per window, what each running container of each pod on a node uses
 * ({@link RunningUsage}: its own declared use and its pod's share of its workload's load, {@link WorkloadLoad}), and the
 * node's total with its system's own use ({@link UsageRules.SystemUse}); one {@link NodeUsage} sample per node. A
 * container whose memory use (its share of a load included) is above its limit is OOM-killed, as the kernel would.
 * Runs on the simulator's thread; pure apart from the lookups it is given.
 */
final class UsageSampler {
    private static final Logger LOG = LoggerFactory.getLogger(UsageSampler.class);

    /** What the sampler needs of the kubelet: each pod's run, and a way to OOM-kill one of its containers. */
    interface Runs {
        Optional<PodRun> runOf(String podUid);

        void oomKill(String podKey, String container, Instant now);
    }

    private final ClusterView view;
    private final Runs runs;
    private final Duration window;
    private final UsageRules.SystemUse system;
    private final Set<String> reported = new HashSet<>();

    UsageSampler(ClusterView view, Runs runs, Duration window, UsageRules.SystemUse system) {
        this.view = view;
        this.runs = runs;
        this.window = window;
        this.system = system;
    }

    /** One round over {@code nodes} (their names and the pods bound to each), sampled at {@code now}. */
    List<NodeUsage> sample(Map<String, List<Pod>> nodes, Instant now) {
        Round round = new Round(now);
        List<NodeUsage> out = new ArrayList<>();
        nodes.forEach((node, pods) -> out.add(sample(node, pods, round)));
        return out;
    }

    private NodeUsage sample(String node, List<Pod> pods, Round round) {
        double cpu = system.cpu();
        double memory = system.memory();
        List<PodUsage> reportedPods = new ArrayList<>();
        for (Pod pod : pods) {
            Optional<PodRun> run = runs.runOf(pod.getMetadata().getUid());
            if (run.isEmpty() || PodStates.isTerminal(pod)) {
                continue;
            }
            double[] share = round.share(pod);
            List<RunningUsage.Sample> samples = RunningUsage.of(run.get(), round.now, share[0], share[1]);
            if (samples.isEmpty()) {
                continue;
            }
            List<ContainerUsage> containers = new ArrayList<>();
            for (RunningUsage.Sample s : samples) {
                if (s.overLimit()) {
                    runs.oomKill(Keys.of(Kinds.POD.kind(), pod.getMetadata().getNamespace(), pod.getMetadata().getName()),
                            s.container(), round.now);
                }
                containers.add(ContainerUsage.newBuilder().setName(s.container())
                        .setCpuNanocores(Math.round(s.cpu() * 1e9)).setMemoryBytes(Math.round(s.memory())).build());
                cpu += s.cpu();
                memory += s.memory();
            }
            reportedPods.add(PodUsage.newBuilder().setNamespace(pod.getMetadata().getNamespace())
                    .setName(pod.getMetadata().getName()).setUid(pod.getMetadata().getUid())
                    .setContainers(containers).build());
        }
        return NodeUsage.newBuilder().setNode(node).setTime(round.now).setWindowMillis(window.toMillis())
                .setCpuNanocores(Math.round(cpu * 1e9)).setMemoryBytes(Math.round(memory)).setPods(reportedPods).build();
    }

    /** What one round knows: the time, and each workload's Ready pods, counted once per namespace. */
    private final class Round {
        final Instant now;
        final Map<String, Map<String, Integer>> readyByNamespace = new HashMap<>();
        final WorkloadLoad.Objects objects = key -> view.get(key).map(c -> (SpecificRecord) c.getObject());

        Round(Instant now) {
            this.now = now;
        }

        /** The pod's share of its workload's CPU and memory load now: 0 unless it is Ready and not terminating. */
        double[] share(Pod pod) {
            Optional<WorkloadLoad> load;
            try {
                load = WorkloadLoad.of(pod, objects);
            } catch (IllegalArgumentException e) {
                if (reported.add(e.getMessage())) {
                    LOG.warn("node-sim: a load that cannot be read is ignored: {}", e.getMessage());
                }
                return new double[] {0, 0};
            }
            if (load.isEmpty() || !PodStates.isReady(pod) || pod.getMetadata().getDeletionTimestamp() != null) {
                return new double[] {0, 0};
            }
            WorkloadLoad l = load.get();
            int ready = Math.max(1, ready(pod.getMetadata().getNamespace()).getOrDefault(l.group(), 1));
            Duration since = now.isBefore(l.origin()) ? Duration.ZERO : Duration.between(l.origin(), now);
            return new double[] {l.cpu() == null ? 0 : l.cpu().at(since) / ready,
                    l.memory() == null ? 0 : l.memory().at(since) / ready};
        }

        private Map<String, Integer> ready(String namespace) {
            return readyByNamespace.computeIfAbsent(namespace, ns -> {
                Map<String, Integer> counts = new HashMap<>();
                Map<String, String> groupOfOwner = new HashMap<>();
                for (ObjectChanged c : view.list(Kinds.POD.kind(), ns)) {
                    Pod p = (Pod) c.getObject();
                    if (!PodStates.isReady(p) || p.getMetadata().getDeletionTimestamp() != null || PodStates.isTerminal(p)) {
                        continue;
                    }
                    String owner = io.eventplane.core.meta.Owners.controllerOf(p.getMetadata())
                            .map(r -> r.getUid()).orElse(null);
                    String group = owner == null ? p.getMetadata().getUid()
                            : groupOfOwner.computeIfAbsent(owner, o -> WorkloadLoad.groupOf(p, objects));
                    counts.merge(group, 1, Integer::sum);
                }
                return counts;
            });
        }
    }

    /** The pods bound to each node, from the view's pods-by-node lists. */
    static Map<String, List<Pod>> podsOf(Iterable<String> nodes, Function<String, List<ObjectChanged>> boundTo) {
        Map<String, List<Pod>> out = new java.util.TreeMap<>();
        for (String n : nodes) {
            List<Pod> pods = new ArrayList<>();
            for (ObjectChanged c : boundTo.apply(n)) {
                pods.add((Pod) c.getObject());
            }
            out.put(n, pods);
        }
        return out;
    }
}
