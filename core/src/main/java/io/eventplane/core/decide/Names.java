package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import java.util.Optional;
import java.util.regex.Pattern;

/** Kubernetes name rules (RFC 1123). */
public final class Names {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
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
}
