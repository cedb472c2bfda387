package io.eventplane.nodesim;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The pods kept waiting by a missing ConfigMap, Secret or key, indexed by the objects they refer to: when one of those
 * appears or changes, only its waiters are looked at again, never every pod of the node or namespace.
 */
final class ReferenceWaits {
    /** Pod keys by the view key of an object they refer to. */
    private final Map<String, Set<String>> podsByObject = new HashMap<>();
    /** The reverse: what each waiting pod refers to. */
    private final Map<String, Set<String>> objectsByPod = new HashMap<>();

    /** The pod waits; {@code objects} are the view keys of every ConfigMap and Secret it refers to. */
    void waiting(String podKey, Set<String> objects) {
        Set<String> before = objectsByPod.get(podKey);
        if (objects.equals(before)) {
            return;
        }
        stop(podKey);
        objectsByPod.put(podKey, Set.copyOf(objects));
        for (String o : objects) {
            podsByObject.computeIfAbsent(o, k -> new HashSet<>()).add(podKey);
        }
    }

    /** The pod waits no more (it started, or is gone). */
    void stop(String podKey) {
        Set<String> objects = objectsByPod.remove(podKey);
        if (objects == null) {
            return;
        }
        for (String o : objects) {
            Set<String> pods = podsByObject.get(o);
            if (pods != null && pods.remove(podKey) && pods.isEmpty()) {
                podsByObject.remove(o);
            }
        }
    }

    /** The pods waiting while they refer to this object. */
    Set<String> waitingOn(String objectKey) {
        Set<String> pods = podsByObject.get(objectKey);
        return pods == null ? Set.of() : Set.copyOf(pods);
    }
}
