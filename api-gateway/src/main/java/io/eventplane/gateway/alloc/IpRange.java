package io.eventplane.gateway.alloc;

import io.eventplane.core.meta.IpAddresses;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Optional;
import java.util.Random;
import java.util.function.Predicate;

/**
 * A service CIDR as kube-apiserver's IP allocator sees it: the usable addresses are those of the prefix but the
 * network address (and, for IPv4, the broadcast address). Dynamic allocation prefers the upper part of the range and
 * starts at a random address in it, leaving the lower part to IPs that manifests ask for by value (KEP-3070).
 */
public final class IpRange {
    private final String cidr;
    private final boolean v6;
    private final int bits;
    private final BigInteger network;
    private final BigInteger first;
    private final BigInteger last;
    /** Addresses at the start of the range reserved for static allocation (dynamic picks them last). */
    private final long staticBand;

    private IpRange(String cidr, boolean v6, int bits, BigInteger network) {
        this.cidr = cidr;
        this.v6 = v6;
        this.bits = bits;
        this.network = network;
        int width = v6 ? 128 : 32;
        BigInteger broadcast = network.add(BigInteger.ONE.shiftLeft(width - bits)).subtract(BigInteger.ONE);
        this.first = network.add(BigInteger.ONE);
        this.last = v6 ? broadcast : broadcast.subtract(BigInteger.ONE);
        this.staticBand = staticBand(BigInteger.ONE.shiftLeft(width - bits));
    }

    /** calculateRangeOffset: min(max(16, size/16), 256), none for a range of 16 addresses or fewer. */
    private static long staticBand(BigInteger cidrSize) {
        if (cidrSize.compareTo(BigInteger.valueOf(16)) <= 0) {
            return 0;
        }
        BigInteger offset = cidrSize.divide(BigInteger.valueOf(16));
        return Math.min(256, Math.max(16, offset.min(BigInteger.valueOf(256)).longValue()));
    }

    /** Parses {@code 10.96.0.0/12} or {@code fd00::/108}; the address is masked to the prefix. */
    public static IpRange parse(String cidr) {
        int slash = cidr == null ? -1 : cidr.indexOf('/');
        if (slash < 1) {
            throw new IllegalArgumentException("not a CIDR: " + cidr);
        }
        InetAddress address = address(cidr.substring(0, slash))
                .orElseThrow(() -> new IllegalArgumentException("not a CIDR: " + cidr));
        boolean v6 = address instanceof Inet6Address;
        int bits = Integer.parseInt(cidr.substring(slash + 1));
        int width = v6 ? 128 : 32;
        if (bits < 0 || bits > width || (v6 && bits < 64)) {
            throw new IllegalArgumentException("unusable service CIDR " + cidr + (v6 ? " (the shortest IPv6 prefix is /64)" : ""));
        }
        BigInteger mask = BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE.shiftLeft(width - bits));
        BigInteger network = new BigInteger(1, address.getAddress()).and(mask);
        return new IpRange(text(network, v6) + "/" + bits, v6, bits, network);
    }

    public String cidr() {
        return cidr;
    }

    /** {@code IPv4} or {@code IPv6}, as a Service's ipFamilies names them. */
    public String family() {
        return v6 ? "IPv6" : "IPv4";
    }

    /** The first usable address: the {@code kubernetes} Service's cluster IP. */
    public String first() {
        return text(first, v6);
    }

    /** How many addresses can be allocated. */
    public BigInteger size() {
        return last.subtract(first).add(BigInteger.ONE);
    }

    /** Whether the address is in the prefix at all (the allocator that holds the prefix answers for it). */
    public boolean inPrefix(String ip) {
        return value(ip).filter(v -> v.shiftRight((v6 ? 128 : 32) - bits).equals(network.shiftRight((v6 ? 128 : 32) - bits)))
                .isPresent();
    }

    /** Whether the address can be allocated: in the prefix, neither the network nor the broadcast address. */
    public boolean allocatable(String ip) {
        return value(ip).filter(v -> v.compareTo(first) >= 0 && v.compareTo(last) <= 0).isPresent();
    }

    /**
     * A free address: from a random start in the dynamic (upper) band, wrapping within it, then the static band;
     * empty when every address is {@code taken}.
     */
    public Optional<String> next(Predicate<String> taken, Random random) {
        BigInteger bandStart = first.add(BigInteger.valueOf(staticBand));
        Optional<String> upper = scan(bandStart, last, taken, random);
        if (upper.isPresent() || staticBand == 0) {
            return upper;
        }
        return scan(first, bandStart.subtract(BigInteger.ONE), taken, random);
    }

    private Optional<String> scan(BigInteger from, BigInteger to, Predicate<String> taken, Random random) {
        BigInteger size = to.subtract(from).add(BigInteger.ONE);
        if (size.signum() <= 0) {
            return Optional.empty();
        }
        BigInteger offset = new BigInteger(Math.min(size.bitLength() + 8, 126), random).mod(size);
        BigInteger at = from.add(offset);
        for (BigInteger n = BigInteger.ZERO; n.compareTo(size) < 0; n = n.add(BigInteger.ONE)) {
            String ip = text(at, v6);
            if (!taken.test(ip)) {
                return Optional.of(ip);
            }
            at = at.equals(to) ? from : at.add(BigInteger.ONE);
        }
        return Optional.empty();
    }

    /** The canonical text of an address (what names its IPAddress), or empty when it is not an address. */
    public static Optional<String> canonical(String ip) {
        return address(ip).map(a -> text(new BigInteger(1, a.getAddress()), a instanceof Inet6Address));
    }

    /** The family of an address, or empty when it is not one. */
    public static Optional<String> familyOf(String ip) {
        return address(ip).map(a -> a instanceof Inet4Address ? "IPv4" : "IPv6");
    }

    private Optional<BigInteger> value(String ip) {
        return address(ip).filter(a -> (a instanceof Inet6Address) == v6).map(a -> new BigInteger(1, a.getAddress()));
    }

    /** An IPv4 or IPv6 literal; an IPv4-mapped IPv6 literal is not a service address. */
    private static Optional<InetAddress> address(String ip) {
        return IpAddresses.parse(ip).filter(a -> !(a instanceof Inet4Address) || !ip.contains(":"));
    }

    private static String text(BigInteger value, boolean v6) {
        byte[] raw = value.toByteArray();
        byte[] b = new byte[v6 ? 16 : 4];
        int copy = Math.min(raw.length, b.length);
        System.arraycopy(raw, raw.length - copy, b, b.length - copy, copy);
        return IpAddresses.of(b).map(IpAddresses::canonical).orElseThrow();
    }

    @Override
    public String toString() {
        return cidr;
    }
}
