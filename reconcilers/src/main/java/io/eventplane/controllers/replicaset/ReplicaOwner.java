package io.eventplane.controllers.replicaset;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodTemplateSpec;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;

/**
 * A ReplicaSet or a ReplicationController as the replica decision sees it: both keep {@code replicas} pods that match
 * a selector running from a template; only the selector's form (set-based or a map) and the Event source differ.
 *
 * @param object    the stored object (Events refer to it)
 * @param component the Events' source: {@code replicaset-controller} or {@code replication-controller}
 */
public record ReplicaOwner(KindInfo kind, SpecificRecord object, ObjectMeta meta, int replicas, int minReadySeconds,
                           Predicate<Map<String, String>> selector, PodTemplateSpec template,
                           ReplicaFailure currentFailure, String component) {

    public boolean deleting() {
        return meta.getDeletionTimestamp() != null;
    }

    public long generation() {
        return meta.getGeneration() == null ? 0 : meta.getGeneration();
    }
}
