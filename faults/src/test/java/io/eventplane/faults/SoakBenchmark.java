package io.eventplane.faults;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.log.LogReader;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.nodesim.NodeFailure;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.FreePorts;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 item 6, a benchmark (never in the test run): {@code eventplane up} under churn for
 * {@code faults.soak.minutes} (30 by default): {@code faults.soak.rate} (50) pod creates and as many deletes a second, a Deployment rolled out every
 * minute, a node failed and recovered every few minutes. The process's heap floor, threads and open files and the
 * log's topic sizes are sampled; each is reported per quarter of the run with a verdict (bounded, or growing in every
 * quarter). Then an idle phase: whatever still writes to the command log with no one using the cluster is listed by
 * actor, verb and kind, with its rate (a periodic write that never stops is what this looks for).
 * <pre>./mvnw -B -pl faults -am verify -Psoak -Dtest=SoakBenchmark -Dsurefire.failIfNoSpecifiedTests=false [-Dfaults.soak.minutes=30]</pre>
 */
@Tag("benchmark")
class SoakBenchmark {
    static final String CASE = "6 soak";
    static final String JSON = "application/json";
    static final String MERGE = "application/merge-patch+json";
    static final int LIVE_PODS = 500;
    static final Duration SAMPLE_EVERY = Duration.ofSeconds(10);

    final Path data = Path.of("target", "soak-" + UUID.randomUUID()).toAbsolutePath();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    ServiceProcesses up;

    @AfterEach
    void stop() {
        if (up != null) {
            up.close();
        }
    }

    /** One sample of the cluster process and the log. */
    record Sample(long atMillis, long heapUsedKb, long threads, long openFiles, long rssKb, long logKb,
                  Map<String, Long> topicBytes) {
    }

