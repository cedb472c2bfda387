package io.eventplane.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.controllers.ControllerManager;
import io.eventplane.core.Keys;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.nodesim.NodeShape;
import io.eventplane.nodesim.NodeSimulator;
import io.eventplane.reconcile.Controller;
import io.eventplane.reconcile.ControllerRuntime;
import io.eventplane.scheduler.Scheduler;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.ApicurioRegistry;
import io.eventplane.testkit.FreePorts;
import io.eventplane.topology.WriterGroup;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 item 3: the broker is killed (kill -9) and restarted on the same ports and data while writes flow through
 * the API at a fixed rate; then the schema registry is stopped and started. No acknowledged write is lost or applied
 * twice, clients see 503 or 504 with Retry-After during the outage and never a 500 or a hang past their timeout, and
 * the services (writer, gateway, scheduler, node-sim) reconnect by themselves.
 */
class BrokerOutageTest {
    static final String CASE = "3 broker outage";
    static final int RATE = 200;
    static final Duration OUTAGE = Figures.LONG ? Duration.ofSeconds(30) : Duration.ofSeconds(10);
    static final Duration STEADY = Figures.LONG ? Duration.ofSeconds(30) : Duration.ofSeconds(5);

    final Path dir = Path.of("target", "broker-outage-" + UUID.randomUUID()).toAbsolutePath();
    final List<AutoCloseable> running = new ArrayList<>();
    Process broker;

    @AfterEach
    void stop() {
        for (int i = running.size() - 1; i >= 0; i--) {
            try {
                running.get(i).close();
            } catch (Exception e) {
                System.err.println("closing: " + e);
            }
        }
        if (broker != null) {
            broker.destroyForcibly();
        }
    }

