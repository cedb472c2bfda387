package io.eventplane.scheduler;

import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.LabelSelectorRequirement;
import io.eventplane.model.Taint;
import io.eventplane.model.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PodTopologySpread (spec/pods.md section 16): the DoNotSchedule constraints filter, the ScheduleAnyway ones score.
 * A constraint's domains are the values of its topologyKey on the nodes that have the label and pass its node
 * inclusion policies (nodeAffinityPolicy Honor by default, nodeTaintsPolicy Ignore by default); a domain counts the
 * non-terminating pods of the incoming pod's namespace that match the selector (labelSelector plus matchLabelKeys).
 * A node passes if {@code count(its domain) + self - globalMin <= maxSkew}, where self is 1 when the pod matches its
 * own selector and the global minimum is 0 while fewer than minDomains domains exist.
 */
final class TopologySpread {
    static final String HOSTNAME = "kubernetes.io/hostname";
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String REASON_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
    static final String REASON_MISSING_LABEL = "node(s) didn't match pod topology spread constraints (missing required label)";

    /** POD-16.16: Kubernetes' built-in defaults, used when the profile defines none (defaultingType System). */
    static final List<TopologySpreadConstraint> SYSTEM_DEFAULTS = List.of(
            TopologySpreadConstraint.newBuilder().setMaxSkew(3).setTopologyKey(HOSTNAME)
                    .setWhenUnsatisfiable("ScheduleAnyway").build(),
            TopologySpreadConstraint.newBuilder().setMaxSkew(5).setTopologyKey(ZONE)
                    .setWhenUnsatisfiable("ScheduleAnyway").build());

    /** A constraint ready to evaluate. */
    record Constraint(int maxSkew, String topologyKey, LabelSelector selector, int minDomains,
                      boolean honorAffinity, boolean honorTaints, boolean selfMatch, String selectorKey) {

    }

    private TopologySpread() {
    }

    /**
     * The constraints of a pod with the given effect: its own, or, when it has none and belongs to a workload
     * (POD-16.14), the cluster defaults with the workloads' selector.
     *
     * @param defaults the profile's default constraints
     * @return the constraints and whether they are the system defaults
     */
    static List<Constraint> constraints(PodInfo pod, ClusterSnapshot snapshot, List<TopologySpreadConstraint> defaults,
                                        String whenUnsatisfiable) {
        List<Constraint> out = new ArrayList<>();
        if (!pod.spreadConstraints.isEmpty()) {
            for (TopologySpreadConstraint c : pod.spreadConstraints) {
                String when = c.getWhenUnsatisfiable() == null ? "DoNotSchedule" : c.getWhenUnsatisfiable();
                if (when.equals(whenUnsatisfiable)) {
                    out.add(constraint(c, selector(pod, c), pod, snapshot));
                }
            }
            return out;
        }
        if (defaults.isEmpty()) {
            return out;
        }
        LabelSelector workloads = workloadSelector(pod, snapshot);
        if (workloads == null) {
            return out;
        }
        for (TopologySpreadConstraint c : defaults) {
            String when = c.getWhenUnsatisfiable() == null ? "DoNotSchedule" : c.getWhenUnsatisfiable();
            if (when.equals(whenUnsatisfiable)) {
                out.add(constraint(c, workloads, pod, snapshot));
            }
        }
        return out;
    }

    private static Constraint constraint(TopologySpreadConstraint c, LabelSelector selector, PodInfo pod,
                                         ClusterSnapshot snapshot) {
        int minDomains = c.getMinDomains() == null ? 1 : c.getMinDomains();
        return new Constraint(c.getMaxSkew() == null ? 1 : c.getMaxSkew(), c.getTopologyKey(), selector, minDomains,
                !"Ignore".equals(c.getNodeAffinityPolicy()), "Honor".equals(c.getNodeTaintsPolicy()),
                LabelSelectors.matches(selector, pod.labels), selectorKey(pod.namespace, selector, snapshot));
    }

    /**
     * The per-node count memo's key of a selector in a namespace. The pods of one workload share their selector
     * object (the workload selector is memoized), so the key is made once per selector and reused: one String whose
     * hash is cached and whose lookups compare by identity first, instead of the selector printed for every pod.
     */
    private static String selectorKey(String namespace, LabelSelector selector, ClusterSnapshot snapshot) {
        Map<LabelSelector, String> keys = snapshot.selectorKeys.computeIfAbsent(namespace,
                n -> new java.util.IdentityHashMap<>());
        String key = keys.get(selector);
        if (key == null) {
            key = (namespace + '\u0000' + selector).intern();
            keys.put(selector, key);
        }
        return key;
    }