    @Test
    @DisplayName("issue 20 item 6: soak: churn, rollouts and node failures; heap, threads, files and topics sampled; idle writers listed")
    void soak() throws Exception {
        long minutes = Long.getLong("faults.soak.minutes", 30);
        int rate = Integer.getInteger("faults.soak.rate", 50);
        int port = FreePorts.next();
        up = new ServiceProcesses("soak", Map.of());
        // GC logs (one per process: the registry child inherits the option): pauses that stall the broker show there
        Path gcLogs = Files.createDirectories(data.resolveSibling(data.getFileName() + "-gc"));
        long pid = up.startWithHeap("up", System.getProperty("faults.soak.heap", "1g"), "io.eventplane.launcher.Eventplane",
                Map.of("JAVA_TOOL_OPTIONS", "-Xlog:gc:file=" + gcLogs.resolve("gc-%p.log")),
                "up", "--data-dir", data.toString(), "--port", Integer.toString(port), "--nodes", "4",
                "--insecure-http").pid();
        Api api = new Api("http://127.0.0.1:" + port);
        api.awaitReady(Duration.ofMinutes(4));
        EventplaneConfig config = connection();
        Rollout rollout = new Rollout(20);
        api.post("/apis/apps/v1/namespaces/default/deployments", rollout.deployment());
        rollout.awaitRolledOut(api);
        // what an idle cluster writes before any churn (after it, the same is measured again: it should not have grown)
        idlePhase(config, "before the churn", Duration.ofSeconds(10), Duration.ofSeconds(120));

        // Leak or live set: class histograms (each after a full GC) of the cluster process and its registry child,
        // at the start, then every sixth of the run, and once more after the idle phase
        Path histograms = data.resolveSibling(data.getFileName() + "-histograms");
        List<HeapHistograms> heaps = new ArrayList<>(List.of(new HeapHistograms("eventplane-up", pid, histograms)));
        ProcessHandle.of(pid).stream().flatMap(ProcessHandle::descendants).findFirst()
                .ifPresent(registry -> heaps.add(uncheckedHistograms("registry", registry.pid(), histograms)));
        long histogramEvery = Math.max(20_000, Duration.ofMinutes(minutes).toMillis() / 6);

        List<Sample> samples = new ArrayList<>();
        long start = System.currentTimeMillis();
        long nextHistogram = start;
        long end = start + Duration.ofMinutes(minutes).toMillis();
        long nextSample = start;
        long nextRollout = start + 60_000;
        long nextNodeFailure = start + 90_000;
        String failedNode = null;
        int created = 0;
        int round = 1;
        long tick = System.nanoTime();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", config.bootstrapServers()))) {
            while (System.currentTimeMillis() < end) {
                // churn: a create and, once LIVE_PODS exist, a delete of the oldest, `rate` times a second
                send("POST", api.base + "/api/v1/namespaces/default/pods", JSON, BrokerOutageTest.pod("churn-" + created));
                if (created >= LIVE_PODS) {
                    send("DELETE", api.base + "/api/v1/namespaces/default/pods/churn-" + (created - LIVE_PODS), null,
                            null);
                }
                created++;
                long now = System.currentTimeMillis();
                // rollouts and node failures are sent like the churn, never waited for: the pace holds whatever the API does
                if (now >= nextRollout) {
                    send("PATCH", api.base + Rollout.PATH, "application/strategic-merge-patch+json",
                            "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:"
                                    + (++round) + "\"}]}}}}");
                    nextRollout = now + 60_000;
                }
                if (now >= nextNodeFailure) {
                    String node = failedNode == null ? "node-" + (1 + round % 4) : failedNode;
                    String state = failedNode == null ? "\"" + NodeFailure.FAILED + "\"" : "null";
                    send("PATCH", api.base + "/api/v1/nodes/" + node, MERGE,
                            "{\"metadata\":{\"annotations\":{\"" + NodeFailure.ANNOTATION + "\":" + state + "}}}");
                    failedNode = failedNode == null ? node : null;
                    nextNodeFailure = now + (failedNode == null ? 120_000 : 60_000);
                }
                if (now >= nextSample) {
                    samples.add(sample(pid, admin, now - start, up.log("up")));
                    nextSample = now + SAMPLE_EVERY.toMillis();
                }
                if (now >= nextHistogram) {
                    heaps.forEach(h -> h.take(now - start));
                    nextHistogram = now + histogramEvery;
                    tick = System.nanoTime(); // the pace goes on from here, no burst to make up for the pause
                }
                tick += 1_000_000_000L / rate;
                long sleep = tick - System.nanoTime();
                if (sleep > 0) {
                    Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
                }
            }
            if (failedNode != null) {
                send("PATCH", api.base + "/api/v1/nodes/" + failedNode, MERGE,
                        "{\"metadata\":{\"annotations\":{\"" + NodeFailure.ANNOTATION + "\":null}}}");
            }
            long churnEnd = System.currentTimeMillis() - start;
            heaps.forEach(h -> h.take(churnEnd));
            report(samples);
            Figures.report(CASE, "samples the broker did not answer in time", samples.stream()
                    .filter(x -> x.topicBytes().containsKey("(no answer)")).count() + " of " + samples.size());
            gcPauses(gcLogs.resolve("gc-" + pid + ".log"));
            idlePhase(config, "after the churn", Duration.ofSeconds(30), Duration.ofSeconds(Math.max(60, minutes * 6)));
            long afterIdle = System.currentTimeMillis() - start;
            heaps.forEach(h -> {
                h.take(afterIdle);
                h.report();
            });
            Figures.report(CASE, "histograms (one file each)", histograms);
            Figures.report(CASE, "churn", minutes + " min at " + rate + " creates/s, " + created + " pod creates, " + round
                    + " rollouts; answers by status (0: none within 30 s) " + new TreeMap<>(counts()));
        }
    }

    private static HeapHistograms uncheckedHistograms(String process, long pid, Path dir) {
        try {
            return new HeapHistograms(process, pid, dir);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void send(String method, String url, String contentType, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        http.sendAsync(b.build(), HttpResponse.BodyHandlers.discarding()).handle((r, e) -> {
            statuses.computeIfAbsent(r == null ? 0 : r.statusCode(), s -> new AtomicInteger()).incrementAndGet();
            return null;
        });
    }

    private Map<Integer, Integer> counts() {
        Map<Integer, Integer> out = new HashMap<>();
        statuses.forEach((s, n) -> out.put(s, n.get()));
        return out;
    }

    /**
     * The process's heap in use (jcmd), threads, resident memory and open files (/proc), its console log's size, and
     * the topics' sizes.
     */
    static Sample sample(long pid, Admin admin, long atMillis, Path log) throws Exception {
        long heap = -1;
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "GC.heap_info").redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        jcmd.waitFor();
        Matcher m = Pattern.compile("used (\\d+)K").matcher(out);
        if (m.find()) {
            heap = Long.parseLong(m.group(1));
        }
        long threads = -1;
        long rss = -1;
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("Threads:")) {
                threads = Long.parseLong(line.substring(8).trim());
            } else if (line.startsWith("VmRSS:")) {
                rss = Long.parseLong(line.substring(6).replace("kB", "").trim());
            }
        }
        long files;
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            files = fds.count();
        }
        Map<String, Long> topics = new TreeMap<>();
        try {
            Map<Integer, Map<String, LogDirDescription>> dirs = admin.describeLogDirs(List.of(1)).allDescriptions()
                    .get(20, TimeUnit.SECONDS);
            dirs.values().forEach(byDir -> byDir.values().forEach(d -> d.replicaInfos().forEach((tp, info) ->
                    topics.merge(tp.topic(), info.size(), Long::sum))));
        } catch (ExecutionException | TimeoutException e) {
            // the broker too busy to answer in time: this sample has no topic sizes (a figure in itself)
            topics.put("(no answer)", 1L);
        }
        return new Sample(atMillis, heap, threads, files, rss, Files.size(log) / 1024, topics);
    }

    /**
     * Per metric: its mean in each quarter of the run (the first quarter is warm-up) and a verdict. A metric that rose
     * from quarter to quarter by more than 10% each time "grows", one whose last quarter is half again the second
     * "rose"; the log's topics grow by design (retention is the
     * operator's) and are reported as MB per minute.
     */
    static void report(List<Sample> samples) {
        Map<String, ToLongFunction<Sample>> metrics = new LinkedHashMap<>();
        metrics.put("heap used (MB)", s -> s.heapUsedKb() / 1024);
        metrics.put("resident memory (MB)", s -> s.rssKb() / 1024);
        metrics.put("threads", Sample::threads);
        metrics.put("open files", Sample::openFiles);
        metrics.put("its console log (KB)", Sample::logKb);
        for (var e : metrics.entrySet()) {
            long[] quarters = quarters(samples, e.getValue());
            boolean grows = quarters[1] * 1.1 < quarters[2] && quarters[2] * 1.1 < quarters[3];
            boolean jumped = quarters[3] > 1.5 * quarters[1];
            Figures.report(CASE, e.getKey() + " by quarter", Arrays.toString(quarters)
                    + (grows ? " GROWS in every quarter" : jumped ? " ROSE by half after warm-up" : " bounded"));
        }
        if (samples.size() >= 2) {
            Sample first = samples.get(0);
            Sample last = samples.get(samples.size() - 1);
            double minutes = Math.max(1, last.atMillis() - first.atMillis()) / 60_000.0;
            last.topicBytes().forEach((topic, bytes) -> Figures.report(CASE, "topic " + topic,
                    String.format(Locale.ROOT, "%.1f MB, %.2f MB/min", bytes / 1e6,
                            (bytes - first.topicBytes().getOrDefault(topic, 0L)) / 1e6 / minutes)));
        }
    }

    static long[] quarters(List<Sample> samples, ToLongFunction<Sample> metric) {
        long[] out = new long[4];
        int n = samples.size();
        if (n == 0) {
            return out;
        }
        for (int q = 0; q < 4; q++) {
            List<Sample> part = samples.subList(q * n / 4, Math.max(q * n / 4 + 1, (q + 1) * n / 4));
            out[q] = part.isEmpty() ? 0 : (long) part.stream().mapToLong(metric).average().orElse(0);
            if (metric.applyAsLong(part.get(0)) < 0) {
                out[q] = -1;
            }
        }
        return out;
    }

    /** The cluster process's GC pauses: how many, the longest, and their total. */
    static void gcPauses(Path gcLog) throws IOException {
        if (!Files.exists(gcLog)) {
            return;
        }
        Pattern pause = Pattern.compile("Pause (\\w+).* (\\d+\\.\\d+)ms$");
        Map<String, double[]> byKind = new TreeMap<>();
        for (String line : Files.readAllLines(gcLog)) {
            Matcher m = pause.matcher(line);
            if (m.find()) {
                double ms = Double.parseDouble(m.group(2));
                double[] t = byKind.computeIfAbsent(m.group(1), k -> new double[3]);
                t[0]++;
                t[1] = Math.max(t[1], ms);
                t[2] += ms;
            }
        }
        byKind.forEach((kind, t) -> Figures.report(CASE, "GC pauses " + kind, String.format(Locale.ROOT,
                "%d, longest %.0f ms, total %.1f s", (long) t[0], t[1], t[2] / 1000)));
    }

    /**
     * With nobody using the cluster for {@code idle}: the commands still sent per minute by actor, verb and kind, each
     * with the writer's verdict (changed: an event appended; no-op; rejected with its reason), and the event log's
     * write rate (changes appended per minute), the figure an idle cluster should keep near its heartbeats.
     */
    static void idlePhase(EventplaneConfig config, String when, Duration settle, Duration idle)
            throws InterruptedException {
        try {
            idleWriters(config, when, settle, idle);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            Figures.report(CASE, "idle phase " + when, "the log could not be read: " + e);
        }
    }

    static void idleWriters(EventplaneConfig config, String when, Duration settle, Duration idle) throws Exception {
        Thread.sleep(settle.toMillis()); // the last commands (and after the churn, the evictions) settle
        Map<Integer, Long> commandsFrom = endOffsets(config, config.topics().commands());
        Map<Integer, Long> outcomesFrom = endOffsets(config, config.topics().outcomes());
        Thread.sleep(idle.toMillis());
        Map<String, String> verbs = new HashMap<>();
        new LogReader<>(config, config.topics().commands(), LogSerdes.commands(config).deserializer())
                .timeout(Duration.ofMinutes(5)).readFromOffsets(commandsFrom, r -> {
                    Command cmd = r.value();
                    if (cmd != null) {
                        verbs.put(cmd.getEnvelope().getRequestId(), cmd.getVerb().toString());
                    }
                    return true;
                });
        Map<String, Integer> writers = new TreeMap<>();
        int[] changed = new int[1];
        new LogReader<>(config, config.topics().outcomes(), LogSerdes.outcomes(config).deserializer())
                .timeout(Duration.ofMinutes(5)).readFromOffsets(outcomesFrom, r -> {
                    CommandOutcome o = r.value();
                    if (o != null && verbs.containsKey(o.getEnvelope().getRequestId())) {
                        String verdict = !o.getAccepted() ? "rejected " + o.getCode() + " " + o.getReason()
                                : o.getChanged() ? "changed" : "no-op";
                        changed[0] += o.getAccepted() && o.getChanged() ? 1 : 0;
                        writers.merge(o.getEnvelope().getActor() + " " + verbs.get(o.getEnvelope().getRequestId())
                                + " " + o.getKind() + ": " + verdict, 1, Integer::sum);
                    }
                    return true;
                });
        double minutes = idle.toMillis() / 60_000.0;
        Figures.report(CASE, "idle " + idle.toSeconds() + " s " + when + ": write rate", String.format(Locale.ROOT,
                "%.1f commands/min, %.1f events appended/min", verbs.size() / minutes, changed[0] / minutes));
        writers.forEach((w, n) -> Figures.report(CASE, "idle " + when + ": " + w,
                String.format(Locale.ROOT, "%.1f / min", n / minutes)));
    }

    static Map<Integer, Long> endOffsets(EventplaneConfig config, String topic) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = c.partitionsFor(topic, Duration.ofMinutes(1)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            Map<Integer, Long> out = new TreeMap<>();
            c.endOffsets(partitions, Duration.ofMinutes(3)).forEach((tp, end) -> out.put(tp.partition(), end));
            return out;
        }
    }

    EventplaneConfig connection() throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(data.resolve("connection.properties"))) {
            p.load(r);
        }
        return new EventplaneConfig(p.getProperty("bootstrap"), p.getProperty("registry"),
                new Topics(p.getProperty("topic-prefix")), Integer.parseInt(p.getProperty("partitions")));
    }
}
