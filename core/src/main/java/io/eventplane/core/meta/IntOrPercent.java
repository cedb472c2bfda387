package io.eventplane.core.meta;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes' IntOrString used as "an absolute number or a percentage" ({@code maxSurge: 25%}, {@code minAvailable: 2}).
 * In our records it is an {@code Integer} or a {@code String} (the {@code union { null, int, string }} branches).
 */
public final class IntOrPercent {
    private static final Pattern PERCENT = Pattern.compile("([0-9]+)%");

    private IntOrPercent() {
    }

    public static boolean isPercent(Object value) {
        return value instanceof CharSequence s && PERCENT.matcher(s).matches();
    }

    /** The number before {@code %}, or the integer itself; null when the value is neither. */
    public static Integer number(Object value) {
        if (value instanceof Integer i) {
            return i;
        }
        if (value instanceof CharSequence s) {
            Matcher m = PERCENT.matcher(s);
            if (m.matches()) {
                try {
                    return Integer.parseInt(m.group(1));
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /**
     * The absolute value against {@code total}: an integer as is, a percentage of {@code total} rounded up or down
     * (a Deployment's maxSurge rounds up, its maxUnavailable down; DEP-08, DEP-09).
     */
    public static int resolve(Object value, int total, boolean roundUp) {
        if (value == null) {
            return 0;
        }
        if (value instanceof Integer i) {
            return i;
        }
        Integer pct = number(value);
        if (pct == null) {
            throw new IllegalArgumentException("invalid value for IntOrString: " + value);
        }
        long scaled = (long) pct * total;
        return (int) (roundUp ? (scaled + 99) / 100 : scaled / 100);
    }
}
