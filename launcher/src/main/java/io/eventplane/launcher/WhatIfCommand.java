package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.scheduler.SchedulerDecider;
import java.io.PrintStream;
import java.util.List;
import java.util.TreeSet;

/**
 * {@code eventplane whatif scheduler [--seed S] [--percentage-of-nodes-to-score P] [--default-spread system|none]}:
 * replays the recorded history through a scheduler with a changed profile, in a sandbox that only reads the log, and
 * reports how its decisions differ from the ones recorded.
 */
final class WhatIfCommand {
    private WhatIfCommand() {
    }

    static int run(Options options, PrintStream out, PrintStream err) throws Exception {
        if (options.positional().size() != 1 || !options.positional().get(0).equals("scheduler")) {
            throw new Options.UsageException("usage: eventplane whatif scheduler [--seed S] "
                    + "[--percentage-of-nodes-to-score P] [--default-spread system|none] [--show N]");
        }
        EventplaneConfig config = Connection.config(options, err, "whatif");
        if (config == null) {
            return 1;
        }
        String spread = options.get("default-spread", "system");
        if (!spread.equals("system") && !spread.equals("none")) {
            throw new Options.UsageException("--default-spread wants system or none");
        }
        SchedulerDecider.Profile changed = new SchedulerDecider.Profile(options.intValue("seed", 0),
                options.intValue("percentage-of-nodes-to-score", 0), spread.equals("none") ? List.of() : null);
        long started = System.nanoTime();
        SchedulerWhatIf.Report report = new SchedulerWhatIf(SchedulerDecider.Profile.defaults(), changed).run(config);
        int n = report.decisions().size();
        out.printf("what-if scheduler (seed %d, percentageOfNodesToScore %d, default spread %s): %,d recorded bindings "
                        + "replayed in %.1f s, reading %s and writing nothing%n", changed.seed(),
                changed.percentageOfNodesToScore(), spread, n, (System.nanoTime() - started) / 1e9,
                config.topics().events());
        if (n == 0) {
            return 0;
        }
        out.printf("  baseline (today's scheduler, default profile) agrees with the record: %,d of %,d (%.1f%%)%n",
                report.baselineAgrees(), n, 100.0 * report.baselineAgrees() / n);
        out.printf("  changed scheduler agrees with the record:                           %,d of %,d (%.1f%%)%n",
                report.changedAgrees(), n, 100.0 * report.changedAgrees() / n);
        out.println();
        out.printf("  %-28s %10s %10s%n", "NODE", "RECORDED", "WHAT-IF");
        TreeSet<String> nodes = new TreeSet<>(report.recordedPerNode().keySet());
        nodes.addAll(report.changedPerNode().keySet());
        for (String node : nodes) {
            out.printf("  %-28s %10d %10d%n", node, report.recordedPerNode().getOrDefault(node, 0),
                    report.changedPerNode().getOrDefault(node, 0));
        }
        List<SchedulerWhatIf.Decision> diffs = report.differences();
        int show = options.intValue("show", 20);
        if (!diffs.isEmpty()) {
            out.println();
            out.printf("  %-40s %-20s %-20s%n", "POD", "RECORDED", "WHAT-IF");
            for (SchedulerWhatIf.Decision d : diffs.subList(0, Math.min(show, diffs.size()))) {
                out.printf("  %-40s %-20s %-20s%n", d.pod(), d.recorded(), d.changed());
            }
            if (diffs.size() > show) {
                out.printf("  ... and %,d more (--show N)%n", diffs.size() - show);
            }
        }
        return 0;
    }
}
