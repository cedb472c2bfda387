package io.eventplane.core.decide;

import io.eventplane.core.codec.Quantity;
import io.eventplane.log.StatusCause;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Resource names and quantities as Kubernetes' core validation checks them (ResourceQuota, LimitRange, volume
 * capacities and access modes), worded as its messages. Quantities reach the writer already parsed by the codec.
 */
final class Resources {
    static final List<String> ACCESS_MODES = List.of("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod");
    static final List<String> VOLUME_MODES = List.of("Block", "Filesystem");
    private static final Set<String> STANDARD = Set.of("cpu", "memory", "ephemeral-storage", "requests.cpu",
            "requests.memory", "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
            "pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "persistentvolumeclaims",
            "storage", "requests.storage", "services.nodeports", "services.loadbalancers", "configmaps");
    private static final Set<String> QUOTA = Set.of("cpu", "memory", "ephemeral-storage", "requests.cpu",
            "requests.memory", "requests.storage", "requests.ephemeral-storage", "limits.cpu", "limits.memory",
            "limits.ephemeral-storage", "pods", "resourcequotas", "services", "replicationcontrollers", "secrets",
            "persistentvolumeclaims", "configmaps", "services.nodeports", "services.loadbalancers");
    private static final Set<String> INTEGER = Set.of("pods", "resourcequotas", "services", "replicationcontrollers",
            "secrets", "configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers");
    private static final Set<String> CONTAINER = Set.of("cpu", "memory", "ephemeral-storage");

    private Resources() {
    }

    /** Quantity.String(): the canonical form ({@code 1Gi}, {@code 500m}). */
    static String canonical(String quantity) {
        return Quantity.parse(quantity).canonical();
    }

    static Quantity quantity(String q) {
        return Quantity.parse(q);
    }

    static boolean isHugePages(String name) {
        return name.startsWith("hugepages-");
    }

    /** IsNativeResource: unprefixed, or prefixed with a kubernetes.io domain. */
    static boolean isNative(String name) {
        return !name.contains("/") || name.contains("kubernetes.io/");
    }

    /** IsExtendedResourceName: a fully qualified, non-native name that could also be quota'd as requests.&lt;name&gt;. */
    static boolean isExtended(String name) {
        return !isNative(name) && !name.startsWith("requests.") && Formats.qualifiedName("requests." + name).isEmpty();
    }

    /** IsOvercommitAllowed: native resources except huge pages. */
    static boolean overcommitAllowed(String name) {
        return isNative(name) && !isHugePages(name);
    }

    /** validateResourceName: a qualified name, standard when unprefixed. True when valid. */
    static boolean name(String field, String name, List<StatusCause> causes) {
        int before = causes.size();
        Formats.qualifiedName(field, name, causes);
        if (causes.size() == before && !name.contains("/") && !STANDARD.contains(name) && !isHugePages(name)
                && !name.startsWith("requests.hugepages-")) {
            causes.add(Causes.invalid(field, name, "must be a standard resource type or fully qualified"));
        }
        return causes.size() == before;
    }

    /** validateContainerResourceName: cpu, memory, ephemeral-storage, huge pages, or an extended resource. */
    static void containerName(String field, String name, List<StatusCause> causes) {
        name(field, name, causes);
        if (!name.contains("/")) {
            if (!CONTAINER.contains(name) && !isHugePages(name)) {
                causes.add(Causes.invalid(field, name, "must be a standard resource for containers"));
            }
        } else if (!isNative(name) && !isExtended(name)) {
            causes.add(Causes.invalid(field, name, "doesn't follow extended resource name standard"));
        }
    }

    /** IsStandardQuotaResourceName. */
    static boolean isStandardQuota(String name) {
        return QUOTA.contains(name) || isHugePages(name) || name.startsWith("requests.hugepages-");
    }

    /** ValidateResourceQuotaResourceName. */
    static void quotaName(String field, String name, List<StatusCause> causes) {
        name(field, name, causes);
        if (!name.contains("/") && !isStandardQuota(name)) {
            causes.add(Causes.invalid(field, name, "must be a standard resource for quota"));
        }
    }

    /** ValidateResourceQuantityValue: never negative; a whole number for counted resources. */
    static void quantityValue(String field, String name, String value, List<StatusCause> causes) {
        Quantity q = quantity(value);
        if (q.compareTo(Quantity.parse("0")) < 0) {
            causes.add(Causes.invalid(field, q.canonical(), "must be greater than or equal to 0"));
        }
        boolean integer = INTEGER.contains(name) || isExtended(name);
        if (integer && q.milliValue() % 1000 != 0) {
            causes.add(Causes.invalid(field, q.canonical(), "must be an integer"));
        }
    }

    /** ValidatePositiveQuantityValue. */
    static void positive(String field, String value, List<StatusCause> causes) {
        Quantity q = quantity(value);
        if (q.compareTo(Quantity.parse("0")) <= 0) {
            causes.add(Causes.invalid(field, q.canonical(), "must be greater than zero"));
        }
    }

    /** A ResourceList's names and values, keys in order (Go iterates maps randomly; we report deterministically). */
    static void list(String field, Map<String, String> list, boolean quota, List<StatusCause> causes) {
        if (list == null) {
            return;
        }
        for (Map.Entry<String, String> e : new TreeMap<>(list).entrySet()) {
            String f = field + "[" + e.getKey() + "]";
            if (quota) {
                quotaName(f, e.getKey(), causes);
            } else {
                name(f, e.getKey(), causes);
            }
            quantityValue(f, e.getKey(), e.getValue(), causes);
        }
    }

    /** Access modes of a claim or volume: supported, and ReadWriteOncePod alone. */
    static void accessModes(String field, List<String> modes, List<StatusCause> causes) {
        boolean oncePod = false;
        boolean other = false;
        for (String m : modes == null ? List.<String>of() : modes) {
            if (!ACCESS_MODES.contains(m)) {
                causes.add(Causes.notSupported(field, m, ACCESS_MODES));
            }
            if (m.equals("ReadWriteOncePod")) {
                oncePod = true;
            } else if (ACCESS_MODES.contains(m)) {
                other = true;
            }
        }
        if (oncePod && other) {
            causes.add(Causes.forbidden(field, "may not use ReadWriteOncePod with other access modes"));
        }
    }
}
