package io.eventplane.core.quota;

import io.eventplane.core.codec.Quantity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Kubernetes' ResourceList arithmetic for quota (apiserver's quota/v1 helpers): lists are maps from a resource name to
 * a quantity, kept in name order so every message and status lists them as Kubernetes prints them.
 */
public final class ResourceLists {
    private ResourceLists() {
    }

    /** An Avro quantity map as quantities; null reads as empty. */
    public static Map<String, Quantity> parse(Map<String, String> list) {
        Map<String, Quantity> out = new TreeMap<>();
        if (list != null) {
            list.forEach((k, v) -> out.put(k, Quantity.parse(v)));
        }
        return out;
    }

    /** Quantities in their canonical text, as the API stores them. */
    public static Map<String, String> format(Map<String, Quantity> list) {
        Map<String, String> out = new LinkedHashMap<>();
        new TreeMap<>(list).forEach((k, v) -> out.put(k, v.canonical()));
        return out;
    }

    /** a + b, name by name (Add). */
    public static Map<String, Quantity> add(Map<String, Quantity> a, Map<String, Quantity> b) {
        Map<String, Quantity> out = new TreeMap<>(a);
        b.forEach((k, v) -> out.merge(k, v, Quantity::add));
        return out;
    }

    /** Only the entries named in {@code names} (Mask). */
    public static Map<String, Quantity> mask(Map<String, Quantity> list, Collection<String> names) {
        Map<String, Quantity> out = new TreeMap<>();
        list.forEach((k, v) -> {
            if (names.contains(k)) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** The names of {@code a} whose value is above the one {@code b} has (LessThanOrEqual's exceeded names). */
    public static List<String> exceeded(Map<String, Quantity> a, Map<String, Quantity> b) {
        List<String> out = new ArrayList<>();
        a.forEach((k, v) -> {
            Quantity limit = b.get(k);
            if (limit != null && v.compareTo(limit) > 0) {
                out.add(k);
            }
        });
        return out;
    }

    /** The entries that are not zero (RemoveZeros). */
    public static Map<String, Quantity> nonZero(Map<String, Quantity> list) {
        Map<String, Quantity> out = new TreeMap<>();
        list.forEach((k, v) -> {
            if (!v.isZero()) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** The names of negative entries, sorted (IsNegative). */
    public static Set<String> negative(Map<String, Quantity> list) {
        Set<String> out = new TreeSet<>();
        list.forEach((k, v) -> {
            if (v.amount().signum() < 0) {
                out.add(k);
            }
        });
        return out;
    }

    /** Same names, equal amounts (Equals). */
    public static boolean equal(Map<String, Quantity> a, Map<String, Quantity> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Map.Entry<String, Quantity> e : a.entrySet()) {
            Quantity other = b.get(e.getKey());
            if (other == null || other.compareTo(e.getValue()) != 0) {
                return false;
            }
        }
        return true;
    }

    /** {@code name=value,name=value}, sorted by name, as quota admission's messages print a list (prettyPrint). */
    public static String pretty(Map<String, Quantity> list) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(list).forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ",").append(k).append('=')
                .append(v.canonical()));
        return sb.toString();
    }

    /** The larger of the two per name (maxResourceList). */
    public static Map<String, Quantity> max(Map<String, Quantity> a, Map<String, Quantity> b) {
        Map<String, Quantity> out = new TreeMap<>(a);
        b.forEach((k, v) -> out.merge(k, v, (x, y) -> y.compareTo(x) > 0 ? y : x));
        return out;
    }
}
