package io.eventplane.gateway.patch;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How the list fields of the stored kinds merge, by field name (Kubernetes' {@code patchMergeKey},
 * {@code patchStrategy}, {@code listType} and {@code listMapKey} struct tags, which our Avro schemas do not carry).
 * Where two kinds use one field name for differently merged lists, the element record decides: a Service's
 * {@code ports} are keyed by port and protocol, a container's by containerPort, an EndpointSlice's are atomic.
 * Strategic merge patch, server-side apply and the OpenAPI document all read it, so they never disagree.
 */
public final class ListStrategies {
    /** patchMergeKey of the keyed lists, by field name. */
    private static final Map<String, String> MERGE_KEYS = Map.ofEntries(
            Map.entry("containers", "name"), Map.entry("initContainers", "name"),
            Map.entry("ephemeralContainers", "name"), Map.entry("volumes", "name"), Map.entry("env", "name"),
            Map.entry("imagePullSecrets", "name"), Map.entry("resourceClaims", "name"),
            Map.entry("schedulingGates", "name"), Map.entry("ports", "containerPort"),
            Map.entry("volumeMounts", "mountPath"), Map.entry("volumeDevices", "devicePath"),
            Map.entry("conditions", "type"), Map.entry("addresses", "type"), Map.entry("ownerReferences", "uid"),
            Map.entry("hostAliases", "ip"), Map.entry("podIPs", "ip"), Map.entry("hostIPs", "ip"),
            Map.entry("topologySpreadConstraints", "topologyKey"), Map.entry("secrets", "name"));
    /** listMapKeys where they are more than the merge key (a container port is keyed by port and protocol). */
    private static final Map<String, List<String>> MAP_KEYS = Map.of(
            "ports", List.of("containerPort", "protocol"),
            "topologySpreadConstraints", List.of("topologyKey", "whenUnsatisfiable"));
    /** Keyed lists whose element record, not their field name, gives the keys (the first is the merge key). */
    private static final Map<String, List<String>> KEYS_BY_ELEMENT = Map.of("ServicePort", List.of("port", "protocol"));
    /** Element records of atomic lists whose field name the table above keys for another kind. */
    private static final Set<String> ATOMIC_ELEMENTS = Set.of("EndpointPort", "EndpointAddress", "PortStatus",
            "NetworkPolicyPort", "IngressPortStatus");
    /** Lists of strings that merge as sets (patchStrategy "merge"). */
    private static final Set<String> SET_LISTS = Set.of("finalizers");
    /** Lists whose patchStrategy also retains keys. */
    private static final Set<String> RETAIN_KEYS = Set.of("volumes");

    private ListStrategies() {
    }

    /**
     * The merge key of a list of objects, if it merges by key.
     *
     * @param elementType the simple name of the list's element record, or null when unknown
     */
    public static Optional<String> mergeKey(String field, String elementType) {
        List<String> keys = mapKeys(field, elementType);
        return keys.isEmpty() ? Optional.empty() : Optional.of(keys.get(0));
    }

    /** The keys that identify an element of a keyed list (server-side apply's listMapKeys); empty if not keyed. */
    public static List<String> mapKeys(String field, String elementType) {
        if (elementType != null) {
            List<String> byElement = KEYS_BY_ELEMENT.get(elementType);
            if (byElement != null) {
                return byElement;
            }
            if (ATOMIC_ELEMENTS.contains(elementType)) {
                return List.of();
            }
        }
        List<String> keys = MAP_KEYS.get(field);
        if (keys != null) {
            return keys;
        }
        String key = MERGE_KEYS.get(field);
        return key == null ? List.of() : List.of(key);
    }

    /** Whether the list is known to be atomic (replaced whole) whatever its elements carry. */
    public static boolean isAtomic(String elementType) {
        return elementType != null && ATOMIC_ELEMENTS.contains(elementType);
    }

    /** Whether a list of strings merges as a set. */
    public static boolean isSet(String field) {
        return SET_LISTS.contains(field);
    }

    /** The patchStrategy tag of a list field: {@code merge}, {@code merge,retainKeys}, or empty (replace). */
    public static String patchStrategy(String field, String elementType) {
        if (RETAIN_KEYS.contains(field)) {
            return "merge,retainKeys";
        }
        return !mapKeys(field, elementType).isEmpty() || SET_LISTS.contains(field) ? "merge" : "";
    }
}
