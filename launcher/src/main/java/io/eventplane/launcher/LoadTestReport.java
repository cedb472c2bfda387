package io.eventplane.launcher;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The load test's results: pod startup latency by phase (from the event log's timestamps and the watcher's), scheduling
 * throughput sampled every second, API call latency per verb and resource, events/s and writer lag over time, CPU by
 * component; the run's parameters and the machine. Written as JSON for machines and as one self-contained HTML page
 * (inline SVG plots, no scripts or external files) for people.
 */
final class LoadTestReport {
    static final String[] PHASES = {"create_to_scheduled", "scheduled_to_running", "running_to_watch_observed",
            "end_to_end"};

    final Map<String, double[]> phases = new LinkedHashMap<>();
    final Map<String, Percentiles> phaseStats = new LinkedHashMap<>();
    final Map<String, Percentiles> apiStats = new TreeMap<>();
    final double[] scheduledPerSecond;
    final Percentiles schedulingThroughput;
    final LoadTestRun run;
    final LoadTestRun.Plan plan;
    final Map<String, Object> environment;
    final long podsRunning;
    final Duration allRunningAfter;
    final Map<String, Long> changesByKind;
    final long changesInRun;

    LoadTestReport(LoadTestRun run, LoadTestTimeline timeline, LoadTestRun.Plan plan, Map<String, Object> environment) {
        this.changesByKind = timeline.changesByKind;
        this.changesInRun = timeline.changesInRun;
        this.run = run;
        this.plan = plan;
        this.environment = environment;
        List<Double> c2s = new ArrayList<>();
        List<Double> s2r = new ArrayList<>();
        List<Double> r2o = new ArrayList<>();
        List<Double> e2e = new ArrayList<>();
        Instant firstBind = null;
        Instant lastBind = null;
        Instant lastRunning = null;
        for (Map.Entry<String, LoadTestTimeline.Moments> e : timeline.pods.entrySet()) {
            LoadTestTimeline.Moments m = e.getValue();
            Instant observed = run.observedRunning.get(e.getKey());
            if (m.created != null && m.bound != null) {
                c2s.add(ms(m.created, m.bound));
            }
            if (m.bound != null && m.running != null) {
                s2r.add(ms(m.bound, m.running));
            }
            if (m.running != null && observed != null) {
                r2o.add(ms(m.running, observed));
            }
            if (m.created != null && observed != null) {
                e2e.add(ms(m.created, observed));
            }
            if (m.bound != null) {
                firstBind = firstBind == null || m.bound.isBefore(firstBind) ? m.bound : firstBind;
                lastBind = lastBind == null || m.bound.isAfter(lastBind) ? m.bound : lastBind;
            }
            if (observed != null && (lastRunning == null || observed.isAfter(lastRunning))) {
                lastRunning = observed;
            }
        }
        put(PHASES[0], c2s);
        put(PHASES[1], s2r);
        put(PHASES[2], r2o);
        put(PHASES[3], e2e);
        run.apiLatencies.forEach((k, v) -> {
            double[] a;
            synchronized (v) {
                a = v.stream().mapToDouble(Double::doubleValue).toArray();
            }
            apiStats.put(k, Percentiles.of(a));
        });
        scheduledPerSecond = bucket(timeline, firstBind, lastBind);
        schedulingThroughput = Percentiles.of(scheduledPerSecond);
        podsRunning = run.observedRunning.size();
        allRunningAfter = lastRunning == null ? null : Duration.between(run.started, lastRunning);
    }

    private void put(String phase, List<Double> values) {
        double[] a = values.stream().mapToDouble(Double::doubleValue).toArray();
        phases.put(phase, a);
        phaseStats.put(phase, Percentiles.of(a));
    }

    /** Pods bound in each whole second from the first binding to the last, as the log recorded them. */
    private static double[] bucket(LoadTestTimeline timeline, Instant first, Instant last) {
        if (first == null) {
            return new double[0];
        }
        int seconds = (int) Math.max(1, Duration.between(first, last).toSeconds() + 1);
        double[] out = new double[seconds];
        for (LoadTestTimeline.Moments m : timeline.pods.values()) {
            if (m.bound != null) {
                int s = (int) Math.min(seconds - 1, Duration.between(first, m.bound).toMillis() / 1000);
                out[s]++;
            }
        }
        return out;
    }

    double averageSchedulingRate() {
        double sum = 0;
        for (double v : scheduledPerSecond) {
            sum += v;
        }
        return scheduledPerSecond.length == 0 ? 0 : sum / scheduledPerSecond.length;
    }