    /** labelSelector plus {@code key In (the pod's value)} for every matchLabelKeys key the pod has. */
    private static LabelSelector selector(PodInfo pod, TopologySpreadConstraint c) {
        LabelSelector s = c.getLabelSelector();
        if (c.getMatchLabelKeys() == null || c.getMatchLabelKeys().isEmpty() || s == null) {
            return s;
        }
        List<LabelSelectorRequirement> extra = new ArrayList<>();
        for (String k : c.getMatchLabelKeys()) {
            String v = pod.labels.get(k);
            if (v != null) {
                extra.add(LabelSelectorRequirement.newBuilder().setKey(k).setOperator("In").setValues(List.of(v)).build());
            }
        }
        return extra.isEmpty() ? s : PodInfo.withRequirements(s, extra);
    }

    /**
     * The selectors of the workloads in the pod's namespace whose selector matches the pod, ANDed; null when none
     * (the pod then gets no default constraints).
     */
    static LabelSelector workloadSelector(PodInfo pod, ClusterSnapshot snapshot) {
        Object key = List.of(pod.namespace, pod.labels == null ? Map.of() : pod.labels);
        java.util.Optional<LabelSelector> known = snapshot.workloadSelectorMemo.get(key);
        if (known == null) {
            known = java.util.Optional.ofNullable(readWorkloadSelector(pod, snapshot));
            snapshot.workloadSelectorMemo.put(key, known);
        }
        return known.orElse(null);
    }

    private static LabelSelector readWorkloadSelector(PodInfo pod, ClusterSnapshot snapshot) {
        Map<String, String> matchLabels = new LinkedHashMap<>();
        List<LabelSelectorRequirement> expressions = new ArrayList<>();
        boolean any = false;
        for (ClusterSnapshot.WorkloadSelector w : snapshot.workloads()) {
            if (!w.namespace().equals(pod.namespace) || LabelSelectors.isEmpty(w.selector())
                    || !LabelSelectors.matches(w.selector(), pod.labels)) {
                continue;
            }
            any = true;
            if (w.selector().getMatchLabels() != null) {
                matchLabels.putAll(w.selector().getMatchLabels());
            }
            if (w.selector().getMatchExpressions() != null) {
                expressions.addAll(w.selector().getMatchExpressions());
            }
        }
        return any ? LabelSelector.newBuilder().setMatchLabels(matchLabels).setMatchExpressions(expressions).build() : null;
    }

    static boolean includes(Constraint c, PodInfo pod, NodeState.Offer node) {
        if (c.honorAffinity && !NodeMatch.requiredNodeAffinity(pod, node)) {
            return false;
        }
        if (c.honorTaints) {
            Taint t = NodeMatch.untoleratedHardTaint(pod.tolerations, node.taints());
            return t == null;
        }
        return true;
    }

    /**
     * Matching pods on one node, remembered by the node until its pods change (the default spread asks a lot). The
     * constraint's key names the pod's namespace and the selector, built once per constraint.
     */
    static int countMatching(NodeState node, Constraint c, String namespace) {
        return node.matching(c.selectorKey(), () -> countMatching(node.pods, c.selector(), namespace));
    }

    static int countMatching(List<PodInfo> pods, LabelSelector selector, String namespace) {
        int n = 0;
        for (PodInfo p : pods) {
            if (!p.terminating && p.namespace.equals(namespace) && LabelSelectors.matches(selector, p.labels)) {
                n++;
            }
        }
        return n;
    }

    /** PreFilter state: per constraint, the matching pods per domain and the global minimum. */
    static final class Filter {
        final List<Constraint> constraints;
        final List<Map<String, Integer>> counts = new ArrayList<>();
        final int[] min;
        private final PodInfo pod;

        /** What a Filter's counts depend on besides the cluster: pods with equal keys share one Filter. */
        static Object key(PodInfo pod, List<Constraint> constraints) {
            boolean taints = constraints.stream().anyMatch(Constraint::honorTaints);
            return List.of(pod.namespace, constraints, String.valueOf(pod.nodeSelector), String.valueOf(pod.requiredNodeAffinity),
                    taints ? pod.tolerations : List.of());
        }

        Filter(PodInfo pod, ClusterSnapshot snapshot, List<Constraint> constraints) {
            this.pod = pod;
            this.constraints = constraints;
            this.min = new int[constraints.size()];
            for (int i = 0; i < constraints.size(); i++) {
                counts.add(new HashMap<>());
            }
            for (NodeState node : snapshot.nodeArray()) {
                if (!hasAll(constraints, node.offer)) {
                    continue;
                }
                for (int i = 0; i < constraints.size(); i++) {
                    Constraint c = constraints.get(i);
                    if (!includes(c, pod, node.offer)) {
                        continue;
                    }
                    String value = node.topologyValue(c.topologyKey);
                    counts.get(i).merge(value, countMatching(node, c, pod.namespace), Integer::sum);
                }
            }
            for (int i = 0; i < constraints.size(); i++) {
                Map<String, Integer> domains = counts.get(i);
                int m = Integer.MAX_VALUE;
                for (int v : domains.values()) {
                    m = Math.min(m, v);
                }
                // POD-16.21 minDomains: while fewer domains exist than required, the global minimum counts as 0.
                min[i] = domains.isEmpty() || domains.size() < constraints.get(i).minDomains ? 0 : m;
            }
        }

