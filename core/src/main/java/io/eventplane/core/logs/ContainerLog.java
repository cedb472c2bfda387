package io.eventplane.core.logs;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The simulated log of one container instance (one start of it): a lifecycle line when it starts, then its declared
 * line every {@code interval} while it runs, and when it has finished the lines its program declares on exit and the
 * exit itself. A pure function of the instance's start and finish times, so any reader computes the same lines and
 * nothing is stored per line. A line's time is when the program wrote it.
 *
 * @param template  the declared line ({@code {n}}, {@code {container}}, {@code {pod}}, {@code {namespace}},
 *                  {@code {node}}, {@code {restart}} filled in), or null for lifecycle lines only
 * @param interval  the time between two declared lines
 * @param exitLines what the program writes when it exits (may be empty)
 * @param finished  when the instance exited, or null while it runs
 */
public record ContainerLog(Identity who, String template, Duration interval, List<String> exitLines, Instant started,
                           Instant finished, Integer exitCode) {

    /** What a template may name. */
    public record Identity(String namespace, String pod, String node, String container, String image, int restart) {
    }

    public record Line(Instant time, String text) {
    }

    /**
     * The lines written in {@code [since, until)} (until is the finish time when the instance has finished and
     * {@code until} is later), the last {@code tail} of them when {@code tail} is not null.
     */
    public List<Line> lines(Instant since, Instant until, Integer tail) {
        Instant end = finished != null && finished.isBefore(until) ? finished : until;
        List<Line> head = new ArrayList<>();
        addIf(head, started, "Started container " + who.container() + " (image " + who.image() + ", restart "
                + who.restart() + ")", since, end);
        boolean exited = finished != null && !finished.isAfter(until);
        long first = 1;
        long last = 0;
        if (template != null && interval.toMillis() > 0) {
            long step = interval.toMillis();
            long fromStart = since == null ? 0 : since.toEpochMilli() - started.toEpochMilli();
            first = Math.max(1, (fromStart + step - 1) / step);
            long span = end.toEpochMilli() - started.toEpochMilli();
            // up to now while it runs; strictly before the exit once it has exited (the exit's lines come last)
            last = span <= 0 ? 0 : exited ? (span - 1) / step : span / step;
        }
        List<Line> after = new ArrayList<>();
        if (exited) {
            for (String l : exitLines) {
                addIf(after, finished, fill(l, 0), since, finished);
            }
            addIf(after, finished, "Container " + who.container() + " exited with code "
                    + (exitCode == null ? 0 : exitCode), since, finished);
        }
        long middle = Math.max(0, last - first + 1);
        long total = head.size() + middle + after.size();
        long skip = tail == null ? 0 : Math.max(0, total - Math.max(0, tail));
        List<Line> out = new ArrayList<>();
        for (Line l : head) {
            if (skip-- <= 0) {
                out.add(l);
            }
        }
        long n = first + Math.max(0, skip);
        skip = Math.max(0, skip - middle);
        for (; n <= last; n++) {
            out.add(new Line(started.plusMillis(n * interval.toMillis()), fill(template, n)));
        }
        for (Line l : after) {
            if (skip-- <= 0) {
                out.add(l);
            }
        }
        return out;
    }

    /** When the next declared line after {@code after} is due, or null when none will come. */
    public Instant nextLineAfter(Instant after) {
        if (template == null || interval.toMillis() <= 0) {
            return null;
        }
        long step = interval.toMillis();
        long n = Math.max(1, (after.toEpochMilli() - started.toEpochMilli()) / step + 1);
        Instant next = started.plusMillis(n * step);
        return finished != null && !next.isBefore(finished) ? null : next;
    }

    private static void addIf(List<Line> out, Instant at, String text, Instant since, Instant end) {
        if ((since == null || !at.isBefore(since)) && !at.isAfter(end)) {
            out.add(new Line(at, text));
        }
    }

    private String fill(String text, long n) {
        return text.replace("{n}", Long.toString(n)).replace("{container}", who.container())
                .replace("{pod}", who.pod()).replace("{namespace}", who.namespace())
                .replace("{node}", who.node() == null ? "" : who.node())
                .replace("{restart}", Integer.toString(who.restart()));
    }
}
