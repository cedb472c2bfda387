package io.eventplane.gateway.api;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code timeout} query parameter (a Go duration such as {@code 32s} or {@code 1m30s}), capped by ours. */
final class RequestTimeouts {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    private RequestTimeouts() {
    }

    static Duration effective(String requested, Duration max) {
        Duration d = parse(requested);
        return d == null || d.isZero() || d.compareTo(max) > 0 ? max : d;
    }

    /** A Go duration, or null when absent or unreadable. */
    static Duration parse(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        Matcher m = PART.matcher(text);
        double millis = 0;
        int end = 0;
        while (m.find()) {
            if (m.start() != end) {
                return null;
            }
            end = m.end();
            double v = Double.parseDouble(m.group(1));
            millis += switch (m.group(2)) {
                case "ms" -> v;
                case "s" -> v * 1000;
                case "m" -> v * 60_000;
                default -> v * 3_600_000;
            };
        }
        return end == text.length() ? Duration.ofMillis((long) millis) : null;
    }
}
