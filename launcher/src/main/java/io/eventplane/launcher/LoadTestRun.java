package io.eventplane.launcher;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventplane.client.EventplaneConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * One load-test run against a cluster's API and log: creates the objects at the planned rate (asynchronously, a
 * bounded number in flight), watches the pods through the API, samples progress every second (printing it), and
 * afterwards reads each pod's recorded timeline from the event log.
 */
final class LoadTestRun {
    /** What to do. {@code rate} is pods per second (0: as fast as possible); {@code churn} pods/s replaced after. */
    record Plan(int nodes, int pods, String objects, int deploymentSize, double rate, double churn, Duration churnFor,
                Duration timeout, long seed, int warmup) {
        /** The parameters as a report shows them. */
        Map<String, Object> describe() {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("nodes", nodes);
            m.put("pods", pods);
            m.put("objects", objects);
            if (objects.equals("deployments")) {
                m.put("deploymentSize", deploymentSize);
            }
            m.put("ratePodsPerSecond", rate > 0 ? rate : "burst");
            m.put("churnPodsPerSecond", churn);
            m.put("churnSeconds", churnFor.toSeconds());
            m.put("timeoutSeconds", timeout.toSeconds());
            m.put("seed", seed);
            m.put("warmupPods", warmup);
            return m;
        }

        int objectCount() {
            return objectCount(pods);
        }

        int objectCount(int podCount) {
            return objects.equals("deployments") ? (podCount + deploymentSize - 1) / deploymentSize : podCount;
        }

        /** Objects created per second at the planned rate (0: as fast as possible). */
        double objectsPerSecond() {
            return objects.equals("deployments") ? rate / deploymentSize : rate;
        }

        /** Where the objects are created in {@code namespace}. */
        String objectPath(String namespace) {
            return objects.equals("deployments") ? "/apis/apps/v1/namespaces/" + namespace + "/deployments"
                    : "/api/v1/namespaces/" + namespace + "/pods";
        }

        /** How many pods the {@code index}-th object of {@code podCount} pods stands for. */
        int podsOf(int index, int podCount) {
            return objects.equals("deployments") ? Math.min(deploymentSize, podCount - index * deploymentSize) : 1;
        }

        /** The {@code index}-th object of {@code podCount} pods, named {@code name}. */
        String objectBody(String name, int index, int podCount) {
            return objects.equals("deployments") ? deployment(name, podsOf(index, podCount)) : pod(name);
        }
    }

    /** One second of the run. */
    record Sample(double t, long created, long scheduled, long running, long failedCalls, long eventsTotal,
                  long writerLag, Map<String, Double> cpuCores, long heapMiB) {
    }

    static final String NAMESPACE = "loadtest";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String api;
    private final EventplaneConfig config;
    private final Plan plan;
    private final PrintStream out;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .version(HttpClient.Version.HTTP_1_1).build();
    final Map<String, List<Double>> apiLatencies = new ConcurrentHashMap<>();
    final Map<String, Instant> observedRunning = new ConcurrentHashMap<>();
    private final Map<String, Boolean> scheduledSeen = new ConcurrentHashMap<>();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    final List<Sample> samples = new ArrayList<>();
    final Map<Integer, Long> startOffsets = new HashMap<>();
    /** The log's end when the run finished: changes before it are the run's. */
    final Map<Integer, Long> endOffsets = new HashMap<>();
    /** CPU seconds of the measured phase (creation until all pods run), the process and each component. */
    Map<String, Double> cpuSeconds = Map.of();
    Instant started;
    Instant finished;
    String firstFailure;
    private volatile boolean stop;
    /** The user asked to stop (Ctrl-C): the run ends at the next sample and its report covers what was measured. */
    private volatile boolean stopRequested;

    LoadTestRun(String api, EventplaneConfig config, Plan plan, PrintStream out) {
        this.api = api;
        this.config = config;
        this.plan = plan;
        this.out = out;
    }

    /** Ends the run at the next sample, as a timeout does: the report covers what was measured until then. */
    void requestStop() {
        stopRequested = true;
    }

    boolean stopRequested() {
        return stopRequested;
    }

