package io.eventplane.faults;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.log.LogReader;
import io.eventplane.core.Keys;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The event log read back whole, and what must hold of it whatever was killed: no command applied twice (each request
 * id in at most one change), each acknowledged write there exactly once, and no ReplicaSet that created a pod while
 * it already had its replicas (twins) or more pods than it ever asked for.
 */
final class LogCheck {
    final List<ObjectChanged> changes = new ArrayList<>();

    static LogCheck read(EventplaneConfig config) {
        LogCheck check = new LogCheck();
        List<org.apache.kafka.clients.consumer.ConsumerRecord<String, ObjectChanged>> records = new ArrayList<>();
        new LogReader<>(config, config.topics().events(), LogSerdes.changes(config).deserializer())
                .timeout(Duration.ofMinutes(2))
                .readAll(r -> {
                    if (r.value() != null) {
                        records.add(r);
                    }
                    return true;
                });
        // With several partitions the reader interleaves them as it fetched them; the checks that fold across objects
        // (a ReplicaSet's active pods) need causes before effects.
        io.eventplane.client.log.AppendOrder.merge(records).forEach(r -> check.changes.add(r.value()));
        return check;
    }

    /** Request ids carried by more than one change, with their count: a command applied twice. */
    Map<String, Integer> repeatedRequests() {
        Map<String, Integer> counts = new HashMap<>();
        changes.forEach(c -> counts.merge(c.getEnvelope().getRequestId(), 1, Integer::sum));
        Map<String, Integer> repeated = new LinkedHashMap<>();
        counts.forEach((id, n) -> {
            if (n > 1) {
                repeated.put(id, n);
            }
        });
        return repeated;
    }

    /** The objects of these kinds in {@code namespace} the log, folded from its start, says exist: key@resourceVersion. */
    List<String> liveVersions(String namespace, String... kinds) {
        Set<String> wanted = Set.of(kinds);
        Map<String, Long> live = new LinkedHashMap<>();
        for (ObjectChanged c : changes) {
            if (!wanted.contains(c.getKind()) || !namespace.equals(c.getNamespace())) {
                continue;
            }
            String key = Keys.of(c.getKind(), c.getNamespace(), c.getName());
            if (c.getType() == ChangeType.DELETED) {
                live.remove(key);
            } else {
                live.put(key, c.getResourceVersion());
            }
        }
        List<String> out = new ArrayList<>();
        live.forEach((key, rv) -> out.add(key + "@" + rv));
        return out;
    }

    /** How many changes of {@code key} have resourceVersion {@code rv}: 1 for a write that was acknowledged. */
    long count(String key, long rv) {
        return changes.stream().filter(c -> c.getResourceVersion() == rv
                && Keys.of(c.getKind(), c.getNamespace(), c.getName()).equals(key)).count();
    }

    /** Changes whose object has this uid and key: 1 CREATED for a create that was acknowledged. */
    long creations(String key, String uid) {
        return changes.stream().filter(c -> c.getType() == ChangeType.CREATED
                && Keys.of(c.getKind(), c.getNamespace(), c.getName()).equals(key)
                && uid.equals(io.eventplane.core.meta.ObjectAccess.meta(
                        (org.apache.avro.specific.SpecificRecord) c.getObject()).getUid())).count();
    }

    /** Per ReplicaSet uid: how many pods it created, and the most replicas it ever had. */
    record ReplicaSetTally(String name, int podsCreated, int maxReplicas) {
    }

    /**
     * Folds the log: at each pod a ReplicaSet created, the ReplicaSet's active pods (this one included) must not exceed
     * its replicas at that position. Returns every violation, worded.
     */
    List<String> replicaSetViolations(Map<String, ReplicaSetTally> tallies) {
        Map<String, Integer> replicas = new HashMap<>();
        Map<String, String> names = new HashMap<>();
        Map<String, Set<String>> active = new HashMap<>();
        Map<String, String> ownerOfPod = new HashMap<>();
        Map<String, Integer> created = new HashMap<>();
        Map<String, Integer> maxReplicas = new HashMap<>();
        List<String> violations = new ArrayList<>();
        for (ObjectChanged c : changes) {
            String key = Keys.of(c.getKind(), c.getNamespace(), c.getName());
            if (c.getObject() instanceof ReplicaSet rs) {
                String uid = rs.getMetadata().getUid();
                int r = rs.getSpec() == null || rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas();
                replicas.put(uid, r);
                names.put(uid, key);
                maxReplicas.merge(uid, r, Math::max);
            } else if (c.getObject() instanceof Pod pod) {
                Optional<OwnerReference> owner = Owners.controllerOf(pod.getMetadata());
                if (owner.isEmpty() || !"ReplicaSet".equals(owner.get().getKind())) {
                    continue;
                }
                String rsUid = owner.get().getUid();
                Set<String> pods = active.computeIfAbsent(rsUid, u -> new HashSet<>());
                boolean stillActive = c.getType() != ChangeType.DELETED && PodStates.isActive(pod);
                if (c.getType() == ChangeType.CREATED) {
                    created.merge(rsUid, 1, Integer::sum);
                    pods.add(key);
                    ownerOfPod.put(key, rsUid);
                    int wanted = replicas.getOrDefault(rsUid, 0);
                    if (pods.size() > wanted) {
                        violations.add("rv " + c.getResourceVersion() + ": " + names.get(rsUid) + " created " + key
                                + " with " + pods.size() + " active pods for " + wanted + " replicas");
                    }
                } else if (!stillActive) {
                    pods.remove(key);
                }
            }
        }
        created.forEach((uid, n) -> tallies.put(uid, new ReplicaSetTally(names.get(uid), n,
                maxReplicas.getOrDefault(uid, 0))));
        return violations;
    }
}
