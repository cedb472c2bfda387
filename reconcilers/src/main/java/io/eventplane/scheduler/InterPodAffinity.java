package io.eventplane.scheduler;

import io.eventplane.core.meta.LabelSelectors;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * InterPodAffinity: required pod affinity and anti-affinity of the incoming pod, the required anti-affinity of the
 * pods already placed (symmetry), and the preferred terms of both as a score. Counts are kept per topology pair
 * ({@code key=value}) as Kubernetes does, computed once per decision (PreFilter) and looked up per node (Filter).
 */
final class InterPodAffinity {
    static final String REASON_EXISTING_ANTI = "node(s) didn't satisfy existing pods anti-affinity rules";
    static final String REASON_AFFINITY = "node(s) didn't match pod affinity rules";
    static final String REASON_ANTI = "node(s) didn't match pod anti-affinity rules";
    /** Kubernetes' hardPodAffinityWeight: a placed pod's required affinity to the incoming pod scores like weight 1. */
    static final int HARD_POD_AFFINITY_WEIGHT = 1;

    private InterPodAffinity() {
    }

    /** Whether {@code term} (owned by a pod whose namespace the term defaults to) selects {@code pod}. */
    static boolean matches(PodInfo.Term term, PodInfo pod, ClusterSnapshot snapshot) {
        boolean inNamespace = term.namespaces().contains(pod.namespace);
        if (!inNamespace && term.namespaceSelector() != null) {
            Map<String, String> nsLabels = new HashMap<>(snapshot.namespaceLabels(pod.namespace));
            nsLabels.put("kubernetes.io/metadata.name", pod.namespace);
            inNamespace = LabelSelectors.matches(term.namespaceSelector(), nsLabels);
        }
        return inNamespace && LabelSelectors.matches(term.selector(), pod.labels);
    }

    private static String pair(String key, String value) {
        return key + "\u0000" + value;
    }

    /** PreFilter state. */
    static final class Filter {
        private final PodInfo pod;
        private final Map<String, Integer> existingAnti = new HashMap<>();
        private final Map<String, Integer> affinity = new HashMap<>();
        private final Map<String, Integer> anti = new HashMap<>();
        private final boolean matchesOwnAffinity;

        /** What a Filter's counts depend on besides the cluster: pods with equal keys share one Filter. */
        static Object key(PodInfo pod) {
            return List.of(pod.namespace, pod.labels, pod.requiredAffinity, pod.requiredAntiAffinity);
        }

        /** A pod was placed on {@code node}: count it as the constructor would have. */
        void added(PodInfo placed, NodeState node, ClusterSnapshot snapshot) {
            if (placed.terminating) {
                return;
            }
            for (PodInfo.Term t : placed.requiredAntiAffinity) {
                String v = node.offer.labels().get(t.topologyKey());
                if (v != null && matches(t, pod, snapshot)) {
                    existingAnti.merge(pair(t.topologyKey(), v), 1, Integer::sum);
                }
            }
            count(pod.requiredAffinity, placed, node, snapshot, affinity);
            count(pod.requiredAntiAffinity, placed, node, snapshot, anti);
        }

        Filter(PodInfo pod, ClusterSnapshot snapshot) {
            this.pod = pod;
            for (ClusterSnapshot.Placed placed : snapshot.withRequiredAntiAffinity) {
                if (placed.pod().terminating) {
                    continue;
                }
                for (PodInfo.Term t : placed.pod().requiredAntiAffinity) {
                    String v = placed.node().offer.labels().get(t.topologyKey());
                    if (v != null && matches(t, pod, snapshot)) {
                        existingAnti.merge(pair(t.topologyKey(), v), 1, Integer::sum);
                    }
                }
            }
            if (!pod.requiredAffinity.isEmpty() || !pod.requiredAntiAffinity.isEmpty()) {
                for (NodeState node : snapshot.nodeArray()) {
                    for (PodInfo other : node.pods) {
                        if (other.terminating) {
                            continue;
                        }
                        count(pod.requiredAffinity, other, node, snapshot, affinity);
                        count(pod.requiredAntiAffinity, other, node, snapshot, anti);
                    }
                }
            }
            boolean self = true;
            for (PodInfo.Term t : pod.requiredAffinity) {
                self &= matches(t, pod, snapshot);
            }
            matchesOwnAffinity = self;
        }

        private static void count(List<PodInfo.Term> terms, PodInfo other, NodeState node, ClusterSnapshot snapshot,
                                  Map<String, Integer> into) {
            for (PodInfo.Term t : terms) {
                String v = node.offer.labels().get(t.topologyKey());
                if (v != null && matches(t, other, snapshot)) {
                    into.merge(pair(t.topologyKey(), v), 1, Integer::sum);
                }
            }
        }