    Process startBroker(int port, int controllerPort, int n) throws Exception {
        Files.createDirectories(dir);
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:TieredStopAtLevel=1", "-Dlog4j2.configurationFile=log4j2-test.xml",
                "-cp", System.getProperty("java.class.path"), BrokerMain.class.getName(),
                dir.resolve("kafka").toString(), Integer.toString(port), Integer.toString(controllerPort))
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Path log = dir.resolve("broker-" + n + ".log");
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        String line;
        while ((line = out.readLine()) != null) {
            Files.writeString(log, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            if (line.startsWith("BROKER READY")) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the broker did not start; see " + log);
            }
        }
        // keep draining its output so that it never blocks on a full pipe
        Thread drain = new Thread(() -> {
            try {
                out.transferTo(java.io.Writer.nullWriter());
            } catch (IOException ignored) {
                // the broker was killed
            }
        });
        drain.setDaemon(true);
        drain.start();
        return p;
    }

    static void await(String what, BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " did not happen within " + timeout);
            }
            Thread.sleep(100);
        }
    }

    static String pod(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";
    }

    /** Creates a pod and returns the time until it runs: the scheduler and node-sim work. */
    static Duration podRuns(Api api, String name) throws Exception {
        long t0 = System.nanoTime();
        long deadline = t0 + Duration.ofSeconds(120).toNanos();
        int status = 0;
        while (status != 201 && status != 409 && System.nanoTime() < deadline) {
            status = api.post("/api/v1/namespaces/default/pods?timeout=10s", pod(name)).statusCode();
        }
        api.await("/api/v1/namespaces/default/pods/" + name,
                p -> "Running".equals(p.path("status").path("phase").asText()), Duration.ofSeconds(120));
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    @Test
    @DisplayName("issue 20 item 3: kill -9 of the broker and a registry restart under 200 writes/s: no acknowledged write lost, only 503/504 with Retry-After, no hang, services reconnect")
    void brokerAndRegistryRestartUnderLoad() throws Exception {
        int port = FreePorts.next();
        int controllerPort = FreePorts.next();
        broker = startBroker(port, controllerPort, 1);
        String bootstrap = "127.0.0.1:" + port;
        int registryPort = FreePorts.next();
        int managementPort = FreePorts.next();
        ApicurioRegistry.Builder registryOptions = ApicurioRegistry.builder().workDir(dir.resolve("registry"))
                .port(registryPort).managementPort(managementPort).kafkaSql(bootstrap);
        ApicurioRegistry registry = registryOptions.build().start();
        EventplaneConfig config = new EventplaneConfig(bootstrap, registry.url(), Topics.DEFAULT,
                EventplaneConfig.configuredPartitions());
        WriterGroup writer = new WriterGroup(config, dir.resolve("writer-state"), 200).start();
        running.add(writer);
        await("the writer starting", writer::isReady, Duration.ofSeconds(90));
        GatewayServer gateway = GatewayServer.start(config, 0, "127.0.0.1");
        running.add(gateway);
        Controller scheduler = Scheduler.controller(config, "scheduler").start();
        running.add(scheduler);
        NodeSimulator nodes = new NodeSimulator(config, 2, NodeShape.defaults(), Clock.systemUTC()).start();
        running.add(nodes);
        // pods are admitted as their namespace's default ServiceAccount, which this controller creates
        ControllerRuntime accounts = ControllerManager.start(config, Clock.systemUTC(), "serviceaccount", false);
        running.add(accounts);
        await("scheduler, nodes and the serviceaccount controller",
                () -> scheduler.isReady() && nodes.isReady() && accounts.isReady(), Duration.ofSeconds(60));
        Api api = new Api(gateway.url());
        Figures.report(CASE, "pod Running before the outage after", Figures.seconds(podRuns(api, "before")));

        LoadGenerator load = new LoadGenerator(api, RATE, "load");
        Thread.sleep(STEADY.toMillis());

        // The broker dies without a goodbye, stays away, and comes back on the same ports and log directory.
        long killedAt = System.nanoTime();
        broker.destroyForcibly().waitFor();
        Thread.sleep(OUTAGE.toMillis());
        long restartAt = System.nanoTime();
        broker = startBroker(port, controllerPort, 2);
        long brokerBack = System.nanoTime();
        Figures.report(CASE, "broker down for", Figures.seconds(brokerBack - killedAt));
        Figures.report(CASE, "broker restart took", Figures.seconds(brokerBack - restartAt));
        await("a write acknowledged after the broker came back", () -> load.answers().stream()
                .anyMatch(a -> a.status() == 201 && a.sentAtNanos() > brokerBack), Duration.ofSeconds(120));
        long firstAck = load.answers().stream().filter(a -> a.status() == 201 && a.sentAtNanos() > brokerBack)
                .mapToLong(a -> a.sentAtNanos() + a.latencyMillis() * 1_000_000).min().orElseThrow();
        Figures.report(CASE, "first acknowledged write after the broker was back", Figures.seconds(firstAck - brokerBack));
        Figures.report(CASE, "pod Running after the broker outage (scheduler, node-sim reconnected) after",
                Figures.seconds(podRuns(api, "after-broker")));
        Thread.sleep(STEADY.toMillis());

        // The schema registry stops and starts (same port, schemas kept in its Kafka journal).
        long registryStop = System.nanoTime();
        registry.close();
        Thread.sleep(OUTAGE.toMillis());
        registry = registryOptions.build().start();
        running.add(registry);
        Figures.report(CASE, "registry down for", Figures.seconds(System.nanoTime() - registryStop));
        Figures.report(CASE, "pod Running after the registry restart after",
                Figures.seconds(podRuns(api, "after-registry")));
        Thread.sleep(STEADY.toMillis());
        List<LoadGenerator.Answer> answers = load.stop();

        long acknowledged = answers.stream().filter(a -> a.status() == 201).count();
        long unavailable = answers.stream().filter(a -> a.status() == 503).count();
        long timeouts = answers.stream().filter(a -> a.status() == 504).count();
        List<LoadGenerator.Answer> otherErrors = answers.stream()
                .filter(a -> a.status() >= 500 && a.status() != 503 && a.status() != 504).toList();
        // 429: while the outage holds requests up to their timeout, more than the gateway's in-flight limit wait at
        // once, and the rest are refused at once with Retry-After (kube-apiserver's max-in-flight filter)
        long tooMany = answers.stream().filter(a -> a.status() == 429).count();
        List<LoadGenerator.Answer> noRetryAfter = answers.stream()
                .filter(a -> (a.status() == 503 || a.status() == 504 || a.status() == 429) && a.retryAfter() == null)
                .toList();
        List<LoadGenerator.Answer> hangs = answers.stream().filter(a -> a.status() == 0).toList();
        List<LoadGenerator.Answer> otherClientErrors = answers.stream()
                .filter(a -> a.status() >= 400 && a.status() < 500 && a.status() != 409 && a.status() != 429).toList();
        long maxLatency = answers.stream().mapToLong(LoadGenerator.Answer::latencyMillis).max().orElse(0);
        Figures.report(CASE, "writes sent at " + RATE + "/s", answers.size() + " (" + load.sent() + " sent)");
        Figures.report(CASE, "acknowledged (201)", acknowledged);
        Figures.report(CASE, "503 / 504 / 429 (all with Retry-After)", unavailable + " / " + timeouts + " / " + tooMany
                + (noRetryAfter.isEmpty() ? "" : ", " + noRetryAfter.size() + " WITHOUT Retry-After"));
        Figures.report(CASE, "other 5xx", otherErrors.size());
        Figures.report(CASE, "hangs past the request timeout or connection errors", hangs.size());
        Figures.report(CASE, "slowest answer", maxLatency + " ms (request timeout "
                + LoadGenerator.REQUEST_TIMEOUT.toSeconds() + " s)");

        // Every acknowledged write is in the log exactly once; no command was applied twice.
        LogCheck log = LogCheck.read(config);
        long lost = 0;
        List<String> lostNames = new ArrayList<>();
        for (LoadGenerator.Answer a : answers) {
            if (a.status() == 201 && log.creations(Keys.of("ConfigMap", "default", a.name()), a.uid()) != 1) {
                lost++;
                lostNames.add(a.name());
            }
        }
        Map<String, Integer> repeated = log.repeatedRequests();
        Figures.report(CASE, "acknowledged writes lost or doubled", lost);
        Figures.report(CASE, "commands applied twice", repeated.size());

        assertEquals(List.of(), otherErrors, "no 5xx but 503 and 504");
        assertEquals(List.of(), noRetryAfter, "503, 504 and 429 carry Retry-After");
        assertEquals(List.of(), hangs, "every request answered before its timeout");
        assertEquals(List.of(), otherClientErrors, "no client error but a retried create's 409 and 429");
        assertEquals(List.of(), lostNames, "every acknowledged write is in the log exactly once");
        assertEquals(Map.of(), repeated);
        assertTrue(acknowledged > 0);
    }
}
