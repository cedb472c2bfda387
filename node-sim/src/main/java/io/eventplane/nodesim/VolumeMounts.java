package io.eventplane.nodesim;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The kubelet's volume manager for the volumes whose content node-sim knows: a pod's configMap, secret and projected
 * volumes are set up before its sandbox is created, and one that cannot be set up keeps the pod ContainerCreating
 * (POD-6.11). Each failed attempt records a Warning FailedMount per volume and is retried 0.5 s later, then after twice
 * as long each time up to 2m2s, as the kubelet's operation executor backs off.
 */
final class VolumeMounts {
    static final Duration FIRST_RETRY = Duration.ofMillis(500);
    static final Duration MAX_RETRY = Duration.ofSeconds(122);

    private record Retry(int failures, Instant at) {
    }

    /** By pod uid: the pods whose volumes failed, with their next attempt. */
    private final Map<String, Retry> retries = new HashMap<>();

    /**
     * Sets up the pod's volumes at {@code now}: empty once all can be, else when to try again. An attempt that fails
     * records its FailedMount events; a look before the retry is due (an object it refers to changed) records nothing
     * unless it succeeds.
     */
    Optional<Instant> setUp(Pod pod, ConfigReferences.Objects objects, Instant now, Consumer<EventNotice> record) {
        String uid = pod.getMetadata().getUid();
        List<String> failures = ConfigReferences.mountErrors(pod, objects);
        if (failures.isEmpty()) {
            retries.remove(uid);
            return Optional.empty();
        }
        Retry before = retries.get(uid);
        if (before != null && now.isBefore(before.at())) {
            return Optional.of(before.at());
        }
        ObjectReference ref = ObjectReferences.of(pod);
        failures.forEach(message -> record.accept(EventNotice.warning(ref, "FailedMount", message)));
        int failed = before == null ? 1 : before.failures() + 1;
        Retry next = new Retry(failed, now.plus(delay(failed)));
        retries.put(uid, next);
        return Optional.of(next.at());
    }

    /** The pod is gone or no longer this node's. */
    void forget(String uid) {
        retries.remove(uid);
    }

    /** The wait after failure number {@code failures} (1-based): 0.5, 1, 2, 4 ... 122 s. */
    static Duration delay(int failures) {
        Duration d = FIRST_RETRY;
        for (int i = 1; i < failures && d.compareTo(MAX_RETRY) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : d;
    }
}
