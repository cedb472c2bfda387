package io.eventplane.core.decide;

import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PriorityClass;
import java.util.List;
import java.util.Map;

/**
 * The two PriorityClasses every Kubernetes cluster has (SystemPriorityClasses): the API server creates them when
 * missing, nobody may delete them or change their value.
 */
public final class SystemPriorityClasses {
    public static final String NODE_CRITICAL = "system-node-critical";
    public static final String CLUSTER_CRITICAL = "system-cluster-critical";
    /** Name to value; neither is a global default. */
    public static final Map<String, Integer> VALUES = Map.of(NODE_CRITICAL, 2_000_001_000, CLUSTER_CRITICAL, 2_000_000_000);

    private SystemPriorityClasses() {
    }

    /** The classes as Kubernetes creates them, with its descriptions. */
    public static List<PriorityClass> all() {
        return List.of(
                of(NODE_CRITICAL, "Used for system critical pods that must not be moved from their current node."),
                of(CLUSTER_CRITICAL, "Used for system critical pods that must run in the cluster, but can be moved to "
                        + "another node if necessary."));
    }

    private static PriorityClass of(String name, String description) {
        return PriorityClass.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).build())
                .setValue(VALUES.get(name)).setDescription(description).build();
    }
}
