package io.eventplane.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Leak or live set: {@code jcmd <pid> GC.class_histogram} of a long-lived process, taken a few times during the soak.
 * The histogram counts live objects only (jcmd runs a full GC first), so its total is the heap after a full GC; a class
 * whose bytes rise from the start to the middle and again to the end is what a leak looks like, one that rises and
 * then holds is a live set filling up (caches, views of a larger log). Each histogram is kept as a file.
 */
final class HeapHistograms {
    /** One histogram: bytes and instances by class, and when it was taken. */
    record Histogram(long atMillis, long totalBytes, Map<String, long[]> byClass, long threads) {
    }

    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");
    private static final Pattern TOTAL = Pattern.compile("^Total\\s+\\d+\\s+(\\d+)");

    private final String process;
    private final long pid;
    private final Path dir;
    private final List<Histogram> taken = new ArrayList<>();

    HeapHistograms(String process, long pid, Path dir) throws IOException {
        this.process = process;
        this.pid = pid;
        this.dir = Files.createDirectories(dir);
    }

    /** Takes a histogram now (a full GC of the process); a process that is gone or does not answer is skipped. */
    void take(long atMillis) {
        try {
            Process jcmd = new ProcessBuilder(jcmd(pid), Long.toString(pid), "GC.class_histogram")
                    .redirectErrorStream(true).start();
            String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            jcmd.waitFor();
            Files.writeString(dir.resolve(process + "-" + (atMillis / 1000) + "s.histo"), out);
            Map<String, long[]> byClass = new HashMap<>();
            long total = -1;
            for (String line : out.split("\n")) {
                Matcher row = ROW.matcher(line);
                Matcher sum = TOTAL.matcher(line);
                if (row.find()) {
                    byClass.merge(row.group(3), new long[] {Long.parseLong(row.group(1)), Long.parseLong(row.group(2))},
                            (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
                } else if (sum.find()) {
                    total = Long.parseLong(sum.group(1));
                }
            }
            if (total >= 0) {
                taken.add(new Histogram(atMillis, total, byClass, threads(pid)));
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            Figures.report(SoakBenchmark.CASE, process + " histogram at " + atMillis / 1000 + " s", "not taken: " + e);
        }
    }

    /** The jcmd of the JDK the process runs on (the registry runs on a newer JDK than the test). */
    static String jcmd(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().command()).map(Path::of)
                .map(java -> java.resolveSibling("jcmd").toString())
                .orElse(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString());
    }

    static long threads(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("Threads:")) {
                return Long.parseLong(line.substring(8).trim());
            }
        }
        return -1;
    }

    /**
     * Reports the heap after full GC and the threads at each histogram, and the classes that grew most from the first
     * to the last, with their size in the middle: "grows" when they rose by over 10% in both halves and by 1 MB.
     */
    void report() {
        if (taken.isEmpty()) {
            return;
        }
        Figures.report(SoakBenchmark.CASE, process + " heap after full GC over time (MB at s)", taken.stream()
                .map(h -> String.format(Locale.ROOT, "%.1f@%d", h.totalBytes() / 1e6, h.atMillis() / 1000)).toList());
        Figures.report(SoakBenchmark.CASE, process + " threads at each histogram",
                taken.stream().map(Histogram::threads).toList());
        if (taken.size() < 3) {
            return;
        }
        Histogram first = taken.get(0);
        Histogram middle = taken.get(taken.size() / 2);
        Histogram last = taken.get(taken.size() - 1);
        List<String> classes = new ArrayList<>(last.byClass().keySet());
        classes.sort(Comparator.comparingLong((String c) -> bytes(last, c) - bytes(first, c)).reversed());
        int grows = 0;
        for (String c : classes.subList(0, Math.min(10, classes.size()))) {
            long a = bytes(first, c);
            long b = bytes(middle, c);
            long z = bytes(last, c);
            boolean rising = b > a * 1.1 && z > b * 1.1 && z - a > 1_000_000; // a few KB more is noise
            grows += rising ? 1 : 0;
            Figures.report(SoakBenchmark.CASE, process + " class " + c, String.format(Locale.ROOT,
                    "%.2f -> %.2f -> %.2f MB (%d -> %d instances)%s", a / 1e6, b / 1e6, z / 1e6,
                    count(first, c), count(last, c), rising ? " GROWS in both halves" : ""));
        }
        long floorRise = last.totalBytes() - middle.totalBytes();
        Figures.report(SoakBenchmark.CASE, process + " verdict", String.format(Locale.ROOT,
                "heap after full GC %.1f -> %.1f -> %.1f MB; %d of the top 10 growing classes grow in both halves: %s",
                first.totalBytes() / 1e6, middle.totalBytes() / 1e6, last.totalBytes() / 1e6, grows,
                grows > 0 && floorRise > middle.totalBytes() / 10 ? "LEAK suspected" : "live set (bounded)"));
    }

    private static long bytes(Histogram h, String c) {
        long[] v = h.byClass().get(c);
        return v == null ? 0 : v[1];
    }

    private static long count(Histogram h, String c) {
        long[] v = h.byClass().get(c);
        return v == null ? 0 : v[0];
    }
}
