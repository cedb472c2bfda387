package io.eventplane.scheduler;

import io.eventplane.model.Affinity;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerPort;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.LabelSelectorRequirement;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodAffinityTerm;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PreferredSchedulingTerm;
import io.eventplane.model.Toleration;
import io.eventplane.model.TopologySpreadConstraint;
import io.eventplane.model.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pod as the scheduler needs it, computed once per pod version: effective requests as plain numbers, labels,
 * tolerations, node affinity, and its pod (anti-)affinity terms with {@code matchLabelKeys} already folded into their
 * selectors. Immutable; shared by every decision and snapshot that sees this pod version.
 */
public final class PodInfo {
    /** One pod (anti-)affinity term, ready to match: selector with match/mismatchLabelKeys merged, weight 1 if required. */
    public record Term(LabelSelector selector, List<String> namespaces, LabelSelector namespaceSelector,
                       String topologyKey, int weight) {
    }

    final String namespace;
    final String name;
    final String uid;
    final String resourceVersion;
    final Map<String, String> labels;
    final PodDemand demand;
    final long cpu;
    final long memory;
    final long ephemeral;
    final long nonZeroCpu;
    final long nonZeroMemory;
    /** Requested resources other than cpu, memory, ephemeral-storage and pods, by name; empty for most pods. */
    final Map<String, Long> extended;
    final List<Toleration> tolerations;
    final String nodeName;
    final Map<String, String> nodeSelector;
    final NodeSelector requiredNodeAffinity;
    final List<PreferredSchedulingTerm> preferredNodeAffinity;
    final List<Term> requiredAffinity;
    final List<Term> requiredAntiAffinity;
    final List<Term> preferredAffinity;
    final List<Term> preferredAntiAffinity;
    final List<TopologySpreadConstraint> spreadConstraints;
    final List<String> hostPorts;
    final boolean terminating;
    final boolean gated;
    /** spec.priority (0 when unset) and its class; see {@link PodPriorities} for the priority preemption uses. */
    final int priority;
    final String priorityClassName;
    /** spec.preemptionPolicy is Never: the pod waits instead of preempting. */
    final boolean preemptNever;
    /** The PersistentVolumeClaims its volumes name: empty for most pods, which then skip volume binding. */
    final List<String> claims;
    /** The spec this was computed from: a pod whose counted spec fields, labels and state are unchanged counts the same. */
    final PodSpec spec;

