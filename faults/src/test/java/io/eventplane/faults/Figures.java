package io.eventplane.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Locale;

/**
 * The figures each fault case reports besides pass or fail (time to converge, writes lost, 5xx answers, inputs
 * tried): printed as {@code [fault-figure] case: name = value} and appended to {@code target/fault-figures.txt}.
 */
final class Figures {
    static final Path FILE = Path.of("target", "fault-figures.txt");

    /** The long mode: every service killed, 100 replicas, more load ({@code -Pfaults-long}). */
    static final boolean LONG = Boolean.getBoolean("faults.long");

    private Figures() {
    }

    static void report(String faultCase, String name, Object value) {
        String line = String.format(Locale.ROOT, "[fault-figure] %s: %s = %s%s", faultCase, name, value,
                System.lineSeparator());
        System.out.print(line);
        try {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }

    static String seconds(long nanos) {
        return seconds(Duration.ofNanos(nanos));
    }
}
