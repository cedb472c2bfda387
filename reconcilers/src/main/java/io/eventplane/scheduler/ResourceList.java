package io.eventplane.scheduler;

import io.eventplane.core.codec.Quantity;
import java.util.HashMap;
import java.util.Map;

/**
 * Amounts of named resources, each in thousandths of its unit (cpu in millicores, memory in thousandths of a byte):
 * one exact scale for every resource, so extended resources need no special case.
 */
public record ResourceList(Map<String, Long> milli) {
    public static final ResourceList EMPTY = new ResourceList(Map.of());

    public ResourceList {
        milli = Map.copyOf(milli);
    }

    /** From Kubernetes quantities ({@code cpu: 100m}, {@code memory: 16Gi}); null is empty. */
    public static ResourceList parse(Map<String, String> quantities) {
        if (quantities == null || quantities.isEmpty()) {
            return EMPTY;
        }
        Map<String, Long> m = new HashMap<>();
        quantities.forEach((name, q) -> m.put(name, Quantity.parse(q).milliValue()));
        return new ResourceList(m);
    }

    public long get(String name) {
        return milli.getOrDefault(name, 0L);
    }

    public boolean has(String name) {
        return milli.containsKey(name);
    }

    public ResourceList plus(ResourceList other) {
        if (other.milli.isEmpty()) {
            return this;
        }
        if (milli.isEmpty()) {
            return other;
        }
        Map<String, Long> m = new HashMap<>(milli);
        other.milli.forEach((k, v) -> m.merge(k, v, ResourceList::saturatingAdd));
        return new ResourceList(m);
    }

    private static long saturatingAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : r;
    }

    /** The larger amount of each resource. */
    public ResourceList max(ResourceList other) {
        if (other.milli.isEmpty()) {
            return this;
        }
        Map<String, Long> m = new HashMap<>(milli);
        other.milli.forEach((k, v) -> m.merge(k, v, Math::max));
        return new ResourceList(m);
    }

    public ResourceList with(String name, long milliAmount) {
        Map<String, Long> m = new HashMap<>(milli);
        m.put(name, milliAmount);
        return new ResourceList(m);
    }
}
