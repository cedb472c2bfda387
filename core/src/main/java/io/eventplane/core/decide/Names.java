package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import java.util.Optional;
import java.util.regex.Pattern;

/** Kubernetes name rules (RFC 1123). */
public final class Names {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private Names() {
    }

    public static Optional<StatusCause> subdomain(String field, String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of(Causes.required(field));
        }
        if (name.length() > 253 || !DNS_SUBDOMAIN.matcher(name).matches()) {
            return Optional.of(Causes.invalid(field, name, "a lowercase RFC 1123 subdomain must consist of lower case "
                    + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
                    + "(e.g. 'example.com', regex used for validation is "
                    + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
        }
        return Optional.empty();
    }

    public static Optional<StatusCause> label(String field, String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of(Causes.required(field));
        }
        if (name.length() > 63 || !DNS_LABEL.matcher(name).matches()) {
            return Optional.of(Causes.invalid(field, name, "a lowercase RFC 1123 label must consist of lower case "
                    + "alphanumeric characters or '-', and must start and end with an alphanumeric character "
                    + "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"));
        }
        return Optional.empty();
    }

    /** A DNS-1035 label (Service names): starts with a letter. */
    public static Optional<StatusCause> dns1035Label(String field, String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of(Causes.required(field));
        }
        if (name.length() > 63) {
            return Optional.of(Causes.invalid(field, name, "must be no more than 63 characters"));
        }
        if (!DNS_1035_LABEL.matcher(name).matches()) {
            return Optional.of(Causes.invalid(field, name, "a DNS-1035 label must consist of lower case alphanumeric "
                    + "characters or '-', start with an alphabetic character, and end with an alphanumeric character "
                    + "(e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"));
        }
        return Optional.empty();
    }

    /** Whether {@code value} is a lowercase RFC 1123 label (no cause: for callers that word their own). */
    static boolean isLabel(String value) {
        return value != null && value.length() <= 63 && DNS_LABEL.matcher(value).matches();
    }

    /** Whether {@code value} is a lowercase RFC 1123 subdomain. */
    static boolean isSubdomain(String value) {
        return value != null && value.length() <= 253 && DNS_SUBDOMAIN.matcher(value).matches();
    }
}