        /** A pod was placed on {@code node}: count it where it matches, as the constructor would have. */
        void added(PodInfo placed, NodeState node) {
            if (placed.terminating || !placed.namespace.equals(pod.namespace) || !hasAll(constraints, node.offer)) {
                return;
            }
            for (int i = 0; i < constraints.size(); i++) {
                Constraint c = constraints.get(i);
                if (!includes(c, pod, node.offer) || !LabelSelectors.matches(c.selector, placed.labels)) {
                    continue;
                }
                Map<String, Integer> domains = counts.get(i);
                domains.merge(node.topologyValue(c.topologyKey), 1, Integer::sum);
                int m = Integer.MAX_VALUE;
                for (int v : domains.values()) {
                    m = Math.min(m, v);
                }
                min[i] = domains.size() < c.minDomains ? 0 : m;
            }
        }

        /** The reason the node fails, or null. */
        String reject(NodeState node) {
            for (int i = 0; i < constraints.size(); i++) {
                Constraint c = constraints.get(i);
                String value = node.topologyValue(c.topologyKey);
                if (value == null) {
                    return REASON_MISSING_LABEL;
                }
                int skew = counts.get(i).getOrDefault(value, 0) + (c.selfMatch ? 1 : 0) - min[i];
                if (skew > c.maxSkew) {
                    return REASON_NOT_MATCH;
                }
            }
            return null;
        }
    }

    /**
     * PreScore/Score/NormalizeScore for the ScheduleAnyway constraints over the feasible nodes: fewer matching pods in
     * a node's domains scores higher; nodes lacking a key score 0 (unless the constraints are the system defaults).
     */
    static int[] scores(PodInfo pod, ClusterSnapshot snapshot, List<Constraint> constraints, boolean systemDefaulted,
                        NodeState[] feasible, int n) {
        boolean requireAll = !systemDefaulted;
        Set<String> ignored = new HashSet<>();
        List<Map<String, Integer>> counts = new ArrayList<>();
        double[] weight = new double[constraints.size()];
        for (int i = 0; i < constraints.size(); i++) {
            counts.add(new HashMap<>());
        }
        int hostnameNodes = 0;
        for (int k = 0; k < n; k++) {
            NodeState node = feasible[k];
            if (requireAll && !hasAll(constraints, node.offer)) {
                ignored.add(node.name());
                continue;
            }
            hostnameNodes++;
            for (int i = 0; i < constraints.size(); i++) {
                Constraint c = constraints.get(i);
                String v = node.topologyValue(c.topologyKey);
                if (!HOSTNAME.equals(c.topologyKey) && v != null) {
                    counts.get(i).putIfAbsent(v, 0);
                }
            }
        }
        for (int i = 0; i < constraints.size(); i++) {
            int size = HOSTNAME.equals(constraints.get(i).topologyKey) ? hostnameNodes : counts.get(i).size();
            weight[i] = Math.log(size + 2);
        }
        ScoreCounts all = ScoreCounts.of(pod, snapshot, constraints, requireAll);
        for (int i = 0; i < constraints.size(); i++) {
            if (!HOSTNAME.equals(constraints.get(i).topologyKey)) {
                Map<String, Integer> domains = all.counts.get(i);
                counts.get(i).replaceAll((v, zero) -> domains.getOrDefault(v, 0));
            }
        }
        // the hostname constraint's counts per node, from the selector's candidates when it has matchLabels
        List<Map<NodeState, Integer>> perNode = new ArrayList<>();
        for (Constraint c : constraints) {
            java.util.Collection<ClusterSnapshot.Placed> candidates = HOSTNAME.equals(c.topologyKey)
                    ? snapshot.candidates(pod.namespace, c.selector()) : null;
            Map<NodeState, Integer> m = null;
            if (candidates != null) {
                m = new java.util.IdentityHashMap<>();
                for (ClusterSnapshot.Placed p : candidates) {
                    if (!p.pod().terminating && p.pod().namespace.equals(pod.namespace)
                            && LabelSelectors.matches(c.selector, p.pod().labels)) {
                        m.merge(p.node(), 1, Integer::sum);
                    }
                }
            }
            perNode.add(m);
        }
        long[] raw = new long[n];
        long minScore = Long.MAX_VALUE;
        long maxScore = 0;
        for (int k = 0; k < n; k++) {
            NodeState node = feasible[k];
            if (ignored.contains(node.name())) {
                continue;
            }
            double score = 0;
            for (int i = 0; i < constraints.size(); i++) {
                Constraint c = constraints.get(i);
                String v = node.topologyValue(c.topologyKey);
                if (v == null) {
                    continue;
                }
                long cnt = !HOSTNAME.equals(c.topologyKey) ? counts.get(i).getOrDefault(v, 0)
                        : perNode.get(i) != null ? perNode.get(i).getOrDefault(node, 0)
                        : countMatching(node, c, pod.namespace);
                score += cnt * weight[i] + (c.maxSkew - 1);
            }
            raw[k] = Math.round(score);
            minScore = Math.min(minScore, raw[k]);
            maxScore = Math.max(maxScore, raw[k]);
        }
        int[] out = new int[n];
        for (int k = 0; k < n; k++) {
            if (ignored.contains(feasible[k].name())) {
                out[k] = 0;
            } else if (maxScore == 0) {
                out[k] = 100;
            } else {
                out[k] = (int) (100 * (maxScore + minScore - raw[k]) / maxScore);
            }
        }
        return out;
    }

