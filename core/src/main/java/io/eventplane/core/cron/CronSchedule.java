package io.eventplane.core.cron;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CronJob schedule as Kubernetes parses it (robfig/cron v3's {@code ParseStandard}; workloads.md §8.2): five fields
 * {@code minute hour day-of-month month day-of-week} with {@code *} or {@code ?}, numbers, names ({@code JAN},
 * {@code mon}), ranges, lists and steps ({@code N/step} means N through the maximum), or a descriptor
 * ({@code @hourly}, ..., {@code @every <duration>}), optionally after a {@code TZ=}/{@code CRON_TZ=} prefix (which
 * the writer then refuses, as Kubernetes does). Error messages are robfig's, since kube-apiserver returns them.
 *
 * <p>Semantics that differ from Vixie cron and from cron-utils, on purpose: day-of-week is 0-6 (7 is refused); when
 * both day fields are restricted a day matches either (CJ-06), and a field counts as unrestricted only if it is
 * {@code *} or {@code ?} without a step above 1 ({@code *}{@code /2} restricts); descriptors are case-sensitive;
 * {@link #next} walks the wall clock as robfig does, so a time that a spring-forward skips does not fire that day and
 * one that a fall-back repeats fires twice.
 */
public final class CronSchedule {
    /** Set on a field written as {@code *} or {@code ?} (robfig's starBit). */
    private static final long STAR = 1L << 63;
    private static final Map<String, String> DESCRIPTORS = Map.of(
            "@yearly", "0 0 1 1 *", "@annually", "0 0 1 1 *", "@monthly", "0 0 1 * *", "@weekly", "0 0 * * 0",
            "@daily", "0 0 * * *", "@midnight", "0 0 * * *", "@hourly", "0 * * * *");
    private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
            "oct", "nov", "dec");
    private static final List<String> DAYS = List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat");
    private static final Pattern DURATION_PART = Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|ms|s|m|h)");

    private final long minutes;
    private final long hours;
    private final long daysOfMonth;
    private final long months;
    private final long daysOfWeek;
    private final Duration every;
    private final ZoneId zone;

    private CronSchedule(long minutes, long hours, long daysOfMonth, long months, long daysOfWeek, Duration every,
                         ZoneId zone) {
        this.minutes = minutes;
        this.hours = hours;
        this.daysOfMonth = daysOfMonth;
        this.months = months;
        this.daysOfWeek = daysOfWeek;
        this.every = every;
        this.zone = zone;
    }

    /**
     * @throws IllegalArgumentException with robfig's message, e.g. {@code expected exactly 5 fields, found 1: [hourly]}
     */
    public static CronSchedule parse(String spec) {
        String s = spec == null ? "" : spec;
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty spec string");
        }
        ZoneId zone = null;
        if (s.startsWith("TZ=") || s.startsWith("CRON_TZ=")) {
            int space = s.indexOf(' ');
            String name = s.substring(s.indexOf('=') + 1, space < 0 ? s.length() : space);
            zone = location(name);
            s = space < 0 ? "" : s.substring(space).trim();
        }
        if (s.startsWith("@")) {
            if (s.startsWith("@every ")) {
                return new CronSchedule(0, 0, 0, 0, 0, every(s, s.substring("@every ".length())), zone);
            }
            String expanded = DESCRIPTORS.get(s);
            if (expanded == null) {
                throw new IllegalArgumentException("unrecognized descriptor: " + s);
            }
            s = expanded;
        }
        String[] fields = s.trim().isEmpty() ? new String[0] : s.trim().split("\\s+");
        if (fields.length != 5) {
            throw new IllegalArgumentException("expected exactly 5 fields, found " + fields.length + ": ["
                    + String.join(" ", fields) + "]");
        }
        return new CronSchedule(field(fields[0], 0, 59, null), field(fields[1], 0, 23, null),
                field(fields[2], 1, 31, null), field(fields[3], 1, 12, MONTHS), field(fields[4], 0, 6, DAYS), null, zone);
    }

    /** Whether the schedule fires in this minute ({@code @every} schedules fire by interval, never by calendar). */
    public boolean matches(ZonedDateTime t) {
        return every == null && bit(months, t.getMonthValue()) && dayMatches(t) && bit(hours, t.getHour())
                && bit(minutes, t.getMinute());
    }

    /** The interval of an {@code @every} schedule, or null. */
    public Duration every() {
        return every;
    }

    /** The zone of a {@code TZ=}/{@code CRON_TZ=} prefix, or null. */
    public ZoneId zone() {
        return zone;
    }

    /**
     * The first activation strictly after {@code after} (to the second), in the prefix's zone or else {@code defaultZone};
     * null when there is none within five years (e.g. {@code 0 0 30 2 *}).
     */
    public Instant next(Instant after, ZoneId defaultZone) {
        if (every != null) {
            return after.truncatedTo(ChronoUnit.SECONDS).plus(every);
        }
        ZoneId loc = zone != null ? zone : defaultZone;
        // robfig's Next: start at the upcoming second, then bring each field up to a match, month first; moving a
        // field resets the smaller ones once, and a wrap of a field starts over at the month
        ZonedDateTime t = after.atZone(loc).plusSeconds(1).withNano(0);
        boolean added = false;
        int yearLimit = t.getYear() + 5;
        wrap:
        while (t.getYear() <= yearLimit) {
            while (!bit(months, t.getMonthValue())) {
                if (!added) {
                    added = true;
                    t = ZonedDateTime.of(t.getYear(), t.getMonthValue(), 1, 0, 0, 0, 0, loc);
                }
                t = t.plusMonths(1);
                if (t.getMonthValue() == 1) {
                    continue wrap;
                }
            }
            while (!dayMatches(t)) {
                if (!added) {
                    added = true;
                    t = ZonedDateTime.of(t.toLocalDate(), LocalTime.MIDNIGHT, loc);
                }
                t = t.plusDays(1);
                if (t.getHour() != 0) { // a day that does not start at midnight (DST)
                    t = t.getHour() > 12 ? t.plusHours(24 - t.getHour()) : t.minusHours(t.getHour());
                }
                if (t.getDayOfMonth() == 1) {
                    continue wrap;
                }
            }
            while (!bit(hours, t.getHour())) {
                if (!added) {
                    added = true;
                    t = t.truncatedTo(ChronoUnit.HOURS);
                }
                t = t.plusHours(1);
                if (t.getHour() == 0) {
                    continue wrap;
                }
            }
            while (!bit(minutes, t.getMinute())) {
                if (!added) {
                    added = true;
                    t = t.truncatedTo(ChronoUnit.MINUTES);
                }
                t = t.plusMinutes(1);
                if (t.getMinute() == 0) {
                    continue wrap;
                }
            }
            while (t.getSecond() != 0) {
                if (!added) {
                    added = true;
                    t = t.truncatedTo(ChronoUnit.SECONDS);
                }
                t = t.plusSeconds(1);
                if (t.getSecond() == 0) {
                    continue wrap;
                }
            }
            return t.toInstant();
        }
        return null;
    }

    private boolean dayMatches(ZonedDateTime t) {
        boolean dom = bit(daysOfMonth, t.getDayOfMonth());
        boolean dow = bit(daysOfWeek, t.getDayOfWeek().getValue() % 7);
        if ((daysOfMonth & STAR) != 0 || (daysOfWeek & STAR) != 0) {
            return dom && dow;
        }
        return dom || dow;
    }

    private static boolean bit(long bits, int i) {
        return (bits & (1L << i)) != 0;
    }

    private static ZoneId location(String name) {
        if (name.isEmpty() || name.equals("UTC")) {
            return ZoneId.of("UTC");
        }
        try {
            return name.equals("Local") ? ZoneId.systemDefault() : ZoneId.of(name);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("provided bad location " + name + ": unknown time zone " + name);
        }
    }

    /** A comma-separated list of ranges; empty elements are skipped, as robfig does. */
    private static long field(String field, int min, int max, List<String> names) {
        long bits = 0;
        for (String part : field.split(",")) {
            if (!part.isEmpty()) {
                bits |= range(part, min, max, names);
            }
        }
        return bits;
    }

    private static long range(String expr, int min, int max, List<String> names) {
        String[] rangeAndStep = expr.split("/", -1);
        String[] lowAndHigh = rangeAndStep[0].split("-", -1);
        long extra = 0;
        int start;
        int end;
        if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
            start = min;
            end = max;
            extra = STAR;
        } else {
            start = value(lowAndHigh[0], names);
            switch (lowAndHigh.length) {
                case 1 -> end = start;
                case 2 -> end = value(lowAndHigh[1], names);
                default -> throw new IllegalArgumentException("too many hyphens: " + expr);
            }
        }
        int step;
        switch (rangeAndStep.length) {
            case 1 -> step = 1;
            case 2 -> {
                step = number(rangeAndStep[1]);
                if (lowAndHigh.length == 1) {
                    end = max; // "N/step" means "N-max/step"
                }
                if (step > 1) {
                    extra = 0;
                }
            }
            default -> throw new IllegalArgumentException("too many slashes: " + expr);
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
        if (step == 0) {
            throw new IllegalArgumentException("step of range should be a positive number: " + expr);
        }
        long bits = 0;
        for (int i = start; i <= end; i += step) {
            bits |= 1L << i;
        }
        return bits | extra;
    }

    private static int value(String text, List<String> names) {
        if (names != null) {
            int i = names.indexOf(text.toLowerCase(java.util.Locale.ROOT));
            if (i >= 0) {
                return names == MONTHS ? i + 1 : i;
            }
        }
        return number(text);
    }

    /** Go's strconv.Atoi, and robfig's refusal of negative numbers. */
    private static int number(String text) {
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            String why = text.matches("[+-]?[0-9]+") ? "value out of range" : "invalid syntax";
            throw new IllegalArgumentException("failed to parse int from " + text + ": strconv.Atoi: parsing \""
                    + text + "\": " + why);
        }
        if (n < 0) {
            throw new IllegalArgumentException("negative number (" + n + ") not allowed: " + text);
        }
        return n;
    }

    /** Go's time.ParseDuration as {@code @every} takes it ({@code 1h30m}, {@code 90s}, {@code 1.5h}), to whole seconds, at least one. */
    private static Duration every(String spec, String text) {
        String t = text;
        boolean negative = t.startsWith("-");
        if (t.startsWith("-") || t.startsWith("+")) {
            t = t.substring(1);
        }
        double nanos = 0;
        if (!t.equals("0")) {
            Matcher m = DURATION_PART.matcher(t);
            int at = 0;
            while (m.find() && m.start() == at && !m.group(1).isEmpty() && !m.group(1).equals(".")) {
                nanos += Double.parseDouble(m.group(1)) * switch (m.group(2)) {
                    case "ns" -> 1;
                    case "us", "µs" -> 1e3;
                    case "ms" -> 1e6;
                    case "s" -> 1e9;
                    case "m" -> 60e9;
                    default -> 3600e9;
                };
                at = m.end();
            }
            if (at == 0 || at != t.length()) {
                throw new IllegalArgumentException("failed to parse duration " + spec + ": time: invalid duration \""
                        + text + "\"");
            }
        }
        long seconds = negative ? 0 : (long) (nanos / 1e9);
        return Duration.ofSeconds(Math.max(1, seconds));
    }
}
