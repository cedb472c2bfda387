package io.eventplane.testkit.objects;

import io.eventplane.model.OwnerReference;
import java.util.Map;

/** An owner reference: apiVersion from the kind; controller and blockOwnerDeletion unset until asked for. */
public final class OwnerRefBuilder {
    /** Each owner kind's apiVersion, as core's Kinds has it (core's tests use this module, so it cannot use core). */
    private static final Map<String, String> API_VERSIONS = Map.ofEntries(
            Map.entry("Pod", "v1"), Map.entry("Node", "v1"), Map.entry("Namespace", "v1"),
            Map.entry("ReplicationController", "v1"),
            Map.entry("Deployment", "apps/v1"), Map.entry("ReplicaSet", "apps/v1"), Map.entry("StatefulSet", "apps/v1"),
            Map.entry("DaemonSet", "apps/v1"), Map.entry("ControllerRevision", "apps/v1"),
            Map.entry("Job", "batch/v1"), Map.entry("CronJob", "batch/v1"),
            Map.entry("PodDisruptionBudget", "policy/v1"), Map.entry("Lease", "coordination.k8s.io/v1"));

    private final OwnerReference.Builder ref;

    OwnerRefBuilder(String kind, String name, String uid) {
        String apiVersion = API_VERSIONS.get(kind);
        if (apiVersion == null) {
            throw new IllegalArgumentException("no apiVersion known for " + kind + ": build that reference directly");
        }
        ref = OwnerReference.newBuilder().setApiVersion(apiVersion).setKind(kind).setName(name).setUid(uid);
    }

    /** The managing controller (controller true). */
    public OwnerRefBuilder controller() {
        ref.setController(true);
        return this;
    }

    /** blockOwnerDeletion true: foreground deletion of the owner waits for this dependent. */
    public OwnerRefBuilder blockOwnerDeletion() {
        return blockOwnerDeletion(true);
    }

    public OwnerRefBuilder blockOwnerDeletion(boolean block) {
        ref.setBlockOwnerDeletion(block);
        return this;
    }

    public OwnerReference build() {
        return ref.build();
    }
}
