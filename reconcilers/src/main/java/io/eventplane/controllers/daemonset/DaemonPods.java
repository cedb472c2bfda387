package io.eventplane.controllers.daemonset;

import io.eventplane.controllers.history.Revisions;
import io.eventplane.core.meta.IntOrPercent;
import io.eventplane.core.meta.NodeSelectors;
import io.eventplane.core.meta.Taints;
import io.eventplane.model.Affinity;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.DaemonSetUpdateStrategy;
import io.eventplane.model.NodeAffinity;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.Toleration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a daemon pod is made of and how it is read back (Kubernetes' pkg/controller/daemon/util): the automatic
 * tolerations (DS-09, DS-11), the template labels {@code controller-revision-hash} and {@code pod-template-generation}
 * (DS-16), the node-affinity term that pins a pod to its node (DS-07), the node a pod is for, whether it is of the
 * current template, and the rolling update's budgets. Pure.
 */
final class DaemonPods {
    static final String TEMPLATE_GENERATION_LABEL = "pod-template-generation";
    /** The writer keeps the template generation here (DaemonSetRules, as kube-apiserver's DaemonSet strategy). */
    static final String TEMPLATE_GENERATION_ANNOTATION = "deprecated.daemonset.template.generation";
    static final String NETWORK_UNAVAILABLE = "node.kubernetes.io/network-unavailable";
    static final String UNSCHEDULABLE = "node.kubernetes.io/unschedulable";
    static final String ROLLING_UPDATE = "RollingUpdate";

    private DaemonPods() {
    }

    /** The tolerations every daemon pod gets, in Kubernetes' order; network-unavailable only with hostNetwork. */
    static List<Toleration> automaticTolerations(boolean hostNetwork) {
        List<Toleration> out = new ArrayList<>(List.of(
                exists(Taints.NOT_READY, Taints.NO_EXECUTE),
                exists(Taints.UNREACHABLE, Taints.NO_EXECUTE),
                exists(Taints.DISK_PRESSURE, Taints.NO_SCHEDULE),
                exists(Taints.MEMORY_PRESSURE, Taints.NO_SCHEDULE),
                exists(Taints.PID_PRESSURE, Taints.NO_SCHEDULE),
                exists(UNSCHEDULABLE, Taints.NO_SCHEDULE)));
        if (hostNetwork) {
            out.add(exists(NETWORK_UNAVAILABLE, Taints.NO_SCHEDULE));
        }
        return out;
    }

    private static Toleration exists(String key, String effect) {
        return Toleration.newBuilder().setKey(key).setOperator("Exists").setEffect(effect).build();
    }

    /**
     * The pod's tolerations with the automatic ones added (Kubernetes' AddOrUpdateTolerationInPodSpec: one with the
     * same key, operator, value and effect is replaced, so a user's tolerationSeconds gives way to "forever").
     */
    static List<Toleration> withDaemonTolerations(PodSpec spec) {
        List<Toleration> out = spec == null || spec.getTolerations() == null ? new ArrayList<>()
                : new ArrayList<>(spec.getTolerations());
        for (Toleration t : automaticTolerations(spec != null && Boolean.TRUE.equals(spec.getHostNetwork()))) {
            boolean replaced = false;
            for (int i = 0; i < out.size(); i++) {
                if (sameToleration(out.get(i), t)) {
                    out.set(i, t);
                    replaced = true;
                }
            }
            if (!replaced) {
                out.add(t);
            }
        }
        return out;
    }

    private static boolean sameToleration(Toleration a, Toleration b) {
        return nz(a.getKey()).equals(nz(b.getKey())) && nz(a.getEffect()).equals(nz(b.getEffect()))
                && nz(a.getOperator()).equals(nz(b.getOperator())) && nz(a.getValue()).equals(nz(b.getValue()));
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /** The DaemonSet's template generation (the writer's annotation), or null. */
    static Long templateGeneration(DaemonSet ds) {
        Map<String, String> a = ds.getMetadata().getAnnotations();
        String v = a == null ? null : a.get(TEMPLATE_GENERATION_ANNOTATION);
        try {
            return v == null ? null : Long.parseLong(v);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Kubernetes' CreatePodTemplate: the template with the automatic tolerations and the generation and hash labels. */
    static PodTemplateSpec podTemplate(PodTemplateSpec template, Long generation, String hash) {
        ObjectMeta meta = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        Map<String, String> labels = meta.getLabels() == null ? new HashMap<>() : new HashMap<>(meta.getLabels());
        if (generation != null) {
            labels.put(TEMPLATE_GENERATION_LABEL, Long.toString(generation));
        }
        if (hash != null && !hash.isEmpty()) {
            labels.put(Revisions.HASH_LABEL, hash);
        }
        PodSpec spec = template.getSpec() == null ? new PodSpec() : template.getSpec();
        return PodTemplateSpec.newBuilder()
                .setMetadata(ObjectMeta.newBuilder(meta).setLabels(labels).build())
                .setSpec(PodSpec.newBuilder(spec).setTolerations(withDaemonTolerations(spec)).build())
                .build();
    }

    /**
     * Kubernetes' ReplaceDaemonSetPodNodeNameNodeAffinity (DS-07): the required node affinity becomes the one term
     * {@code matchFields metadata.name In [node]}; whatever it was has already chosen the node.
     */
    static Affinity pinnedTo(Affinity affinity, String node) {
        NodeSelector pin = NodeSelector.newBuilder().setNodeSelectorTerms(List.of(NodeSelectorTerm.newBuilder()
                .setMatchFields(List.of(NodeSelectorRequirement.newBuilder().setKey(NodeSelectors.NODE_NAME_FIELD)
                        .setOperator("In").setValues(List.of(node)).build())).build())).build();
        Affinity a = affinity == null ? new Affinity() : Affinity.newBuilder(affinity).build();
        NodeAffinity na = a.getNodeAffinity() == null ? new NodeAffinity() : NodeAffinity.newBuilder(a.getNodeAffinity()).build();
        na.setRequiredDuringSchedulingIgnoredDuringExecution(pin);
        a.setNodeAffinity(na);
        return a;
    }

    /**
     * Kubernetes' GetTargetNodeName: the node a daemon pod is bound to, or, while it is pending, the one its
     * {@code matchFields metadata.name In [node]} names; null when it names none (or several).
     */
    static String targetNode(Pod pod) {
        PodSpec spec = pod.getSpec();
        if (spec == null) {
            return null;
        }
        if (spec.getNodeName() != null && !spec.getNodeName().isEmpty()) {
            return spec.getNodeName();
        }
        NodeSelector required = NodeSelectors.requiredOf(spec);
        if (required == null || required.getNodeSelectorTerms() == null) {
            return null;
        }
        for (NodeSelectorTerm term : required.getNodeSelectorTerms()) {
            if (term.getMatchFields() == null) {
                continue;
            }
            for (NodeSelectorRequirement r : term.getMatchFields()) {
                if (NodeSelectors.NODE_NAME_FIELD.equals(r.getKey()) && "In".equals(r.getOperator())) {
                    return r.getValues() != null && r.getValues().size() == 1 ? r.getValues().get(0) : null;
                }
            }
        }
        return null;
    }

    /** Kubernetes' IsPodUpdated: the pod carries the current revision's hash, or the current template generation. */
    static boolean isUpdated(Pod pod, String hash, Long generation) {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        boolean generationMatches = generation != null
                && Objects.equals(labels.get(TEMPLATE_GENERATION_LABEL), Long.toString(generation));
        boolean hashMatches = hash != null && !hash.isEmpty() && hash.equals(labels.get(Revisions.HASH_LABEL));
        return hashMatches || generationMatches;
    }

    static boolean isRollingUpdate(DaemonSet ds) {
        DaemonSetUpdateStrategy s = ds.getSpec().getUpdateStrategy();
        return s == null || s.getType() == null || ROLLING_UPDATE.equals(s.getType());
    }

    /** Kubernetes' SurgeCount: maxSurge of {@code desired}, rounded up; 0 unless RollingUpdate. */
    static int surgeCount(DaemonSet ds, int desired) {
        DaemonSetUpdateStrategy s = ds.getSpec().getUpdateStrategy();
        if (!isRollingUpdate(ds) || s == null || s.getRollingUpdate() == null) {
            return 0;
        }
        return IntOrPercent.resolve(s.getRollingUpdate().getMaxSurge(), desired, true);
    }

    /** Kubernetes' UnavailableCount: maxUnavailable of {@code desired}, rounded up; 0 unless RollingUpdate. */
    static int unavailableCount(DaemonSet ds, int desired) {
        DaemonSetUpdateStrategy s = ds.getSpec().getUpdateStrategy();
        if (!isRollingUpdate(ds) || s == null || s.getRollingUpdate() == null) {
            return 0;
        }
        return IntOrPercent.resolve(s.getRollingUpdate().getMaxUnavailable(), desired, true);
    }

    /** Whether more than one pod may run on a node during an update (a maxSurge above 0). */
    static boolean allowsSurge(DaemonSet ds) {
        return surgeCount(ds, 1) > 0;
    }

    /** Kubernetes' podByCreationTimestampAndPhase: bound before pending, then oldest first, then by name. */
    static final Comparator<Pod> OLDEST_FIRST = Comparator
            .comparingInt((Pod p) -> p.getSpec() != null && p.getSpec().getNodeName() != null
                    && !p.getSpec().getNodeName().isEmpty() ? 0 : 1)
            .thenComparing(p -> p.getMetadata().getCreationTimestamp(), Comparator.nullsLast(Comparator.<Instant>naturalOrder()))
            .thenComparing(p -> p.getMetadata().getName());
}
