package io.eventplane.core.quota;

import io.eventplane.core.codec.Quantity;
import io.eventplane.core.decide.PodRules;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Affinity;
import io.eventplane.model.Container;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodAffinityTerm;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ScopedResourceSelectorRequirement;
import io.eventplane.model.WeightedPodAffinityTerm;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;

/**
 * Quota for pods (Kubernetes' podEvaluator): {@code count/pods} counts every pod; {@code pods} and the compute
 * resources count pods that still run (not Succeeded or Failed, not stuck terminating past twice their grace period);
 * scopes Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass and CrossNamespacePodAffinity.
 */
final class PodQuota implements QuotaEvaluator {
    static final String COUNT = "count/pods";
    private static final Set<String> RESOURCES = Set.of(COUNT, "cpu", "memory", "ephemeral-storage", "requests.cpu",
            "requests.memory", "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
            "pods");
    /** The compute resources a quota makes every container declare (a backward-compatibility rule of Kubernetes). */
    private static final Set<String> MUST_DECLARE = Set.of("cpu", "memory", "requests.cpu", "requests.memory",
            "limits.cpu", "limits.memory");

    @Override
    public KindInfo kind() {
        return Kinds.POD;
    }

    @Override
    public Set<String> matchingResources(Collection<String> resources) {
        Set<String> out = new TreeSet<>();
        for (String r : resources) {
            if (RESOURCES.contains(r) || r.startsWith("hugepages-") || r.startsWith("requests.hugepages-")
                    || (r.startsWith("requests.") && r.substring("requests.".length()).contains("/"))) {
                out.add(r);
            }
        }
        return out;
    }

    @Override
    public Map<String, Quantity> usage(SpecificRecord object, Instant now) {
        Pod pod = (Pod) object;
        Map<String, Quantity> out = new TreeMap<>();
        out.put(COUNT, Quantity.of(1)); // object count: every pod in storage
        if (!counts(pod, now)) {
            return out;
        }
        out.putAll(computeUsage(PodResources.requests(pod.getSpec()), PodResources.limits(pod.getSpec())));
        return out;
    }

    /** QuotaV1Pod: terminal pods, and pods whose deletion is overdue (a lost node), are not charged. */
    static boolean counts(Pod pod, Instant now) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return false;
        }
        ObjectMeta meta = pod.getMetadata();
        if (meta != null && meta.getDeletionTimestamp() != null && meta.getDeletionGracePeriodSeconds() != null) {
            return !now.isAfter(meta.getDeletionTimestamp().plusSeconds(meta.getDeletionGracePeriodSeconds()));
        }
        return true;
    }

    /** podComputeUsageHelper: one pod, and its requests and limits under their quota names. */
    static Map<String, Quantity> computeUsage(Map<String, Quantity> requests, Map<String, Quantity> limits) {
        Map<String, Quantity> out = new TreeMap<>();
        out.put("pods", Quantity.of(1));
        for (String r : List.of("cpu", "memory", "ephemeral-storage")) {
            if (requests.containsKey(r)) {
                out.put(r, requests.get(r));
                out.put("requests." + r, requests.get(r));
            }
            if (limits.containsKey(r)) {
                out.put("limits." + r, limits.get(r));
            }
        }
        requests.forEach((r, q) -> {
            if (r.startsWith("hugepages-")) {
                out.put(r, q);
                out.put("requests." + r, q);
            } else if (r.contains("/") && !r.contains("kubernetes.io/")) {
                out.put("requests." + r, q); // an extended resource is quota'd by its request only
            }
        });
        return out;
    }

    @Override
    public boolean matchesScope(ScopedResourceSelectorRequirement scope, SpecificRecord object) {
        PodSpec spec = ((Pod) object).getSpec();
        String name = scope.getScopeName() == null ? "" : scope.getScopeName();
        return switch (name) {
            case "Terminating" -> terminating(spec);
            case "NotTerminating" -> !terminating(spec);
            case "BestEffort" -> "BestEffort".equals(PodRules.qosClass(spec));
            case "NotBestEffort" -> !"BestEffort".equals(PodRules.qosClass(spec));
            case "PriorityClass" -> priorityClassMatches(scope, spec == null ? null : spec.getPriorityClassName());
            case "CrossNamespacePodAffinity" -> crossNamespaceAffinity(spec);
            default -> false;
        };
    }

    private static boolean terminating(PodSpec spec) {
        return spec != null && spec.getActiveDeadlineSeconds() != null && spec.getActiveDeadlineSeconds() >= 0;
    }

    /** A label selector on the single label {@code PriorityClass=<the pod's class>} (absent without a class). */
    private static boolean priorityClassMatches(ScopedResourceSelectorRequirement scope, String className) {
        boolean has = className != null && !className.isEmpty();
        List<String> values = scope.getValues() == null ? List.of() : scope.getValues();
        String op = scope.getOperator() == null ? "" : scope.getOperator();
        return switch (op) {
            case "Exists" -> has;
            case "DoesNotExist" -> !has;
            case "In" -> has && values.contains(className);
            case "NotIn" -> !has || !values.contains(className);
            default -> false;
        };
    }

    /** Pod affinity or anti-affinity terms that name other namespaces or select them. */
    private static boolean crossNamespaceAffinity(PodSpec spec) {
        Affinity a = spec == null ? null : spec.getAffinity();
        if (a == null) {
            return false;
        }
        List<PodAffinityTerm> terms = new ArrayList<>();
        if (a.getPodAffinity() != null) {
            terms.addAll(list(a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()));
            weighted(a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), terms);
        }
        if (a.getPodAntiAffinity() != null) {
            terms.addAll(list(a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()));
            weighted(a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(), terms);
        }
        return terms.stream().anyMatch(t -> t.getNamespaceSelector() != null
                || (t.getNamespaces() != null && !t.getNamespaces().isEmpty()));
    }

    private static void weighted(List<WeightedPodAffinityTerm> weighted, List<PodAffinityTerm> into) {
        for (WeightedPodAffinityTerm w : list(weighted)) {
            if (w.getPodAffinityTerm() != null) {
                into.add(w.getPodAffinityTerm());
            }
        }
    }

    /**
     * A quota on cpu or memory requests or limits makes every container declare them:
     * {@code must specify limits.cpu for: app; requests.memory for: app,sidecar}.
     */
    @Override
    public String constraints(Set<String> required, SpecificRecord object) {
        PodSpec spec = ((Pod) object).getSpec();
        Set<String> requiredSet = new TreeSet<>(required);
        requiredSet.retainAll(MUST_DECLARE);
        if (requiredSet.isEmpty() || spec == null) {
            return null;
        }
        Map<String, Set<String>> missing = new TreeMap<>();
        List<Container> containers = new ArrayList<>(list(spec.getContainers()));
        containers.addAll(list(spec.getInitContainers()));
        for (Container c : containers) {
            Map<String, Quantity> requests = c.getResources() == null ? Map.of()
                    : ResourceLists.parse(c.getResources().getRequests());
            Map<String, Quantity> limits = c.getResources() == null ? Map.of()
                    : ResourceLists.parse(c.getResources().getLimits());
            Set<String> declared = computeUsage(requests, limits).keySet();
            for (String r : requiredSet) {
                if (!declared.contains(r)) {
                    missing.computeIfAbsent(r, k -> new TreeSet<>()).add(c.getName());
                }
            }
        }
        if (missing.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        missing.forEach((r, names) -> parts.add(r + " for: " + String.join(",", names)));
        return "must specify " + String.join("; ", parts);
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
