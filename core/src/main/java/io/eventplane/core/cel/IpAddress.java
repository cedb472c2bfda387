package io.eventplane.core.cel;

/**
 * An IPv4 or IPv6 address as Go's net/netip reads and prints it, for Kubernetes' ip and cidr libraries. IPv4 lives in
 * the low 32 bits of {@code lo}; IPv6 in {@code hi} and {@code lo}. Parse errors carry netip's wording
 * ({@code ParseAddr("127.0.0.256"): IPv4 field has value >255}).
 */
record IpAddress(boolean v4, long hi, long lo, String zone) {

    static final class Invalid extends Exception {
        Invalid(String in, String msg, String at) {
            super("ParseAddr(" + KubernetesLibrary.quote(in) + "): " + msg
                    + (at == null ? "" : " (at " + KubernetesLibrary.quote(at) + ")"));
        }
    }

    static IpAddress parse(String s) throws Invalid {
        for (int i = 0; i < s.length(); i++) {
            switch (s.charAt(i)) {
                case '.':
                    return new IpAddress(true, 0, parseV4(s, 0, s.length()), "");
                case ':':
                    return parseV6(s);
                case '%':
                    throw new Invalid(s, "missing IPv6 address", null);
                default:
                    break;
            }
        }
        throw new Invalid(s, "unable to parse IP", null);
    }

    /** The IPv4 fields of {@code in[from, to)} as a 32-bit value. */
    private static long parseV4(String in, int from, int to) throws Invalid {
        long value = 0;
        int fields = 0;
        int field = 0;
        int digits = 0;
        for (int i = from; i < to; i++) {
            char c = in.charAt(i);
            if (c >= '0' && c <= '9') {
                if (digits == 1 && field == 0) {
                    throw new Invalid(in, "IPv4 field has octet with leading zero", null);
                }
                field = field * 10 + (c - '0');
                digits++;
                if (field > 255) {
                    throw new Invalid(in, "IPv4 field has value >255", null);
                }
            } else if (c == '.') {
                if (i == from || i == to - 1 || in.charAt(i - 1) == '.') {
                    throw new Invalid(in, "IPv4 field must have at least one digit", in.substring(i, to));
                }
                if (fields == 3) {
                    throw new Invalid(in, "IPv4 address too long", null);
                }
                value = value << 8 | field;
                fields++;
                field = 0;
                digits = 0;
            } else {
                throw new Invalid(in, "unexpected character", in.substring(i, to));
            }
        }
        if (fields < 3) {
            throw new Invalid(in, "IPv4 address too short", null);
        }
        return value << 8 | field;
    }

    private static IpAddress parseV6(String in) throws Invalid {
        String s = in;
        String zone = "";
        int percent = s.indexOf('%');
        if (percent >= 0) {
            zone = s.substring(percent + 1);
            s = s.substring(0, percent);
            if (zone.isEmpty()) {
                throw new Invalid(in, "zone must be a non-empty string", null);
            }
        }
        int[] groups = new int[8];
        int ellipsis = -1;
        int n = 0;
        int pos = 0;
        if (s.startsWith("::")) {
            ellipsis = 0;
            pos = 2;
            if (pos == s.length()) {
                return new IpAddress(false, 0, 0, zone);
            }
        }
        while (n < 8) {
            int off = 0;
            int acc = 0;
            for (; pos + off < s.length(); off++) {
                char c = s.charAt(pos + off);
                int h = c < 0x80 ? Character.digit(c, 16) : -1;
                if (h < 0) {
                    break;
                }
                if (off > 3) {
                    throw new Invalid(in, "each group must have 4 or less digits", s.substring(pos));
                }
                acc = acc << 4 | h;
            }
            if (off == 0) {
                throw new Invalid(in, "each colon-separated field must have at least one digit", s.substring(pos));
            }
            if (pos + off < s.length() && s.charAt(pos + off) == '.') {
                if (ellipsis < 0 && n != 6) {
                    throw new Invalid(in, "embedded IPv4 address must replace the final 2 fields of the address",
                            s.substring(pos));
                }
                if (n + 2 > 8) {
                    throw new Invalid(in, "too many hex fields to fit an embedded IPv4 at the end of the address",
                            s.substring(pos));
                }
                long v4 = parseV4(in, pos, s.length());
                groups[n++] = (int) (v4 >>> 16);
                groups[n++] = (int) (v4 & 0xffff);
                pos = s.length();
                break;
            }
            groups[n++] = acc;
            pos += off;
            if (pos == s.length()) {
                break;
            }
            if (s.charAt(pos) != ':') {
                throw new Invalid(in, "unexpected character, want colon", s.substring(pos));
            } else if (pos + 1 == s.length()) {
                throw new Invalid(in, "colon must be followed by more characters", s.substring(pos));
            }
            pos++;
            if (s.charAt(pos) == ':') {
                if (ellipsis >= 0) {
                    throw new Invalid(in, "multiple :: in address", s.substring(pos));
                }
                ellipsis = n;
                pos++;
                if (pos == s.length()) {
                    break;
                }
            }
        }
        if (pos != s.length()) {
            throw new Invalid(in, "trailing garbage after address", s.substring(pos));
        }
        if (n < 8) {
            if (ellipsis < 0) {
                throw new Invalid(in, "address string too short", null);
            }
            int shift = 8 - n;
            for (int j = n - 1; j >= ellipsis; j--) {
                groups[j + shift] = groups[j];
            }
            for (int j = ellipsis; j < ellipsis + shift; j++) {
                groups[j] = 0;
            }
        } else if (ellipsis >= 0) {
            throw new Invalid(in, "the :: must expand to at least one field of zeros", null);
        }
        long hi = 0;
        long lo = 0;
        for (int j = 0; j < 4; j++) {
            hi = hi << 16 | groups[j];
            lo = lo << 16 | groups[j + 4];
        }
        return new IpAddress(false, hi, lo, zone);
    }