        boolean trivial() {
            return existingAnti.isEmpty() && pod.requiredAffinity.isEmpty() && pod.requiredAntiAffinity.isEmpty();
        }

        /** The reason the node fails, or null. */
        String reject(NodeState node) {
            Map<String, String> labels = node.offer.labels();
            if (!existingAnti.isEmpty()) {
                for (Map.Entry<String, String> l : labels.entrySet()) {
                    if (existingAnti.getOrDefault(pair(l.getKey(), l.getValue()), 0) > 0) {
                        return REASON_EXISTING_ANTI;
                    }
                }
            }
            if (!pod.requiredAffinity.isEmpty()) {
                boolean podsExist = true;
                for (PodInfo.Term t : pod.requiredAffinity) {
                    String v = labels.get(t.topologyKey());
                    if (v == null) {
                        return REASON_AFFINITY; // every topology key must be on the node
                    }
                    if (affinity.getOrDefault(pair(t.topologyKey(), v), 0) <= 0) {
                        podsExist = false;
                    }
                }
                // The first pod of a group with affinity to itself may go anywhere, else none could ever start.
                if (!podsExist && !(affinity.isEmpty() && matchesOwnAffinity)) {
                    return REASON_AFFINITY;
                }
            }
            for (PodInfo.Term t : pod.requiredAntiAffinity) {
                String v = labels.get(t.topologyKey());
                if (v != null && anti.getOrDefault(pair(t.topologyKey(), v), 0) > 0) {
                    return REASON_ANTI;
                }
            }
            return null;
        }
    }

    /**
     * Preferred (anti-)affinity score over the feasible nodes, normalized to 0..100 between the lowest and highest
     * raw score; null when nothing contributes (every node would score the same).
     */
    static int[] scores(PodInfo pod, ClusterSnapshot snapshot, NodeState[] feasible, int n) {
        boolean own = !pod.preferredAffinity.isEmpty() || !pod.preferredAntiAffinity.isEmpty();
        Map<String, Long> topologyScore = new HashMap<>();
        if (own) {
            for (NodeState node : snapshot.nodeArray()) {
                for (PodInfo other : node.pods) {
                    contribute(pod, other, node, snapshot, topologyScore);
                }
            }
        } else {
            for (ClusterSnapshot.Placed placed : snapshot.withAffinityTerms) {
                contribute(pod, placed.pod(), placed.node(), snapshot, topologyScore);
            }
        }
        if (topologyScore.isEmpty()) {
            return null;
        }
        long[] raw = new long[n];
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int k = 0; k < n; k++) {
            long s = 0;
            for (Map.Entry<String, String> l : feasible[k].offer.labels().entrySet()) {
                s += topologyScore.getOrDefault(pair(l.getKey(), l.getValue()), 0L);
            }
            raw[k] = s;
            min = Math.min(min, s);
            max = Math.max(max, s);
        }
        int[] out = new int[n];
        long diff = max - min;
        for (int k = 0; k < n; k++) {
            out[k] = diff > 0 ? (int) (100 * (raw[k] - min) / diff) : 0;
        }
        return out;
    }

    private static void contribute(PodInfo pod, PodInfo other, NodeState node, ClusterSnapshot snapshot,
                                   Map<String, Long> into) {
        if (other.terminating) {
            return;
        }
        Map<String, String> labels = node.offer.labels();
        for (PodInfo.Term t : pod.preferredAffinity) {
            add(t, labels, matches(t, other, snapshot), t.weight(), into);
        }
        for (PodInfo.Term t : pod.preferredAntiAffinity) {
            add(t, labels, matches(t, other, snapshot), -t.weight(), into);
        }
        for (PodInfo.Term t : other.requiredAffinity) {
            add(t, labels, matches(t, pod, snapshot), HARD_POD_AFFINITY_WEIGHT, into);
        }
        for (PodInfo.Term t : other.preferredAffinity) {
            add(t, labels, matches(t, pod, snapshot), t.weight(), into);
        }
        for (PodInfo.Term t : other.preferredAntiAffinity) {
            add(t, labels, matches(t, pod, snapshot), -t.weight(), into);
        }
    }

    private static void add(PodInfo.Term t, Map<String, String> labels, boolean matches, long weight,
                            Map<String, Long> into) {
        if (!matches || weight == 0) {
            return;
        }
        String v = labels.get(t.topologyKey());
        if (v != null) {
            into.merge(pair(t.topologyKey(), v), weight, Long::sum);
        }
    }
}