    private PodInfo(Pod pod) {
        namespace = pod.getMetadata().getNamespace();
        name = pod.getMetadata().getName();
        uid = pod.getMetadata().getUid();
        resourceVersion = pod.getMetadata().getResourceVersion();
        labels = pod.getMetadata().getLabels() == null ? Map.of() : Map.copyOf(pod.getMetadata().getLabels());
        terminating = pod.getMetadata().getDeletionTimestamp() != null;
        PodSpec spec = pod.getSpec() == null ? new PodSpec() : pod.getSpec();
        gated = spec.getSchedulingGates() != null && !spec.getSchedulingGates().isEmpty();
        claims = io.eventplane.core.meta.PersistentVolumes.claimNames(spec);
        this.spec = spec;
        priority = spec.getPriority() == null ? 0 : spec.getPriority();
        priorityClassName = spec.getPriorityClassName() == null || spec.getPriorityClassName().isEmpty() ? null
                : spec.getPriorityClassName();
        preemptNever = "Never".equals(spec.getPreemptionPolicy());
        demand = PodDemand.of(spec);
        cpu = demand.requests().get("cpu");
        memory = demand.requests().get("memory");
        ephemeral = demand.requests().get("ephemeral-storage");
        nonZeroCpu = demand.scoring().get("cpu");
        nonZeroMemory = demand.scoring().get("memory");
        Map<String, Long> ext = new java.util.TreeMap<>();
        demand.requests().milli().forEach((k, v) -> {
            if (!k.equals("cpu") && !k.equals("memory") && !k.equals("ephemeral-storage") && !k.equals("pods") && v > 0) {
                ext.put(k, v);
            }
        });
        extended = Map.copyOf(ext);
        tolerations = spec.getTolerations() == null ? List.of() : List.copyOf(spec.getTolerations());
        nodeName = spec.getNodeName() == null || spec.getNodeName().isEmpty() ? null : spec.getNodeName();
        nodeSelector = spec.getNodeSelector() == null || spec.getNodeSelector().isEmpty() ? null : spec.getNodeSelector();
        Affinity a = spec.getAffinity();
        NodeSelector required = null;
        List<PreferredSchedulingTerm> preferred = List.of();
        List<Term> ra = List.of();
        List<Term> raa = List.of();
        List<Term> pa = List.of();
        List<Term> paa = List.of();
        if (a != null) {
            if (a.getNodeAffinity() != null) {
                required = a.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
                if (a.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution() != null) {
                    preferred = List.copyOf(a.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
                }
            }
            if (a.getPodAffinity() != null) {
                ra = terms(a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
                pa = weighted(a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
            }
            if (a.getPodAntiAffinity() != null) {
                raa = terms(a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution());
                paa = weighted(a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
            }
        }
        requiredNodeAffinity = required;
        preferredNodeAffinity = preferred;
        requiredAffinity = ra;
        requiredAntiAffinity = raa;
        preferredAffinity = pa;
        preferredAntiAffinity = paa;
        spreadConstraints = spec.getTopologySpreadConstraints() == null ? List.of()
                : List.copyOf(spec.getTopologySpreadConstraints());
        List<String> ports = new ArrayList<>();
        for (List<Container> cs : java.util.Arrays.asList(spec.getContainers(), spec.getInitContainers())) {
            for (Container c : cs == null ? List.<Container>of() : cs) {
                for (ContainerPort p : c.getPorts() == null ? List.<ContainerPort>of() : c.getPorts()) {
                    if (p.getHostPort() != null && p.getHostPort() > 0) {
                        String ip = p.getHostIP() == null || p.getHostIP().isEmpty() ? "0.0.0.0" : p.getHostIP();
                        ports.add((p.getProtocol() == null ? "TCP" : p.getProtocol()) + "/" + ip + "/" + p.getHostPort());
                    }
                }
            }
        }
        hostPorts = List.copyOf(ports);
    }

    public static PodInfo of(Pod pod) {
        return new PodInfo(pod);
    }

    /** Whether {@code pod} (another version of this pod, e.g. bound or with a new status) would be counted the same. */
    boolean countsSameAs(Pod pod) {
        ObjectMeta m = pod.getMetadata();
        Map<String, String> l = m.getLabels() == null ? Map.of() : m.getLabels();
        if (!java.util.Objects.equals(uid, m.getUid()) || terminating != (m.getDeletionTimestamp() != null)
                || !labels.equals(l) || pod.getSpec() == null) {
            return false;
        }
        PodSpec other = pod.getSpec();
        // The fields counted (deep equality, no copies); nodeName is compared by the caller.
        return java.util.Objects.equals(spec.getContainers(), other.getContainers())
                && java.util.Objects.equals(spec.getInitContainers(), other.getInitContainers())
                && java.util.Objects.equals(spec.getOverhead(), other.getOverhead())
                && java.util.Objects.equals(spec.getTolerations(), other.getTolerations())
                && java.util.Objects.equals(spec.getAffinity(), other.getAffinity())
                && java.util.Objects.equals(spec.getTopologySpreadConstraints(), other.getTopologySpreadConstraints())
                && java.util.Objects.equals(spec.getNodeSelector(), other.getNodeSelector());
    }

    public PodDemand demand() {
        return demand;
    }

    public String uid() {
        return uid;
    }

    public String resourceVersion() {
        return resourceVersion;
    }

    public String namespace() {
        return namespace;
    }

    public String name() {
        return name;
    }

    public List<String> claims() {
        return claims;
    }

    boolean hasAffinityTerms() {
        return !requiredAffinity.isEmpty() || !requiredAntiAffinity.isEmpty() || !preferredAffinity.isEmpty()
                || !preferredAntiAffinity.isEmpty();
    }

    private List<Term> terms(List<PodAffinityTerm> terms) {
        if (terms == null) {
            return List.of();
        }
        List<Term> out = new ArrayList<>();
        for (PodAffinityTerm t : terms) {
            out.add(term(t, 1));
        }
        return List.copyOf(out);
    }

    private List<Term> weighted(List<WeightedPodAffinityTerm> terms) {
        if (terms == null) {
            return List.of();
        }
        List<Term> out = new ArrayList<>();
        for (WeightedPodAffinityTerm t : terms) {
            if (t.getPodAffinityTerm() != null) {
                out.add(term(t.getPodAffinityTerm(), t.getWeight() == null ? 0 : t.getWeight()));
            }
        }
        return List.copyOf(out);
    }

    /** matchLabelKeys become {@code key In (my value)}, mismatchLabelKeys {@code key NotIn (my value)} (keys I lack are ignored). */
    private Term term(PodAffinityTerm t, int weight) {
        LabelSelector selector = t.getLabelSelector();
        List<LabelSelectorRequirement> extra = new ArrayList<>();
        addKeys(extra, t.getMatchLabelKeys(), "In");
        addKeys(extra, t.getMismatchLabelKeys(), "NotIn");
        if (!extra.isEmpty()) {
            selector = withRequirements(selector == null ? new LabelSelector() : selector, extra);
        }
        List<String> namespaces = t.getNamespaces() == null ? List.of() : List.copyOf(t.getNamespaces());
        if (namespaces.isEmpty() && t.getNamespaceSelector() == null) {
            namespaces = List.of(namespace);
        }
        return new Term(selector, namespaces, t.getNamespaceSelector(), t.getTopologyKey(), weight);
    }

    private void addKeys(List<LabelSelectorRequirement> out, List<String> keys, String operator) {
        if (keys == null) {
            return;
        }
        for (String k : keys) {
            String v = labels.get(k);
            if (v != null) {
                out.add(LabelSelectorRequirement.newBuilder().setKey(k).setOperator(operator).setValues(List.of(v)).build());
            }
        }
    }

    static LabelSelector withRequirements(LabelSelector selector, List<LabelSelectorRequirement> extra) {
        List<LabelSelectorRequirement> all = new ArrayList<>();
        if (selector.getMatchExpressions() != null) {
            all.addAll(selector.getMatchExpressions());
        }
        all.addAll(extra);
        return LabelSelector.newBuilder(selector).setMatchExpressions(all).build();
    }
}
