package io.eventplane.scheduler;

import io.eventplane.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/**
 * The scheduler's own bindings that the view does not show yet (Kubernetes' AssumePod): counted on their node so the
 * next decisions do not overcommit it. An assumption ends when the view shows the pod bound, when the pod is gone or
 * replaced (another uid), or when it expires because the binding never showed up.
 *
 * <p>Pruning costs what changed, not how many pods are assumed: only the pods the view reported changed
 * ({@link #changed}) are looked at again, and expiry reads the oldest assumptions first, stopping at the first that
 * is not due (assumptions are made in time order).
 */
public final class AssumedPods {
    public record Assumed(String key, String uid, String node, PodInfo pod, Instant at) {
    }

    private final Map<String, Assumed> byKey = new ConcurrentHashMap<>();
    /** Every assumption made, oldest first; those forgotten or replaced since are skipped when they come up. */
    private final Queue<Assumed> byAge = new ConcurrentLinkedQueue<>();
    /** Pods the view changed since the last prune (any thread reports, the pruning thread reads). */
    private final Queue<String> changed = new ConcurrentLinkedQueue<>();
    private final Duration timeout;

    public AssumedPods(Duration timeout) {
        this.timeout = timeout;
    }

    public void assume(Assumed a) {
        byKey.put(a.key(), a);
        byAge.add(a);
    }

    /**
     * The view changed the pod under {@code key} (report every binding, even one not assumed yet: the view may show it
     * before the assumption is made): the next {@link #prune} looks at its assumption again.
     */
    public void changed(String key) {
        changed.add(key);
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
     * pods need another decision). Settled means: the view reported the pod changed ({@link #changed}) and now shows
     * it bound, gone or replaced; an assumption the view never reported is settled when it comes up for expiry.
     *
     * @param podInView the pod the view holds under a key
     */
    public List<Assumed> prune(Function<String, Optional<Pod>> podInView, Instant now) {
        for (String key = changed.poll(); key != null; key = changed.poll()) {
            Assumed a = byKey.get(key);
            if (a != null && settled(a, podInView)) {
                forget(a.key(), a.uid());
            }
        }
        List<Assumed> expired = new ArrayList<>();
        for (Assumed a = byAge.peek(); a != null; a = byAge.peek()) {
            if (byKey.get(a.key()) != a) {
                byAge.poll(); // forgotten or assumed again since
            } else if (a.at().plus(timeout).isBefore(now)) {
                byAge.poll();
                forget(a.key(), a.uid());
                if (!settled(a, podInView)) {
                    expired.add(a);
                }
            } else {
                break;
            }
        }
        return expired;
    }

    private static boolean settled(Assumed a, Function<String, Optional<Pod>> podInView) {
        Optional<Pod> pod = podInView.apply(a.key());
        return pod.isEmpty() || !a.uid().equals(pod.get().getMetadata().getUid()) || isBound(pod.get());
    }

    public Collection<Assumed> all() {
        return byKey.values();
    }

    static boolean isBound(Pod pod) {
        return pod.getSpec() != null && pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
    }
}