    int bits() {
        return v4 ? 32 : 128;
    }

    boolean is4In6() {
        return !v4 && hi == 0 && lo >>> 32 == 0xffffL;
    }

    private int group(int i) {
        return (int) ((i < 4 ? hi >>> (48 - 16 * i) : lo >>> (48 - 16 * (i - 4))) & 0xffff);
    }

    private int octet(int i) {
        return (int) (lo >>> (24 - 8 * i) & 0xff);
    }

    boolean isUnspecified() {
        return hi == 0 && lo == 0;
    }

    boolean isLoopback() {
        return v4 ? octet(0) == 127 : hi == 0 && lo == 1;
    }

    boolean isMulticast() {
        return v4 ? (octet(0) & 0xf0) == 0xe0 : (group(0) & 0xff00) == 0xff00;
    }

    boolean isLinkLocalMulticast() {
        return v4 ? octet(0) == 224 && octet(1) == 0 && octet(2) == 0 : (group(0) & 0xff0f) == 0xff02;
    }

    boolean isLinkLocalUnicast() {
        return v4 ? octet(0) == 169 && octet(1) == 254 : (group(0) & 0xffc0) == 0xfe80;
    }

    /** Go's rule: not unspecified, broadcast, loopback, multicast or link-local (private ranges still count). */
    boolean isGlobalUnicast() {
        if (v4 && lo == 0xffffffffL) {
            return false;
        }
        return !isUnspecified() && !isLoopback() && !isMulticast() && !isLinkLocalUnicast();
    }

    /** The first {@code bits} bits kept, the rest zero. */
    IpAddress masked(int bits) {
        if (v4) {
            long mask = bits == 0 ? 0 : (0xffffffffL << (32 - bits)) & 0xffffffffL;
            return new IpAddress(true, 0, lo & mask, "");
        }
        long hiMask = bits >= 64 ? -1L : bits == 0 ? 0 : -1L << (64 - bits);
        long loMask = bits <= 64 ? 0 : bits == 128 ? -1L : -1L << (128 - bits);
        return new IpAddress(false, hi & hiMask, lo & loMask, "");
    }

    /** The canonical text: dotted IPv4; RFC 5952 IPv6 (lower case, the first longest zero run as ::). */
    @Override
    public String toString() {
        if (v4) {
            return octet(0) + "." + octet(1) + "." + octet(2) + "." + octet(3);
        }
        int zeroStart = -1;
        int zeroEnd = -1;
        for (int i = 0; i < 8; i++) {
            int j = i;
            while (j < 8 && group(j) == 0) {
                j++;
            }
            if (j - i >= 2 && j - i > zeroEnd - zeroStart) {
                zeroStart = i;
                zeroEnd = j;
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == zeroStart) {
                out.append("::");
                i = zeroEnd - 1;
                continue;
            }
            if (i > 0 && i != zeroEnd) {
                out.append(':');
            }
            if (i == 6 && is4In6()) {
                out.append(group(6) >>> 8).append('.').append(group(6) & 0xff).append('.')
                        .append(group(7) >>> 8).append('.').append(group(7) & 0xff);
                break;
            }
            out.append(Integer.toHexString(group(i)));
        }
        return zone.isEmpty() ? out.toString() : out + "%" + zone;
    }
}
