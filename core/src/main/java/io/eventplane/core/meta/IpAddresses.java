package io.eventplane.core.meta;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/** IP literals as Kubernetes reads and prints them: parsed leniently (Go's ParseIPSloppy), printed canonically. */
public final class IpAddresses {
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

    private IpAddresses() {
    }

    /** The address of an IPv4 or IPv6 literal (leading zeros allowed), never a name lookup. */
    public static Optional<InetAddress> parse(String value) {
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        var m = IPV4.matcher(value);
        if (m.matches()) {
            byte[] b = new byte[4];
            for (int i = 0; i < 4; i++) {
                int octet = Integer.parseInt(m.group(i + 1));
                if (octet > 255) {
                    return Optional.empty();
                }
                b[i] = (byte) octet;
            }
            return of(b);
        }
        if (!value.contains(":") || !IPV6_CHARS.matcher(value).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(value)); // a literal with ':' is parsed, never looked up
        } catch (UnknownHostException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The address of 4 or 16 bytes. */
    public static Optional<InetAddress> of(byte[] bytes) {
        try {
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** Four decimal octets without leading zeros, or RFC 5952 for IPv6 (what Go's netip prints). */
    public static String canonical(InetAddress ip) {
        if (ip instanceof Inet4Address) {
            return ip.getHostAddress();
        }
        byte[] b = ip.getAddress();
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLength = 1; // a single zero group is not shortened
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = Math.max(j, i + 1);
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                out.append("::");
                i += bestLength - 1;
                continue;
            }
            if (out.length() > 0 && out.charAt(out.length() - 1) != ':') {
                out.append(':');
            }
            out.append(Integer.toHexString(groups[i]));
        }
        return out.toString();
    }

    /** The canonical text of a literal, or empty when it is not an address. */
    public static Optional<String> canonical(String value) {
        return parse(value).map(IpAddresses::canonical);
    }

    public static boolean isIPv6(InetAddress ip) {
        return !(ip instanceof Inet4Address);
    }
}
