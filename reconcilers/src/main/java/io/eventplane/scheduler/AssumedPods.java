package io.eventplane.scheduler;

import io.eventplane.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The scheduler's own bindings that the view does not show yet (Kubernetes' AssumePod): counted on their node so the
 * next decisions do not overcommit it. An assumption ends when the view shows the pod bound, when the pod is gone or
 * replaced (another uid), or when it expires because the binding never showed up.
 */
public final class AssumedPods {
    public record Assumed(String key, String uid, String node, PodInfo pod, Instant at) {
    }

    private final Map<String, Assumed> byKey = new ConcurrentHashMap<>();
    private final Duration timeout;

    public AssumedPods(Duration timeout) {
        this.timeout = timeout;
    }

    public void assume(Assumed a) {
        byKey.put(a.key(), a);
    }

    public boolean isAssumed(String key, String uid) {
        Assumed a = byKey.get(key);
        return a != null && a.uid().equals(uid);
    }

    public void forget(String key, String uid) {
        byKey.computeIfPresent(key, (k, a) -> a.uid().equals(uid) ? null : a);
    }

    public boolean contains(String key) {
        return byKey.containsKey(key);
    }

    public int size() {
        return byKey.size();
    }

    /**
     * Drops the assumptions the view has settled and those older than the timeout, and returns the expired ones (their
     * pods need another decision).
     *
     * @param podInView the pod the view holds under a key
     */
    public List<Assumed> prune(Function<String, Optional<Pod>> podInView, Instant now) {
        List<Assumed> expired = new ArrayList<>();
        for (Assumed a : byKey.values()) {
            Optional<Pod> pod = podInView.apply(a.key());
            boolean settled = pod.isEmpty() || !a.uid().equals(pod.get().getMetadata().getUid())
                    || isBound(pod.get());
            if (settled) {
                forget(a.key(), a.uid());
            } else if (a.at().plus(timeout).isBefore(now)) {
                forget(a.key(), a.uid());
                expired.add(a);
            }
        }
        return expired;
    }

    public Collection<Assumed> all() {
        return byKey.values();
    }

    static boolean isBound(Pod pod) {
        return pod.getSpec() != null && pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
    }
}
