package io.eventplane.core.cron;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A CronJob schedule (workloads.md §8.2): five fields {@code minute hour day-of-month month day-of-week} with
 * {@code *}, {@code ?}, numbers, names ({@code JAN}, {@code MON}), ranges, lists and steps, or a macro
 * ({@code @hourly}, {@code @daily}, ..., and {@code @every <duration>}). Day-of-week is 0-6 (7 is rejected, as
 * Kubernetes' parser does). When both day fields are restricted a time matches either (CJ-06).
 */
public final class CronSchedule {
    private static final Map<String, String> MACROS = Map.of(
            "@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *", "@monthly", "0 0 1 * *", "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *", "@midnight", "0 0 * * *", "@hourly", "0 * * * *");
    private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
            "oct", "nov", "dec");
    private static final List<String> DAYS = List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat");

    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth;
    private final BitSet months;
    private final BitSet daysOfWeek;
    private final boolean domStar;
    private final boolean dowStar;
    private final Duration every;

    private CronSchedule(BitSet minutes, BitSet hours, BitSet daysOfMonth, BitSet months, BitSet daysOfWeek,
                         boolean domStar, boolean dowStar, Duration every) {
        this.minutes = minutes;
        this.hours = hours;
        this.daysOfMonth = daysOfMonth;
        this.months = months;
        this.daysOfWeek = daysOfWeek;
        this.domStar = domStar;
        this.dowStar = dowStar;
        this.every = every;
    }

    /**
     * @throws IllegalArgumentException with a message saying what is wrong, e.g.
     *                                  {@code expected exactly 5 fields, found 1: [hourly]}
     */
    public static CronSchedule parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty spec string");
        }
        if (s.startsWith("@")) {
            if (s.startsWith("@every ")) {
                return new CronSchedule(null, null, null, null, null, false, false, every(s.substring(7).trim()));
            }
            String expanded = MACROS.get(s.toLowerCase(Locale.ROOT));
            if (expanded == null) {
                throw new IllegalArgumentException("unrecognized descriptor: " + s);
            }
            s = expanded;
        }
        String[] fields = s.split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException("expected exactly 5 fields, found " + fields.length + ": ["
                    + String.join(" ", fields) + "]");
        }
        return new CronSchedule(field(fields[0], 0, 59, null), field(fields[1], 0, 23, null),
                field(fields[2], 1, 31, null), field(fields[3], 1, 12, MONTHS), field(fields[4], 0, 6, DAYS),
                star(fields[2]), star(fields[4]), null);
    }

    /** Whether the schedule fires at this minute ({@code @every} schedules fire by interval, never by calendar). */
    public boolean matches(ZonedDateTime t) {
        if (every != null) {
            return false;
        }
        if (!minutes.get(t.getMinute()) || !hours.get(t.getHour()) || !months.get(t.getMonthValue())) {
            return false;
        }
        boolean dom = daysOfMonth.get(t.getDayOfMonth());
        boolean dow = daysOfWeek.get(t.getDayOfWeek().getValue() % 7);
        if (domStar || dowStar) {
            return dom && dow;
        }
        return dom || dow;
    }

    /** The interval of an {@code @every} schedule, or null. */
    public Duration every() {
        return every;
    }

    private static boolean star(String field) {
        return field.startsWith("*") || field.startsWith("?");
    }

    private static BitSet field(String field, int min, int max, List<String> names) {
        BitSet bits = new BitSet(max + 1);
        for (String part : field.split(",", -1)) {
            range(part, min, max, names, bits);
        }
        return bits;
    }

    private static void range(String expr, int min, int max, List<String> names, BitSet bits) {
        String[] stepParts = expr.split("/", -1);
        if (stepParts.length > 2) {
            throw new IllegalArgumentException("too many slashes: " + expr);
        }
        String[] lowHigh = stepParts[0].split("-", -1);
        if (lowHigh.length > 2) {
            throw new IllegalArgumentException("too many hyphens: " + expr);
        }
        int start;
        int end;
        boolean star = lowHigh[0].equals("*") || lowHigh[0].equals("?");
        if (star) {
            if (lowHigh.length > 1) {
                throw new IllegalArgumentException("too many hyphens: " + expr);
            }
            start = min;
            end = max;
        } else {
            start = value(lowHigh[0], names, expr);
            end = lowHigh.length == 2 ? value(lowHigh[1], names, expr) : start;
        }
        int step = 1;
        if (stepParts.length == 2) {
            step = number(stepParts[1], expr);
            if (step <= 0) {
                throw new IllegalArgumentException("step of range should be a positive number: " + expr);
            }
            if (!star && lowHigh.length == 1) {
                end = max; // "N/step" means N through the maximum
            }
        }
        if (start < min) {
            throw new IllegalArgumentException("beginning of range (" + start + ") below minimum (" + min + "): " + expr);
        }
        if (end > max) {
            throw new IllegalArgumentException("end of range (" + end + ") above maximum (" + max + "): " + expr);
        }
        if (start > end) {
            throw new IllegalArgumentException("beginning of range (" + start + ") beyond end of range (" + end + "): " + expr);
        }
        for (int i = start; i <= end; i += step) {
            bits.set(i);
        }
    }

    private static int value(String text, List<String> names, String expr) {
        if (names != null) {
            int i = names.indexOf(text.toLowerCase(Locale.ROOT));
            if (i >= 0) {
                return names == MONTHS ? i + 1 : i;
            }
        }
        return number(text, expr);
    }

    private static int number(String text, String expr) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("failed to parse int from " + text + ": " + expr);
        }
    }

    /** Go duration syntax as {@code @every} takes it: {@code 1h30m}, {@code 90s}, {@code 1.5h}. */
    private static Duration every(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ns|us|µs|ms|s|m|h)").matcher(text);
        double nanos = 0;
        int at = 0;
        while (m.find() && m.start() == at) {
            double v = Double.parseDouble(m.group(1));
            nanos += v * switch (m.group(2)) {
                case "ns" -> 1;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
            };
            at = m.end();
        }
        if (at == 0 || at != text.length()) {
            throw new IllegalArgumentException("failed to parse duration @every " + text + ": time: invalid duration \""
                    + text + "\"");
        }
        return Duration.ofNanos((long) nanos);
    }
}
