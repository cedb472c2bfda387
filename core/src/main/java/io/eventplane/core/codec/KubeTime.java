package io.eventplane.core.codec;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** metav1.Time and metav1.MicroTime on the wire: RFC 3339 in, UTC out with second (Time) or microsecond (MicroTime) precision. */
public final class KubeTime {
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    private KubeTime() {
    }

    /**
     * Parses an RFC 3339 timestamp: {@code 2026-11-21T10:00:00Z}, optional fraction of 1 to 9 digits, offset {@code Z}
     * or {@code +hh:mm} required; throws {@link DateTimeParseException} otherwise. Hand-written: the API reads many
     * timestamps and a DateTimeFormatter is some twenty times slower.
     */
    public static Instant parse(String text) {
        int n = text.length();
        if (n < 20 || text.charAt(4) != '-' || text.charAt(7) != '-' || (text.charAt(10) != 'T' && text.charAt(10) != 't')
                || text.charAt(13) != ':' || text.charAt(16) != ':') {
            throw bad(text, 0);
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        int pos = 19;
        int nanos = 0;
        if (text.charAt(pos) == '.') {
            int start = ++pos;
            while (pos < n && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
                pos++;
            }
            int count = pos - start;
            if (count == 0 || count > 9) {
                throw bad(text, start);
            }
            nanos = digits(text, start, count);
            for (int i = count; i < 9; i++) {
                nanos *= 10;
            }
        }
        int offsetSeconds;
        char c = pos < n ? text.charAt(pos) : ' ';
        if ((c == 'Z' || c == 'z') && pos + 1 == n) {
            offsetSeconds = 0;
        } else if ((c == '+' || c == '-') && pos + 6 == n && text.charAt(pos + 3) == ':') {
            int hh = digits(text, pos + 1, 2);
            int mm = digits(text, pos + 4, 2);
            if (hh > 23 || mm > 59) {
                throw bad(text, pos);
            }
            offsetSeconds = (c == '-' ? -1 : 1) * (hh * 3600 + mm * 60);
        } else {
            throw bad(text, pos);
        }
        try {
            return LocalDateTime.of(year, month, day, hour, minute, second, nanos)
                    .toInstant(ZoneOffset.ofTotalSeconds(offsetSeconds));
        } catch (DateTimeException e) {
            throw bad(text, 0);
        }
    }

    private static int digits(String text, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw bad(text, i);
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static DateTimeParseException bad(String text, int index) {
        return new DateTimeParseException("not an RFC 3339 time: " + text, text, index);
    }

    /**
     * metav1.Time as Kubernetes prints it: {@code 2026-11-21T10:00:00Z}. Hand-written for years 0-9999 (every watch
     * event prints several; the formatter was a sixth of the watch thread), the formatter otherwise.
     */
    public static String formatTime(Instant t) {
        LocalDateTime d = LocalDateTime.ofEpochSecond(t.getEpochSecond(), 0, ZoneOffset.UTC);
        int year = d.getYear();
        if (year < 0 || year > 9999) {
            return SECONDS.format(t.truncatedTo(ChronoUnit.SECONDS));
        }
        byte[] out = new byte[20];
        put(out, 0, year / 100);
        put(out, 2, year % 100);
        out[4] = '-';
        put(out, 5, d.getMonthValue());
        out[7] = '-';
        put(out, 8, d.getDayOfMonth());
        out[10] = 'T';
        put(out, 11, d.getHour());
        out[13] = ':';
        put(out, 14, d.getMinute());
        out[16] = ':';
        put(out, 17, d.getSecond());
        out[19] = 'Z';
        return new String(out, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static void put(byte[] out, int at, int twoDigits) {
        out[at] = (byte) ('0' + twoDigits / 10);
        out[at + 1] = (byte) ('0' + twoDigits % 10);
    }

    /** metav1.MicroTime as Kubernetes prints it: {@code 2026-11-21T10:00:00.123456Z}. */
    public static String formatMicroTime(Instant t) {
        return MICROS.format(t.truncatedTo(ChronoUnit.MICROS));
    }
}
