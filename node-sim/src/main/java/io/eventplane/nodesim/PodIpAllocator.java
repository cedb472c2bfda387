package io.eventplane.nodesim;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Pod addresses, unique per node: the lowest free host of the node's /24 ({@code 10.244.<node>.<n>}, n in 1..254),
 * returned when the pod is gone. A pod that already has an address (found after a restart) keeps it.
 * Not thread-safe: one simulator thread owns it.
 */
public final class PodIpAllocator {
    static final int HOSTS = 254;

    private record Lease(String subnet, int host) {
        String address() {
            return subnet + "." + host;
        }
    }

    private final Map<String, Lease> byUid = new HashMap<>();
    private final Map<String, BitSet> usedBySubnet = new HashMap<>();

    /** The pod's address, or empty when its node has none left (a CNI would fail the sandbox the same way). */
    public Optional<String> addressFor(String uid, String subnet, String existing) {
        Lease held = byUid.get(uid);
        if (held != null) {
            return Optional.of(held.address());
        }
        BitSet used = usedBySubnet.computeIfAbsent(subnet, s -> new BitSet(HOSTS + 1));
        int host = adoptable(subnet, existing, used);
        if (host < 0) {
            host = used.nextClearBit(1);
            if (host > HOSTS) {
                return Optional.empty();
            }
        }
        used.set(host);
        Lease lease = new Lease(subnet, host);
        byUid.put(uid, lease);
        return Optional.of(lease.address());
    }

    private static int adoptable(String subnet, String existing, BitSet used) {
        if (existing == null || !existing.startsWith(subnet + ".")) {
            return -1;
        }
        try {
            int host = Integer.parseInt(existing.substring(subnet.length() + 1));
            return host >= 1 && host <= HOSTS && !used.get(host) ? host : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public void release(String uid) {
        Lease lease = byUid.remove(uid);
        if (lease != null) {
            usedBySubnet.get(lease.subnet()).clear(lease.host());
        }
    }

    public int allocated() {
        return byUid.size();
    }
}