    /**
     * PreScore state: per constraint other than the hostname one, the matching pods per domain over every node that
     * passes the constraint's inclusion policies (and has all the keys, unless the constraints are the system defaults).
     * Pods with equal keys share one, kept current by {@link ClusterSnapshot#add}: the pods of a workload pay the
     * cluster-wide count once, where before each of them counted every node (80% of the scheduler's time at 5,000 nodes).
     */
    static final class ScoreCounts {
        /** At most this many shapes are remembered; the least recently used goes first. */
        static final int MAX_REMEMBERED = 256;
        final List<Constraint> constraints;
        final List<Map<String, Integer>> counts = new ArrayList<>();
        private final PodInfo pod;
        private final boolean requireAll;

        static ScoreCounts of(PodInfo pod, ClusterSnapshot snapshot, List<Constraint> constraints, boolean requireAll) {
            Object key = List.of("score", requireAll, Filter.key(pod, constraints));
            ScoreCounts known = snapshot.scoreMemo.get(key);
            if (known == null) {
                known = new ScoreCounts(pod, snapshot, constraints, requireAll);
                snapshot.scoreMemo.put(key, known);
            }
            return known;
        }

        private ScoreCounts(PodInfo pod, ClusterSnapshot snapshot, List<Constraint> constraints, boolean requireAll) {
            this.pod = pod;
            this.constraints = constraints;
            this.requireAll = requireAll;
            for (int i = 0; i < constraints.size(); i++) {
                counts.add(new HashMap<>());
            }
            for (int i = 0; i < constraints.size(); i++) {
                Constraint c = constraints.get(i);
                if (HOSTNAME.equals(c.topologyKey)) {
                    continue;
                }
                java.util.Collection<ClusterSnapshot.Placed> candidates = snapshot.candidates(pod.namespace, c.selector());
                if (candidates != null) {
                    for (ClusterSnapshot.Placed p : candidates) {
                        count(i, p.pod(), p.node());
                    }
                    continue;
                }
                for (NodeState node : snapshot.nodeArray()) {
                    for (PodInfo p : node.pods) {
                        count(i, p, node);
                    }
                }
            }
        }

        /** Counts {@code placed} on {@code node} for constraint {@code i} where it matches, as the score counts pods. */
        private void count(int i, PodInfo placed, NodeState node) {
            Constraint c = constraints.get(i);
            if (placed.terminating || !placed.namespace.equals(pod.namespace)
                    || (requireAll && !hasAll(constraints, node.offer))) {
                return;
            }
            String v = node.topologyValue(c.topologyKey);
            if (v == null || !includes(c, pod, node.offer) || !LabelSelectors.matches(c.selector, placed.labels)) {
                return;
            }
            counts.get(i).merge(v, 1, Integer::sum);
        }

        /** A pod was placed on {@code node}: count it where it matches, as the constructor would have. */
        void added(PodInfo placed, NodeState node) {
            for (int i = 0; i < constraints.size(); i++) {
                if (!HOSTNAME.equals(constraints.get(i).topologyKey)) {
                    count(i, placed, node);
                }
            }
        }
    }

    private static boolean hasAll(List<Constraint> constraints, NodeState.Offer node) {
        for (Constraint c : constraints) {
            if (!node.labels().containsKey(c.topologyKey)) {
                return false;
            }
        }
        return true;
    }
}
