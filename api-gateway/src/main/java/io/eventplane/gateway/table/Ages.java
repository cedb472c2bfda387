package io.eventplane.gateway.table;

import java.time.Duration;
import java.time.Instant;

/** Durations as kubectl prints them in AGE columns: {@code 45s}, {@code 3m2s}, {@code 5h10m}, {@code 2d}, {@code 3y}. */
public final class Ages {
    private Ages() {
    }

    /** The age of something that happened at {@code then}, or {@code <unknown>} when there is no time. */
    public static String since(Instant then, Instant now) {
        return then == null ? "<unknown>" : human(Duration.between(then, now));
    }

    public static String human(Duration d) {
        long seconds = d.getSeconds();
        if (seconds < -1) {
            return "<invalid>";
        }
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            long s = seconds % 60;
            return s == 0 ? minutes + "m" : minutes + "m" + s + "s";
        }
        if (minutes < 180) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            long m = minutes % 60;
            return m == 0 ? hours + "h" : hours + "h" + m + "m";
        }
        if (hours < 48) {
            return hours + "h";
        }
        long days = hours / 24;
        if (hours < 24 * 8) {
            long h = hours % 24;
            return h == 0 ? days + "d" : days + "d" + h + "h";
        }
        if (days < 365 * 2) {
            return days + "d";
        }
        long years = days / 365;
        if (days < 365 * 8) {
            long dy = days % 365;
            return dy == 0 ? years + "y" : years + "y" + dy + "d";
        }
        return years + "y";
    }
}
