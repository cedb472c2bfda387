package io.eventplane.core.decide;

import io.eventplane.core.meta.IpAddresses;

import io.eventplane.log.StatusCause;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Kubernetes' value formats (k8s.io/apimachinery/pkg/util/validation) worded as its messages: qualified names,
 * configuration keys, label values, IP addresses and CIDRs. Pure, no name lookups.
 */
final class Formats {
    private static final Pattern QUALIFIED_NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern CONFIG_KEY = Pattern.compile("[-._a-zA-Z0-9]+");
    private static final String QUALIFIED_NAME_MESSAGE = "must consist of alphanumeric characters, '-', '_' or '.', "
            + "and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
            + "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    static final String IP_MESSAGE = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
    static final String CIDR_MESSAGE = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

    private Formats() {
    }

    /** IsQualifiedName: {@code name} or {@code prefix/name}, the prefix a DNS subdomain. Empty when valid. */
    static List<String> qualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            name = parts[1];
            if (parts[0].isEmpty()) {
                errs.add("prefix part must be non-empty");
            } else {
                subdomain(parts[0]).forEach(m -> errs.add("prefix part " + m));
            }
        } else {
            errs.add("a qualified name " + QUALIFIED_NAME_MESSAGE
                    + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return errs;
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (name.length() > 63) {
            errs.add("name part must be no more than 63 characters");
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errs.add("name part " + QUALIFIED_NAME_MESSAGE);
        }
        return errs;
    }

    /** IsDNS1123Subdomain's messages. */
    static List<String> subdomain(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > 253) {
            errs.add("must be no more than 253 characters");
        }
        if (!Names.isSubdomain(value.length() > 253 ? value.substring(0, 253) : value)) {
            errs.add("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
                    + "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
                    + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
        }
        return errs;
    }

    /** IsDNS1123Label's messages. */
    static List<String> label(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > 63) {
            errs.add("must be no more than 63 characters");
        }
        if (!Names.isLabel(value.length() > 63 ? value.substring(0, 63) : value)) {
            errs.add("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
                    + "start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
                    + "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
        }
        return errs;
    }

    /** Invalid causes at {@code field} for a DNS label value (port names, hostnames). */
    static void label(String field, String value, List<StatusCause> causes) {
        label(value).forEach(m -> causes.add(Causes.invalid(field, value, m)));
    }

    /** Invalid causes at {@code field} for a qualified name value (appProtocol, provisioner). */
    static void qualifiedName(String field, String value, List<StatusCause> causes) {
        qualifiedName(value).forEach(m -> causes.add(Causes.invalid(field, value, m)));
    }

    /** IsConfigMapKey: the keys of ConfigMap and Secret data. */
    static List<String> configKey(String key) {
        List<String> errs = new ArrayList<>();
        if (key.length() > 253) {
            errs.add("must be no more than 253 characters");
        }
        if (!CONFIG_KEY.matcher(key).matches()) {
            errs.add("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  "
                    + "or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
        }
        if (key.equals(".")) {
            errs.add("must not be '.'");
        } else if (key.equals("..")) {
            errs.add("must not be '..'");
        } else if (key.startsWith("..")) {
            errs.add("must not start with '..'");
        }
        return errs;
    }

    /** ValidateLabels: keys are qualified names, values label values; causes at the map's own path. */
    static void labels(String field, Map<String, String> labels, List<StatusCause> causes) {
        if (labels == null) {
            return;
        }
        for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
            qualifiedName(field, e.getKey(), causes);
            String v = e.getValue();
            labelValue(v).forEach(m -> causes.add(Causes.invalid(field, v, m)));
        }
    }

    /** IsValidLabelValue's messages. */
    static List<String> labelValue(String v) {
        List<String> errs = new ArrayList<>();
        if (v.length() > 63) {
            errs.add("must be no more than 63 characters");
        }
        if (!LABEL_VALUE.matcher(v).matches()) {
            errs.add("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                    + "and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or "
                    + "'12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
        }
        return errs;
    }

    /** IsDNS1035Label's messages. */
    static List<String> dns1035Label(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > 63) {
            errs.add("must be no more than 63 characters");
        }
        if (!DNS_1035_LABEL.matcher(value).matches()) {
            errs.add("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                    + "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
                    + "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
        }
        return errs;
    }

    /** The address of an IPv4 or IPv6 literal (leading zeros allowed, as Go's ParseIPSloppy), never a name lookup. */
    static Optional<InetAddress> parseIp(String value) {
        return IpAddresses.parse(value);
    }

    static boolean isIPv6(String value) {
        return parseIp(value).map(a -> !(a instanceof Inet4Address)).orElse(false);
    }

    /** IsValidIP. */
    static boolean ip(String field, String value, List<StatusCause> causes) {
        if (parseIp(value).isEmpty()) {
            causes.add(Causes.invalid(field, value == null ? "" : value, IP_MESSAGE));
            return false;
        }
        return true;
    }

    /** ValidateNonSpecialIP: no unspecified, loopback or link-local addresses (Endpoints, external IPs). */
    static void nonSpecialIp(String field, String value, List<StatusCause> causes) {
        Optional<InetAddress> parsed = parseIp(value);
        if (parsed.isEmpty()) {
            causes.add(Causes.invalid(field, value == null ? "" : value, "must be a valid IP address"));
            return;
        }
        InetAddress a = parsed.get();
        byte[] b = a.getAddress();
        if (a.isAnyLocalAddress()) {
            causes.add(Causes.invalid(field, value, "may not be unspecified (" + value + ")"));
        }
        if (a.isLoopbackAddress()) {
            causes.add(Causes.invalid(field, value, "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
        }
        if (a.isLinkLocalAddress()) {
            causes.add(Causes.invalid(field, value, "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
        }
        boolean linkLocalMulticast = b.length == 4 ? (b[0] & 0xff) == 224 && b[1] == 0 && b[2] == 0
                : (b[0] & 0xff) == 0xff && (b[1] & 0x0f) == 0x02;
        if (linkLocalMulticast) {
            causes.add(Causes.invalid(field, value,
                    "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
        }
    }

    /** IsValidCIDR. */
    static void cidr(String field, String value, List<StatusCause> causes) {
        int slash = value.indexOf('/');
        boolean valid = false;
        if (slash > 0 && slash < value.length() - 1) {
            Optional<InetAddress> a = parseIp(value.substring(0, slash));
            String bits = value.substring(slash + 1);
            if (a.isPresent() && bits.chars().allMatch(Character::isDigit) && bits.length() <= 3) {
                int n = Integer.parseInt(bits);
                valid = n <= (a.get() instanceof Inet4Address && !value.substring(0, slash).contains(":") ? 32 : 128);
            }
        }
        if (!valid) {
            causes.add(Causes.invalid(field, value, CIDR_MESSAGE));
        }
    }
}