    private static double ms(Instant a, Instant b) {
        return Duration.between(a, b).toNanos() / 1e6;
    }

    ObjectNode json() {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.put("kind", "LoadTestReport");
        root.put("started", run.started.toString());
        root.put("finished", run.finished.toString());
        root.set("parameters", m.valueToTree(plan.describe()));
        root.set("environment", m.valueToTree(environment));
        ObjectNode summary = root.putObject("summary");
        summary.put("podsRequested", plan.pods());
        summary.put("podsRunning", podsRunning);
        boolean all = podsRunning >= plan.pods();
        summary.put("allRunningSeconds", allRunningAfter == null || !all ? -1 : allRunningAfter.toMillis() / 1000.0);
        summary.put("lastRunningSeconds", allRunningAfter == null ? -1 : allRunningAfter.toMillis() / 1000.0);
        summary.put("failedApiCalls", run.samples.isEmpty() ? 0 : run.samples.get(run.samples.size() - 1).failedCalls());
        if (run.firstFailure != null) {
            summary.put("firstFailure", run.firstFailure);
        }
        ObjectNode startup = root.putObject("podStartupLatencyMs");
        phaseStats.forEach((k, v) -> startup.set(k, m.valueToTree(v)));
        ObjectNode cpu = root.putObject("cpu");
        cpu.put("changes", changesInRun);
        cpu.put("processSeconds", round(run.cpuSeconds.getOrDefault("process", -1.0), 3));
        cpu.put("processMsPerChange", round(msPerChange(run.cpuSeconds.getOrDefault("process", -1.0)), 4));
        ObjectNode components = cpu.putObject("components");
        run.cpuSeconds.forEach((k, v) -> {
            if (!k.equals("process")) {
                ObjectNode c = components.putObject(k);
                c.put("seconds", round(v, 3));
                c.put("msPerChange", round(msPerChange(v), 4));
            }
        });
        ObjectNode changes = root.putObject("changesByKindAndType");
        changesByKind.forEach(changes::put);
        ObjectNode sched = root.putObject("schedulingThroughput");
        sched.put("average", averageSchedulingRate());
        sched.set("perSecond", m.valueToTree(schedulingThroughput));
        ArrayNode series = sched.putArray("series");
        for (double v : scheduledPerSecond) {
            series.add(v);
        }
        ObjectNode api = root.putObject("apiCallLatencyMs");
        apiStats.forEach((k, v) -> api.set(k, m.valueToTree(v)));
        root.set("samples", m.valueToTree(run.samples));
        return root;
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(dir.resolve("report.json").toFile(), json());
        Files.writeString(dir.resolve("report.html"), html());
    }

