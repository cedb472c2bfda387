package io.eventplane.gateway.alloc;

import java.util.OptionalInt;
import java.util.Random;
import java.util.function.IntPredicate;

/**
 * The node port range ({@code --service-node-port-range}, 30000-32767 by default). Dynamic allocation prefers the
 * upper part and starts at a random port in it, leaving the lower part to ports that manifests ask for (KEP-3668).
 *
 * @param base the first port
 * @param size how many ports
 */
public record PortRange(int base, int size) {
    /** Kubernetes' default, the range the writer's validation checks. */
    public static final PortRange DEFAULT = new PortRange(30000, 2768);

    public int last() {
        return base + size - 1;
    }

    public boolean contains(int port) {
        return port >= base && port <= last();
    }

    /** calcRangeOffset: min(max(16, size/32), 128), none for a range of 16 ports or fewer. */
    int staticBand() {
        if (size <= 16) {
            return 0;
        }
        return Math.min(128, Math.max(16, size / 32));
    }

    /** A free port: from a random start in the dynamic band, then the static band; empty when all are taken. */
    public OptionalInt next(IntPredicate taken, Random random) {
        int band = staticBand();
        OptionalInt upper = scan(base + band, last(), taken, random);
        return upper.isPresent() || band == 0 ? upper : scan(base, base + band - 1, taken, random);
    }

    private static OptionalInt scan(int from, int to, IntPredicate taken, Random random) {
        int n = to - from + 1;
        if (n <= 0) {
            return OptionalInt.empty();
        }
        int start = random.nextInt(n);
        for (int i = 0; i < n; i++) {
            int port = from + (start + i) % n;
            if (!taken.test(port)) {
                return OptionalInt.of(port);
            }
        }
        return OptionalInt.empty();
    }

    @Override
    public String toString() {
        return base + "-" + last();
    }
}
