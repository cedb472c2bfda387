package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.testkit.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code eventplane up} in-process: ready, usable with kubectl, and back with the same state after a restart. */
class LocalClusterTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    @DisplayName("up starts everything over TLS (401 without credentials, the kubeconfig's admin certificate works), a pod reaches Running, node pressure taints a node, a command written to Kafka without a credential is refused (issue 23), and a restart on the same data dir keeps its uid and resourceVersion")
    void upRestartKeepsState() throws Exception {
        Path data = Files.createTempDirectory(Path.of("target"), "up-");
        int port = FreePorts.next();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
        LocalCluster.Settings settings = new LocalCluster.Settings(data, 3, port, "127.0.0.1", false, null, false);
        JsonNode pod;
        try (LocalCluster cluster = new LocalCluster(settings, out)) {
            cluster.start();
            cluster.printSummary();
            assertTrue(console.toString(StandardCharsets.UTF_8).contains("Kafka bootstrap:"), console.toString());
            Http http = admin(data, port);
            assertEquals(200, http.get("/readyz").statusCode());
            assertEquals(401, new Http("https://127.0.0.1:" + port, adminTls(data, false), null)
                    .get("/api/v1/nodes").statusCode(), "no credentials: 401");
            assertEquals(3, http.getJson("/api/v1/nodes").path("items").size());
            assertTrue(Files.readString(data.resolve("kubeconfig")).contains("https://127.0.0.1:" + port));
            assertEquals(201, http.post("/api/v1/namespaces/default/pods", Http.pod("nginx")).statusCode());
            pod = http.await("/api/v1/namespaces/default/pods/nginx", Http::running, WAIT);
            kubectlGetNodes(data.resolve("kubeconfig"));
            nodePressure(http, "https://127.0.0.1:" + port, data.resolve("kubeconfig"));
            forgedCommandRefused(data);
            assertEquals(404, http.get("/api/v1/namespaces/default/configmaps/forged").statusCode());
        }
        try (LocalCluster cluster = new LocalCluster(settings, out)) {
            cluster.start();
            Http http = admin(data, port);
            JsonNode again = http.getJson("/api/v1/namespaces/default/pods/nginx");
            assertEquals(pod.path("metadata").path("uid"), again.path("metadata").path("uid"));
            assertEquals(pod.path("metadata").path("resourceVersion"), again.path("metadata").path("resourceVersion"));
            assertEquals("Running", again.path("status").path("phase").asText());
            assertEquals(3, http.getJson("/api/v1/nodes").path("items").size(), "the nodes are adopted, not duplicated");
        }
    }

    /**
     * {@code node pressure node-1 memory on}: the kubelet reports MemoryPressure True, the node lifecycle controller
     * taints the node memory-pressure:NoSchedule; {@code off} takes both away.
     */
    /**
     * Anyone who can reach the broker could append to the command log (the embedded broker has no authentication):
     * a command stamped as the administrator, sent without the credential {@code up}'s services send, is refused.
     */
    private static void forgedCommandRefused(Path data) throws Exception {
        io.eventplane.client.EventplaneConfig config = Connection.config(
                Options.parse(new String[] {"--data-dir", data.toString()}), System.err, "test");
        io.eventplane.log.Command forged = new io.eventplane.client.Commands("kubernetes-admin").create(
                io.eventplane.model.ConfigMap.newBuilder().setMetadata(io.eventplane.model.ObjectMeta.newBuilder()
                        .setName("forged").setNamespace("default").build()).build());
        try (io.eventplane.client.Outcomes outcomes = new io.eventplane.client.Outcomes(config, "forger-outcomes");
             org.apache.kafka.clients.producer.KafkaProducer<String, io.eventplane.log.Command> producer =
                     new org.apache.kafka.clients.producer.KafkaProducer<>(config.kafkaConfig(),
                             new org.apache.kafka.common.serialization.StringSerializer(),
                             io.eventplane.client.LogSerdes.commands(config).serializer())) {
            var verdict = outcomes.await(forged.getEnvelope().getRequestId());
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(config.topics().commands(),
                    "ConfigMap/default/forged", forged)).get(30, TimeUnit.SECONDS);
            io.eventplane.log.CommandOutcome o = verdict.get(60, TimeUnit.SECONDS);
            assertEquals(401, o.getCode(), o.getMessage());
            assertEquals("Unauthorized", o.getReason());
        }
    }

    /** The API as the admin of {@code up}'s kubeconfig: its CA and client certificate. */
    private static Http admin(Path data, int port) throws Exception {
        return new Http("https://127.0.0.1:" + port, adminTls(data, true), null);
    }

    private static javax.net.ssl.SSLContext adminTls(Path data, boolean withCertificate) throws Exception {
        Path kubeconfig = data.resolve("kubeconfig");
        return io.eventplane.client.pki.TlsContexts.client(Kubeconfig.field(kubeconfig, "certificate-authority-data:"),
                withCertificate ? Kubeconfig.field(kubeconfig, "client-certificate-data:") : null,
                withCertificate ? Kubeconfig.field(kubeconfig, "client-key-data:") : null);
    }

    private static void nodePressure(Http http, String server, Path kubeconfig) throws Exception {
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(said, true, StandardCharsets.UTF_8);
        assertEquals(0, NodeCommand.run(Options.parse(new String[] {"pressure", "node-1", "memory", "on", "--server", server,
                "--kubeconfig", kubeconfig.toString()}),
                out, out), said.toString(StandardCharsets.UTF_8));
        http.await("/api/v1/nodes/node-1", n -> condition(n, "MemoryPressure").equals("True/KubeletHasInsufficientMemory")
                && taints(n).contains("node.kubernetes.io/memory-pressure:NoSchedule"), WAIT);
        assertEquals(0, NodeCommand.run(Options.parse(new String[] {"pressure", "node-1", "memory", "off", "--server", server,
                "--kubeconfig", kubeconfig.toString()}),
                out, out), said.toString(StandardCharsets.UTF_8));
        http.await("/api/v1/nodes/node-1", n -> condition(n, "MemoryPressure").equals("False/KubeletHasSufficientMemory")
                && !taints(n).contains("node.kubernetes.io/memory-pressure:NoSchedule"), WAIT);
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("node/node-1 under memory pressure"), said.toString());
    }

    private static String condition(JsonNode node, String type) {
        for (JsonNode c : node.path("status").path("conditions")) {
            if (type.equals(c.path("type").asText())) {
                return c.path("status").asText() + "/" + c.path("reason").asText();
            }
        }
        return "";
    }

    private static java.util.List<String> taints(JsonNode node) {
        java.util.List<String> out = new java.util.ArrayList<>();
        node.path("spec").path("taints").forEach(t -> out.add(t.path("key").asText() + ":" + t.path("effect").asText()));
        return out;
    }

    /** With the real kubectl when it is installed: `kubectl get nodes` lists the simulated nodes. */
    private static void kubectlGetNodes(Path kubeconfig) throws Exception {
        if (!new java.io.File("/usr/local/bin/kubectl").canExecute() && !new java.io.File("/usr/bin/kubectl").canExecute()) {
            return;
        }
        Process p = new ProcessBuilder("kubectl", "--kubeconfig", kubeconfig.toString(), "get", "nodes")
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "kubectl did not finish");
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.contains("node-1") && output.contains("node-3"), output);
    }
}
