package io.eventplane.controllers.podautoscaler;

import io.eventplane.client.ClusterView;
import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.client.usage.ResourceUsage;
import io.eventplane.controllers.podautoscaler.PodAutoscalerDecider.BadSelector;
import io.eventplane.controllers.podautoscaler.PodAutoscalerDecider.Decision;
import io.eventplane.controllers.podautoscaler.PodAutoscalerDecider.Target;
import io.eventplane.controllers.podautoscaler.ReplicaCalculator.PodMetric;
import io.eventplane.controllers.podautoscaler.ScalingBehavior.History;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.CustomScale;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.ParsedLabelSelector;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.CrossVersionObjectReference;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.HorizontalPodAutoscaler;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetSpec;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.ReplicationControllerSpec;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetSpec;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceSubresourceScale;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import io.eventplane.usage.ContainerUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;

/**
 * The horizontal pod autoscaler (kube-controller-manager's {@code horizontal-pod-autoscaling}): every 15 s each HPA
 * reads its target's scale and pods, the pods' usage from the kubelets' samples ({@link ResourceUsage}, what
 * metrics-server serves), decides ({@link PodAutoscalerDecider}), scales the target through its replicas (an update
 * preconditioned on the resourceVersion it read, as a scale subresource write) and writes its status. Targets:
 * Deployments, ReplicaSets, StatefulSets and ReplicationControllers (RS-19), and custom objects whose definition
 * declares the scale subresource ({@link CustomScale}: replicas and selector at the definition's paths).
 *
 * <p>The recommendations and scale events the behavior looks back over are kept in memory, as upstream keeps them: a
 * new leader starts from each target's current size (its first scale-down waits a whole stabilization window).
 */
public final class PodAutoscalerReconciler implements Reconciler, AutoCloseable {
    /** kube-controller-manager's --horizontal-pod-autoscaler-sync-period. */
    static final Duration SYNC_PERIOD = Duration.ofSeconds(15);

    private final ResourceUsage usage;
    private final Map<String, History> histories = new ConcurrentHashMap<>();

    public PodAutoscalerReconciler(ResourceUsage usage) {
        this.usage = usage;
    }

    @Override
    public String kind() {
        return Kinds.HORIZONTAL_POD_AUTOSCALER.kind();
    }

    /** Lets go of the usage view (a shared one stops with its last user). */
    @Override
    public void close() throws Exception {
        if (usage instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }

    /** An HPA's own spec changes; its status writes and everything else wait for the next sync. */
    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (!change.getKind().equals(kind())) {
            return List.of();
        }
        if (previous != null && previous.getObject() instanceof HorizontalPodAutoscaler before
                && change.getObject() instanceof HorizontalPodAutoscaler after
                && Objects.equals(before.getSpec(), after.getSpec())) {
            return List.of();
        }
        String key = Keys.of(kind(), change.getNamespace(), change.getName());
        if (change.getType() == io.eventplane.log.ChangeType.DELETED) {
            histories.remove(key);
        }
        return List.of(key);
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (current == null) {
            histories.remove(key);
            return Reconciliation.NOTHING;
        }
        HorizontalPodAutoscaler hpa = (HorizontalPodAutoscaler) current.getObject();
        if (hpa.getMetadata().getDeletionTimestamp() != null || hpa.getSpec() == null) {
            return Reconciliation.NOTHING;
        }
        String namespace = current.getNamespace();
        CrossVersionObjectReference ref = hpa.getSpec().getScaleTargetRef();
        ObjectChanged targetChange = ref == null || ref.getKind() == null || ref.getName() == null ? null
                : kindOf(ref).flatMap(k -> view.get(k, namespace, ref.getName())).orElse(null);
        Scalable scalable = targetChange == null ? null : Scalable.of(targetChange.getObject(), customScale(ref));
        Target target = null;
        String missing = null;
        if (scalable == null) {
            missing = ref == null ? "no scale target" : targetChange == null
                    ? ref.getKind() + " \"" + ref.getName() + "\" not found"
                    : ref.getKind() + " has no scale subresource";
        } else {
            List<Pod> pods = new ArrayList<>();
            for (ObjectChanged c : view.list(Kinds.POD.kind(), namespace)) {
                Pod pod = (Pod) c.getObject();
                if (scalable.selects().test(pod.getMetadata().getLabels())) {
                    pods.add(pod);
                }
            }
            target = new Target(scalable.replicas(), pods, scalable.badSelector());
        }
        Decision d = PodAutoscalerDecider.decide(hpa, target, missing,
                (resource, pod) -> metric(namespace, pod, resource), histories.getOrDefault(key, History.EMPTY), now);
        histories.put(key, d.history());
        List<Action> actions = new ArrayList<>();
        if (d.replicas() >= 0) {
            EventNotice rescaled = EventNotice.normal(ObjectReferences.of(hpa), "SuccessfulRescale",
                    "New size: " + d.replicas() + "; reason: " + d.reason());
            actions.add(new Action.Update(scalable.scaledTo(d.replicas()), rescaled, "FailedRescale"));
        }
        if (!PodAutoscalerDecider.same(hpa.getStatus(), d.status())) {
            actions.add(new Action.UpdateStatus(HorizontalPodAutoscaler.newBuilder(hpa).setStatus(d.status()).build()));
        }
        return new Reconciliation(actions, d.events(), SYNC_PERIOD);
    }

