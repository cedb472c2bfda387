package io.eventplane.core.cel;

/**
 * A CIDR as Go's netip.Prefix: an address and a prefix length, host bits kept as written (Kubernetes' cidr() accepts
 * {@code 192.168.0.1/24}; {@code masked()} clears them). Parse errors carry netip's wording
 * ({@code netip.ParsePrefix("10.0.0.0/33"): prefix length out of range}).
 */
record IpPrefix(IpAddress address, int bits) {

    static final class Invalid extends Exception {
        Invalid(String in, String msg) {
            super("netip.ParsePrefix(" + KubernetesLibrary.quote(in) + "): " + msg);
        }
    }

    static IpPrefix parse(String s) throws Invalid {
        int slash = s.lastIndexOf('/');
        if (slash < 0) {
            throw new Invalid(s, "no '/'");
        }
        IpAddress address;
        try {
            address = IpAddress.parse(s.substring(0, slash));
        } catch (IpAddress.Invalid e) {
            throw new Invalid(s, e.getMessage());
        }
        if (!address.v4() && !address.zone().isEmpty()) {
            throw new Invalid(s, "IPv6 zones cannot be present in a prefix");
        }
        String bits = s.substring(slash + 1);
        boolean digits = !bits.isEmpty() && bits.chars().allMatch(c -> c >= '0' && c <= '9')
                && (bits.length() == 1 || bits.charAt(0) != '0') && bits.length() < 10;
        if (!digits) {
            throw new Invalid(s, "bad bits after slash: " + KubernetesLibrary.quote(bits));
        }
        int n = Integer.parseInt(bits);
        if (n > address.bits()) {
            throw new Invalid(s, "prefix length out of range");
        }
        return new IpPrefix(address, n);
    }

    IpPrefix masked() {
        return new IpPrefix(address.masked(bits), bits);
    }

    boolean contains(IpAddress ip) {
        return ip.v4() == address.v4() && ip.zone().isEmpty()
                && ip.masked(bits).equals(address.masked(bits));
    }

    /** Kubernetes' containsCIDR: same network at this length, and no shorter a prefix than this one. */
    boolean contains(IpPrefix other) {
        return other.address.v4() == address.v4() && bits <= other.bits
                && other.address.masked(bits).equals(address.masked(bits));
    }

    @Override
    public String toString() {
        return address + "/" + bits;
    }
}