    String text() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("pods running: %,d of %,d%s%n", podsRunning, plan.pods(),
                allRunningAfter == null ? "" : String.format(podsRunning >= plan.pods() ? ", all within %.1f s of the start"
                        : ", the last of them %.1f s after the start", allRunningAfter.toMillis() / 1000.0)));
        sb.append(String.format("%-28s %8s %8s %8s %8s %8s%n", "pod startup (ms)", "p50", "p90", "p99", "max", "n"));
        phaseStats.forEach((k, v) -> sb.append(String.format("%-28s %8.0f %8.0f %8.0f %8.0f %8d%n", k, v.p50(), v.p90(),
                v.p99(), v.max(), v.count())));
        sb.append(String.format("scheduling throughput: average %.0f pods/s; per second p50 %.0f, p90 %.0f, p99 %.0f, max %.0f%n",
                averageSchedulingRate(), schedulingThroughput.p50(), schedulingThroughput.p90(), schedulingThroughput.p99(),
                schedulingThroughput.max()));
        double process = run.cpuSeconds.getOrDefault("process", -1.0);
        sb.append(String.format("CPU over the measured phase: %.1f s of process CPU for %,d changes appended: %.3f ms "
                + "per change%n", process, changesInRun, msPerChange(process)));
        sb.append(String.format("%-34s %9s %13s%n", "CPU by component", "seconds", "ms/change"));
        run.cpuSeconds.forEach((k, v) -> {
            if (!k.equals("process") && v > 0) {
                sb.append(String.format("%-34s %9.1f %13.3f%n", k, v, msPerChange(v)));
            }
        });
        sb.append(String.format("%-28s %8s %8s %8s%n", "API calls (ms)", "p50", "p99", "n"));
        apiStats.forEach((k, v) -> sb.append(String.format("%-28s %8.1f %8.1f %8d%n", k, v.p50(), v.p99(), v.count())));
        return sb.toString();
    }

    String html() {
        StringBuilder h = new StringBuilder();
        h.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>Eventplane load test ")
                .append(run.started).append("</title><style>body{font-family:sans-serif;margin:2em;max-width:1100px}"
                        + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
                        + "th{background:#eee}td:first-child{text-align:left}svg{background:#fafafa;margin:8px 0}</style>"
                        + "</head><body>");
        h.append("<h1>Eventplane load test</h1><p>").append(esc(text()).replace("\n", "<br>")).append("</p>");
        h.append("<h2>Parameters</h2>").append(table(plan.describe()));
        h.append("<h2>Machine and settings</h2>").append(table(environment));
        h.append("<h2>Pod startup latency</h2>");
        List<Svg.Series> cdfs = new ArrayList<>();
        String[] colors = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"};
        int i = 0;
        for (Map.Entry<String, double[]> e : phases.entrySet()) {
            cdfs.add(Svg.cdf(e.getKey(), e.getValue(), colors[i++ % colors.length]));
        }
        h.append(Svg.lines("CDF of pod startup latency by phase", "ms", "fraction of pods", cdfs));
        h.append(Svg.histogram("End-to-end pod startup latency", "ms", phases.get("end_to_end"), 40));
        h.append("<h2>Throughput over time</h2>");
        List<double[]> sched = new ArrayList<>();
        List<double[]> created = new ArrayList<>();
        List<double[]> running = new ArrayList<>();
        List<double[]> events = new ArrayList<>();
        List<double[]> lag = new ArrayList<>();
        LoadTestRun.Sample prev = null;
        for (LoadTestRun.Sample s : run.samples) {
            if (prev != null) {
                double dt = Math.max(1e-3, s.t() - prev.t());
                created.add(new double[] {s.t(), (s.created() - prev.created()) / dt});
                sched.add(new double[] {s.t(), (s.scheduled() - prev.scheduled()) / dt});
                running.add(new double[] {s.t(), (s.running() - prev.running()) / dt});
                events.add(new double[] {s.t(), (s.eventsTotal() - prev.eventsTotal()) / dt});
            }
            lag.add(new double[] {s.t(), s.writerLag()});
            prev = s;
        }
        h.append(Svg.lines("Pods per second", "seconds since start", "pods/s", List.of(
                new Svg.Series("created", created, colors[0]), new Svg.Series("scheduled", sched, colors[1]),
                new Svg.Series("running (watched)", running, colors[2]))));
        h.append(Svg.lines("Event log", "seconds since start", "events/s", List.of(
                new Svg.Series("events appended/s", events, colors[0]))));
        h.append(Svg.lines("Writer lag (commands not yet decided)", "seconds since start", "commands", List.of(
                new Svg.Series("writer lag", lag, colors[3]))));
        h.append("<h2>API call latency</h2><table><tr><th>call</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th>"
                + "<th>max ms</th><th>n</th></tr>");
        apiStats.forEach((k, v) -> h.append(String.format("<tr><td>%s</td><td>%.1f</td><td>%.1f</td><td>%.1f</td>"
                + "<td>%.1f</td><td>%d</td></tr>", esc(k), v.p50(), v.p90(), v.p99(), v.max(), v.count())));
        h.append("</table><h2>Changes appended during the run, by kind and type</h2>").append(table(changesByKind));
        h.append("<h2>CPU by component (cores, per second)</h2>");
        Map<String, List<double[]>> cpu = new TreeMap<>();
        for (LoadTestRun.Sample s : run.samples) {
            s.cpuCores().forEach((k, v) -> cpu.computeIfAbsent(k, x -> new ArrayList<>()).add(new double[] {s.t(), v}));
        }
        List<Svg.Series> cpuSeries = new ArrayList<>();
        String[] palette = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
        i = 0;
        for (Map.Entry<String, List<double[]>> e : cpu.entrySet()) {
            cpuSeries.add(new Svg.Series(e.getKey(), e.getValue(), palette[i++ % palette.length]));
        }
        h.append(Svg.lines("CPU by component", "seconds since start", "cores", cpuSeries));
        h.append("</body></html>\n");
        return h.toString();
    }

    /** CPU milliseconds per change appended during the run (-1 when either is unknown). */
    double msPerChange(double seconds) {
        return seconds < 0 || changesInRun == 0 ? -1 : seconds * 1000 / changesInRun;
    }

    private static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    private static String table(Map<?, ?> values) {
        StringBuilder sb = new StringBuilder("<table>");
        values.forEach((k, v) -> sb.append("<tr><td>").append(esc(String.valueOf(k))).append("</td><td>")
                .append(esc(String.valueOf(v))).append("</td></tr>"));
        return sb.append("</table>").toString();
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
