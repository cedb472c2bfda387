package io.eventplane.gateway.patch;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How the list fields of the stored kinds merge, by field name (Kubernetes' {@code patchMergeKey},
 * {@code patchStrategy}, {@code listType} and {@code listMapKey} struct tags, which our Avro schemas do not carry).
 * Strategic merge patch and the OpenAPI document both read it, so they never disagree.
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
            Map.entry("topologySpreadConstraints", "topologyKey"));
    /** listMapKeys where they are more than the merge key (a container port is keyed by port and protocol). */
    private static final Map<String, List<String>> MAP_KEYS = Map.of(
            "ports", List.of("containerPort", "protocol"),
            "topologySpreadConstraints", List.of("topologyKey", "whenUnsatisfiable"));
    /** Lists of strings that merge as sets (patchStrategy "merge"). */
    private static final Set<String> SET_LISTS = Set.of("finalizers");
    /** Lists whose patchStrategy also retains keys. */
    private static final Set<String> RETAIN_KEYS = Set.of("volumes");

    private ListStrategies() {
    }

    /** The merge key of a list of objects, if it merges by key. */
    public static Optional<String> mergeKey(String field) {
        return Optional.ofNullable(MERGE_KEYS.get(field));
    }

    /** The keys that identify an element of a keyed list (server-side apply's listMapKeys); empty if not keyed. */
    public static List<String> mapKeys(String field) {
        List<String> keys = MAP_KEYS.get(field);
        if (keys != null) {
            return keys;
        }
        String key = MERGE_KEYS.get(field);
        return key == null ? List.of() : List.of(key);
    }

    /** Whether a list of strings merges as a set. */
    public static boolean isSet(String field) {
        return SET_LISTS.contains(field);
    }

    /** The patchStrategy tag of a list field: {@code merge}, {@code merge,retainKeys}, or empty (replace). */
    public static String patchStrategy(String field) {
        if (RETAIN_KEYS.contains(field)) {
            return "merge,retainKeys";
        }
        return MERGE_KEYS.containsKey(field) || SET_LISTS.contains(field) ? "merge" : "";
    }
}