    /** The kind the view stores the target as: a compiled kind, else the custom kind of its apiVersion. */
    private static Optional<String> kindOf(CrossVersionObjectReference ref) {
        return Kinds.byReference(ref.getApiVersion(), ref.getKind()).map(KindInfo::kind);
    }

    private static Optional<CustomKinds.CustomKind> custom(CrossVersionObjectReference ref) {
        return Optional.ofNullable(ref.getApiVersion()).flatMap(v -> CustomKinds.byApiVersion(v, ref.getKind()));
    }

    private static CustomResourceSubresourceScale customScale(CrossVersionObjectReference ref) {
        return custom(ref).flatMap(CustomScale::of).orElse(null);
    }

    /** The pod's usage of {@code resource} from its node's latest sample, in milli-units; null when unmeasured. */
    private PodMetric metric(String namespace, String pod, String resource) {
        return usage.pod(namespace, pod).map(s -> {
            long milli = 0;
            for (ContainerUsage c : s.pod().getContainers()) {
                milli += switch (resource) {
                    case "cpu" -> (c.getCpuNanocores() + 999_999) / 1_000_000;
                    case "memory" -> c.getMemoryBytes() * 1000;
                    default -> 0;
                };
            }
            return new PodMetric(milli, s.time(), s.window());
        }).filter(m -> resource.equals("cpu") || resource.equals("memory")).orElse(null);
    }

    /**
     * A target with a scale subresource: its replicas, which pods it selects (none when its selector is bad), and
     * itself at another size; {@code custom} is a custom kind's scale subresource.
     */
    private record Scalable(int replicas, Predicate<Map<String, String>> selects, BadSelector badSelector,
                            SpecificRecord object, CustomResourceSubresourceScale custom) {
        Scalable(int replicas, Predicate<Map<String, String>> selects, SpecificRecord object) {
            this(replicas, selects, null, object, null);
        }

        static Scalable of(Object o, CustomResourceSubresourceScale custom) {
            if (o instanceof CustomObject c) {
                return custom == null ? null : ofCustom(c, custom);
            }
            if (o instanceof Deployment d && d.getSpec() != null) {
                return new Scalable(orOne(d.getSpec().getReplicas()), selector(d.getSpec().getSelector()), d);
            }
            if (o instanceof ReplicaSet rs && rs.getSpec() != null) {
                return new Scalable(orOne(rs.getSpec().getReplicas()), selector(rs.getSpec().getSelector()), rs);
            }
            if (o instanceof StatefulSet ss && ss.getSpec() != null) {
                return new Scalable(orOne(ss.getSpec().getReplicas()), selector(ss.getSpec().getSelector()), ss);
            }
            if (o instanceof ReplicationController rc && rc.getSpec() != null) {
                Map<String, String> sel = rc.getSpec().getSelector();
                return new Scalable(orOne(rc.getSpec().getReplicas()),
                        labels -> sel != null && !sel.isEmpty() && LabelSelectors.matches(sel, labels), rc);
            }
            return null;
        }

        /** As the scale subresource reads it: the string selector at its path, parsed as a list's labelSelector. */
        private static Scalable ofCustom(CustomObject c, CustomResourceSubresourceScale scale) {
            int replicas = CustomScale.specReplicas(scale, c);
            Optional<String> selector = CustomScale.selector(scale, c);
            if (selector.isEmpty()) {
                return new Scalable(replicas, labels -> false, BadSelector.missing(), c, scale);
            }
            try {
                ParsedLabelSelector parsed = ParsedLabelSelector.parse(selector.get());
                return new Scalable(replicas, parsed::matches, null, c, scale);
            } catch (IllegalArgumentException e) {
                return new Scalable(replicas, labels -> false, BadSelector.invalid(e.getMessage()), c, scale);
            }
        }

        private static Predicate<Map<String, String>> selector(io.eventplane.model.LabelSelector s) {
            return labels -> !LabelSelectors.isEmpty(s) && LabelSelectors.matches(s, labels);
        }

        private static int orOne(Integer replicas) {
            return replicas == null ? 1 : replicas;
        }

        SpecificRecord scaledTo(int replicas) {
            if (object instanceof CustomObject c) {
                return CustomScale.scaled(custom, c, replicas);
            }
            if (object instanceof Deployment d) {
                return Deployment.newBuilder(d).setSpec(DeploymentSpec.newBuilder(d.getSpec()).setReplicas(replicas)
                        .build()).build();
            }
            if (object instanceof ReplicaSet rs) {
                return ReplicaSet.newBuilder(rs).setSpec(ReplicaSetSpec.newBuilder(rs.getSpec())
                        .setReplicas(replicas).build()).build();
            }
            if (object instanceof StatefulSet ss) {
                return StatefulSet.newBuilder(ss).setSpec(StatefulSetSpec.newBuilder(ss.getSpec())
                        .setReplicas(replicas).build()).build();
            }
            ReplicationController rc = (ReplicationController) object;
            return ReplicationController.newBuilder(rc).setSpec(ReplicationControllerSpec.newBuilder(rc.getSpec())
                    .setReplicas(replicas).build()).build();
        }
    }
}