    void run() throws Exception {
        try (Admin admin = Admin.create(config.kafkaConfig())) {
            if (plan.warmup() > 0) {
                new LoadTestWarmup(api, http, plan, out).run(() -> writerLag(admin));
            }
            startOffsets.putAll(endOffsets(admin, config.topics().events()));
            call("POST", "namespaces", "/api/v1/namespaces",
                    "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + NAMESPACE + "\"}}", true);
            JsonNode list = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/namespaces/"
                    + NAMESPACE + "/pods?limit=1")).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
            Thread watcher = new Thread(() -> watch(list.path("metadata").path("resourceVersion").asText()), "loadtest-watch");
            watcher.setDaemon(true);
            watcher.start();
            CpuUsage cpu = new CpuUsage();
            started = Instant.now();
            Thread creator = new Thread(this::create, "loadtest-create");
            creator.setDaemon(true);
            creator.start();
            sampleUntilDone(admin);
            stop = true;
            cpuSeconds = cpu.seconds();
            finished = Instant.now();
            endOffsets.putAll(endOffsets(admin, config.topics().events()));
            creator.join(5_000);
        }
    }

    private void create() {
        // A POST is answered once the writer has decided it (a few hundred ms under load): at a steady rate, as many
        // requests in flight as the API admits, so that the answers' latency caps the rate less (128 held 500 pods/s
        // asked to ~340 a second).
        int maxInFlight = inFlightFor(plan);
        Semaphore inFlight = new Semaphore(maxInFlight);
        long t0 = System.nanoTime();
        int n = plan.objectCount();
        double perSecond = plan.objectsPerSecond();
        for (int i = 0; i < n && !stop; i++) {
            if (perSecond > 0) {
                long due = t0 + (long) (i * 1e9 / perSecond);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    sleepNanos(wait);
                }
            }
            inFlight.acquireUninterruptibly();
            callAsync("POST", plan.objects(), plan.objectPath(NAMESPACE),
                    plan.objectBody(String.format("load-%06d", i), i, plan.pods()), inFlight, plan.podsOf(i, plan.pods()));
        }
        inFlight.acquireUninterruptibly(maxInFlight);
        inFlight.release(maxInFlight);
        if (plan.churn() > 0 && plan.objects().equals("pods")) {
            churn(inFlight);
        }
    }

    /**
     * Requests in flight at most: 128 in a burst; at a steady rate, about two seconds of it, but under the API's
     * mutating in-flight limit (kube-apiserver's --max-mutating-requests-inflight, 200), past which it answers 429.
     */
    static int inFlightFor(Plan plan) {
        return Math.max(128, (int) Math.min(190, Math.ceil(plan.objectsPerSecond() * 2)));
    }

    /** Deletes a random load pod and creates a new one, {@code churn} times a second, for {@code churnFor}. */
    private void churn(Semaphore inFlight) {
        Random random = new Random(plan.seed());
        long t0 = System.nanoTime();
        long end = t0 + plan.churnFor().toNanos();
        int next = plan.pods();
        for (long i = 0; System.nanoTime() < end && !stop; i++) {
            long wait = t0 + (long) (i * 1e9 / plan.churn()) - System.nanoTime();
            if (wait > 0) {
                sleepNanos(wait);
            }
            String victim = String.format("load-%06d", random.nextInt(next));
            inFlight.acquireUninterruptibly();
            callAsync("DELETE", "pods", "/api/v1/namespaces/" + NAMESPACE + "/pods/" + victim
                    + "?gracePeriodSeconds=0", null, inFlight, 0);
            inFlight.acquireUninterruptibly();
            callAsync("POST", "pods", "/api/v1/namespaces/" + NAMESPACE + "/pods", pod(String.format("load-%06d", next++)),
                    inFlight, 1);
        }
    }

    private void callAsync(String method, String resource, String path, String body, Semaphore inFlight, int pods) {
        long s = System.nanoTime();
        http.sendAsync(request(method, path, body), HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
            inFlight.release();
            double ms = (System.nanoTime() - s) / 1e6;
            apiLatencies.computeIfAbsent(method + " " + resource, k -> java.util.Collections.synchronizedList(
                    new ArrayList<>())).add(ms);
            if (e != null || r.statusCode() >= 300) {
                if (!(method.equals("DELETE") && r != null && r.statusCode() == 404)) {
                    failed.incrementAndGet();
                    if (firstFailure == null) {
                        firstFailure = method + " " + path + ": " + (e != null ? e.toString() : r.statusCode() + " " + r.body());
                    }
                }
            } else if (method.equals("POST")) {
                created.addAndGet(pods);
            }
        });
    }

    private void call(String method, String resource, String path, String body, boolean allowConflict) throws Exception {
        long s = System.nanoTime();
        HttpResponse<String> r = http.send(request(method, path, body), HttpResponse.BodyHandlers.ofString());
        apiLatencies.computeIfAbsent(method + " " + resource, k -> java.util.Collections.synchronizedList(
                new ArrayList<>())).add((System.nanoTime() - s) / 1e6);
        if (r.statusCode() >= 300 && !(allowConflict && r.statusCode() == 409)) {
            throw new IllegalStateException(method + " " + path + " answered " + r.statusCode() + ": " + r.body());
        }
    }

    private HttpRequest request(String method, String path, String body) {
        return request(api, method, path, body);
    }

    static HttpRequest request(String api, String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(60))
                .header("User-Agent", "eventplane-loadtest").header("Content-Type", "application/json");
        return b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).build();
    }

    /** Follows the pods of the load namespace through the API's watch, as a user's informer would. */
    private void watch(String resourceVersion) {
        followPods(http, api, NAMESPACE, resourceVersion, () -> stop, (e, seen) -> {
            if (e.type().equals("BOOKMARK") || e.type().equals("ERROR")) {
                return;
            }
            if (!e.nodeName().isEmpty()) {
                scheduledSeen.putIfAbsent(e.name(), true);
            }
            if (e.phase().equals("Running")) {
                observedRunning.putIfAbsent(e.name(), seen);
            }
        });
    }

    /**
     * Watches the pods of {@code namespace} from {@code resourceVersion} until {@code stopped}, watching again from the
     * last resourceVersion seen when the stream ends or fails; each line goes to {@code onEvent} with when it arrived.
     */
    static void followPods(HttpClient http, String api, String namespace, String resourceVersion,
                           java.util.function.BooleanSupplier stopped,
                           java.util.function.BiConsumer<WatchLine, Instant> onEvent) {
        String rv = resourceVersion;
        while (!stopped.getAsBoolean()) {
            try {
                HttpResponse<java.io.InputStream> r = http.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/namespaces/"
                                + namespace + "/pods?watch=1&allowWatchBookmarks=true&resourceVersion=" + rv)).GET().build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                    String line;
                    while (!stopped.getAsBoolean() && (line = lines.readLine()) != null) {
                        Instant seen = Instant.now();
                        WatchLine e = WatchLine.parse(line);
                        if (!e.resourceVersion().isEmpty()) {
                            rv = e.resourceVersion();
                        }
                        onEvent.accept(e, seen);
                    }
                }
            } catch (Exception e) {
                if (!stopped.getAsBoolean()) {
                    sleepNanos(200_000_000L);
                }
            }
        }
    }

    private void sampleUntilDone(Admin admin) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> lastCpu = new HashMap<>();
        long t0 = System.nanoTime();
        long deadline = t0 + plan.timeout().toNanos();
        long churnEnd = t0 + plan.churnFor().toNanos();
        boolean console = System.console() != null;
        while (true) {
            Thread.sleep(1000);
            double t = (System.nanoTime() - t0) / 1e9;
            long events = endOffsets(admin, config.topics().events()).values().stream().mapToLong(Long::longValue).sum();
            Sample s = new Sample(t, created.get(), scheduledSeen.size(), observedRunning.size(), failed.get(), events,
                    writerLag(admin), CpuUsage.sinceLast(threads, lastCpu), usedHeapMiB());
            samples.add(s);
            double sched = samples.size() > 1 ? s.scheduled() - samples.get(samples.size() - 2).scheduled() : s.scheduled();
            double ev = samples.size() > 1 ? s.eventsTotal() - samples.get(samples.size() - 2).eventsTotal() : 0;
            String line = String.format("[%6.1fs] created %,d/%,d  scheduled %,d  running %,d  | %,.0f pods/s scheduled, "
                            + "%,.0f events/s, writer lag %,d, failed calls %,d", t, s.created(), plan.pods(),
                    s.scheduled(), s.running(), sched, ev, s.writerLag(), s.failedCalls());
            out.print(console ? "\r" + line + "   " : line + "\n");
            out.flush();
            boolean churnDone = plan.churn() <= 0 || System.nanoTime() > churnEnd;
            if ((observedRunning.size() >= plan.pods() && churnDone) || System.nanoTime() > deadline || stopRequested) {
                if (console) {
                    out.println();
                }
                return;
            }
        }
    }

    /** Commands not yet consumed by the writer: the lag of its consumer group on the commands topic. */
    private long writerLag(Admin admin) {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(
                    config.topics().prefix() + "-writer").partitionsToOffsetAndMetadata().get(5, TimeUnit.SECONDS);
            long lag = 0;
            for (Map.Entry<Integer, Long> e : endOffsets(admin, config.topics().commands()).entrySet()) {
                OffsetAndMetadata o = committed.get(new TopicPartition(config.topics().commands(), e.getKey()));
                lag += Math.max(0, e.getValue() - (o == null ? 0 : o.offset()));
            }
            return lag;
        } catch (Exception e) {
            return -1;
        }
    }

    static Map<Integer, Long> endOffsets(Admin admin, String topic) throws Exception {
        int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic)
                .partitions().size();
        Map<TopicPartition, OffsetSpec> query = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            query.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        Map<Integer, Long> out = new HashMap<>();
        admin.listOffsets(query).all().get(10, TimeUnit.SECONDS).forEach((tp, info) -> out.put(tp.partition(), info.offset()));
        return out;
    }

    private static long usedHeapMiB() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
    }

    static String pod(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"app\":\"load\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:1.14.2\","
                + "\"resources\":{\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"}}}]}}";
    }

    static String deployment(String name, int replicas) {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"spec\":{\"replicas\":" + replicas + ",\"selector\":{\"matchLabels\":{\"deploy\":\"" + name + "\"}},"
                + "\"template\":{\"metadata\":{\"labels\":{\"deploy\":\"" + name + "\",\"app\":\"load\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"nginx:1.14.2\","
                + "\"resources\":{\"requests\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"}}}]}}}}";
    }

    private static void sleepNanos(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
