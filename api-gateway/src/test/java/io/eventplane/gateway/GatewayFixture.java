package io.eventplane.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.controllers.ControllerManager;
import io.eventplane.reconcile.ControllerRuntime;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.topology.WriterGroup;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real cluster for one test class: the JVM's shared broker and registry, a writer and a gateway on topics of their
 * own (so test classes never share state), the controllers every API needs beside it ({@link #CONTROLLERS}: a pod
 * needs its namespace's default ServiceAccount), and a plain HTTP client. A test class registers it as an extension,
 * {@code @RegisterExtension static final GatewayFixture f = new GatewayFixture();}, which starts it before the class's
 * {@code @BeforeAll} methods and stops it after its {@code @AfterAll} methods.
 */
final class GatewayFixture implements BeforeAllCallback, AfterAllCallback {
    /** The namespace, service account and resource quota controllers; no workload controllers, scheduler or nodes. */
    static final String CONTROLLERS = "namespace,serviceaccount,resourcequota,crd-finalizer";
    static final ObjectMapper JSON = new ObjectMapper();
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    /** The controllers this fixture runs ({@link #CONTROLLERS} unless a test class needs more). */
    private final String controllerNames;
    EventplaneConfig config;
    WriterGroup writer;
    GatewayServer gateway;
    ControllerRuntime controllers;

    GatewayFixture() {
        this(CONTROLLERS);
    }

    /** A fixture running {@code controllerNames} (comma-separated, as EVENTPLANE_CONTROLLERS names them). */
    GatewayFixture(String controllerNames) {
        this.controllerNames = controllerNames;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
    }

    void start() throws IOException {
        SharedCluster cluster = SharedCluster.get().startAll();
        Topics topics = new Topics("t" + UUID.randomUUID().toString().replace("-", "").substring(0, 10));
        config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(), topics,
                EventplaneConfig.configuredPartitions());
        Path state = Files.createTempDirectory("writer-state");
        writer = new WriterGroup(config, state, 20).start();
        awaitTrue("the writer runs", writer::isReady, Duration.ofSeconds(60));
        gateway = GatewayServer.start(config, 0, "127.0.0.1");
        awaitTrue("the gateway is ready", gateway::isReady, Duration.ofSeconds(60));
        controllers = ControllerManager.start(config, Clock.systemUTC(), controllerNames, false);
        awaitTrue("the controllers are ready", controllers::isReady, Duration.ofSeconds(60));
    }

    /**
     * Stops whatever {@link #start()} got to start, and lets go of it: a test class keeps its fixture in a static
     * field for the rest of the test JVM, and a closed Kafka Streams application still holds its threads' producers
     * and their pooled batch buffers (with 4 partitions, tens of MB per class), so the references are dropped here.
     */
    void stop() {
        if (controllers != null) {
            controllers.close();
            controllers = null;
        }
        if (gateway != null) {
            gateway.close();
            gateway = null;
        }
        if (writer != null) {
            writer.close();
            writer = null;
        }
    }

    static void awaitTrue(String what, BooleanSupplier condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what);
            }
        }
    }

    String url() {
        return gateway.url();
    }

    HttpResponse<String> send(String method, String path, String contentType, byte[] body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(60));
        if (body == null) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            b.method(method, HttpRequest.BodyPublishers.ofByteArray(body));
            b.header("Content-Type", contentType);
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new AssertionError(method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    HttpResponse<String> get(String path, String... headers) {
        return send("GET", path, null, null, headers);
    }

    HttpResponse<String> post(String path, String json, String... headers) {
        return send("POST", path, "application/json", json.getBytes(StandardCharsets.UTF_8), headers);
    }

    HttpResponse<String> put(String path, String json) {
        return send("PUT", path, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    HttpResponse<String> patch(String path, String contentType, String body) {
        return send("PATCH", path, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    HttpResponse<String> delete(String path, String json) {
        return json == null ? send("DELETE", path, null, null)
                : send("DELETE", path, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    /** Nothing about the object reached the log, not even a rejected command: a refusal before the writer. */
    void assertNothingWritten(String resource, String namespace, String name) {
        JsonNode audit = json(get("/apis/eventplane.io/v1/audit?kind=" + resource + "&namespace=" + namespace
                + "&name=" + name));
        if (audit.path("items").size() != 0) {
            throw new AssertionError("the log has entries for " + resource + " " + namespace + "/" + name + ": " + audit);
        }
    }

    static JsonNode json(HttpResponse<String> r) {
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON (" + r.statusCode() + "): " + r.body(), e);
        }
    }

    /** A pod with one container; {@code extra} is spliced into metadata (e.g. labels). */
    static String pod(String name, String metadataExtra) {
        return """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"%s},
                 "spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}""".formatted(name,
                metadataExtra == null ? "" : "," + metadataExtra);
    }

    static String node(String name) {
        return """
                {"apiVersion":"v1","kind":"Node","metadata":{"name":"%s","labels":{"node-role.kubernetes.io/worker":""}},
                 "status":{"conditions":[{"type":"Ready","status":"True"}],
                  "addresses":[{"type":"InternalIP","address":"10.0.0.7"}],
                  "nodeInfo":{"kubeletVersion":"v1.32.5","osImage":"Debian GNU/Linux 12","kernelVersion":"6.1.0",
                   "containerRuntimeVersion":"containerd://1.7.0"}}}""".formatted(name);
    }
}
