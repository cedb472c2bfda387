package io.eventplane.nodesim;

import java.util.List;

/**
 * The identity of one simulated node, derived from its index alone so a restarted simulator finds the same nodes:
 * name, zone (spread over zone-a/b/c), node address and the /24 its pods get addresses from (10.244.index.0/24).
 */
public record SimNode(String name, int index, String zone, String internalIP, String podSubnet) {
    static final List<String> ZONES = List.of("zone-a", "zone-b", "zone-c");

    public static SimNode of(String prefix, int index) {
        if (index < 1) {
            throw new IllegalArgumentException("node indexes start at 1");
        }
        return new SimNode(prefix + index, index, ZONES.get((index - 1) % ZONES.size()),
                "10.1." + (index >> 8) + "." + (index & 255), podSubnet(index));
    }

    /** 10.244.i for the first 255 nodes, then on through 10.255, then 100.64/10: unique for 19,000 nodes. */
    static String podSubnet(int index) {
        int block = 244 + index / 256;
        if (block <= 255) {
            return "10." + block + "." + (index % 256);
        }
        int rest = index - (256 - 244) * 256;
        return "100." + (64 + rest / 256) + "." + (rest % 256);
    }

    public String podCIDR() {
        return podSubnet + ".0/24";
    }
}
