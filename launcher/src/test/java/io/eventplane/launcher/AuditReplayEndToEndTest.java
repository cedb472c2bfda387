package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.client.log.LogReader;
import io.eventplane.client.log.SnapshotService;
import io.eventplane.client.log.SnapshotStore;
import io.eventplane.client.log.TimeTravel;
import io.eventplane.core.ResourceVersions;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.log.SnapshotManifest;
import io.eventplane.testkit.SharedClusterExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Audit, time travel and replay on a real broker and registry, through the API and the command line, after a pod's
 * whole life: created by a user, scheduled, run by a simulated node, created again (rejected), deleted.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuditReplayEndToEndTest {
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private final ControlLoop loop = new ControlLoop();
    private GatewayServer gateway;
    private Http http;
    private Instant whileRunning;
    private String podUid;

    @BeforeAll
    void aPodLivesAndDies(@TempDir Path dir) throws Exception {
        loop.start(dir).startControllers("serviceaccount"); // a pod is admitted as its namespace's default account
        gateway = GatewayServer.start(loop.config(), 0, "127.0.0.1");
        http = new Http(gateway.url());
        assertEquals(201, send("POST", "/api/v1/namespaces/default/pods", Http.pod("audited")).statusCode());
        JsonNode running = http.await("/api/v1/namespaces/default/pods/audited", Http::running, DEADLINE);
        podUid = running.path("metadata").path("uid").asText();
        whileRunning = Instant.now();
        Thread.sleep(20);
        assertEquals(409, send("POST", "/api/v1/namespaces/default/pods", Http.pod("audited")).statusCode());
        assertEquals(200, send("DELETE", "/api/v1/namespaces/default/pods/audited", null).statusCode());
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (http.get("/api/v1/namespaces/default/pods/audited").statusCode() != 404) {
            assertTrue(System.nanoTime() < deadline, "the pod was not removed");
            Thread.sleep(100);
        }
    }

    @AfterAll
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        loop.close();
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(gateway.url() + path)).timeout(Duration.ofSeconds(60))
                .header("User-Agent", "kubectl/v1.32.5 (linux/amd64) kubernetes/abcdef")
                .header("Content-Type", "application/json");
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private List<JsonNode> audit(String query) throws Exception {
        HttpResponse<String> r = http.get("/apis/eventplane.io/v1/audit?" + query);
        assertEquals(200, r.statusCode(), r.body());
        List<JsonNode> out = new ArrayList<>();
        Http.JSON.readTree(r.body()).path("items").forEach(out::add);
        return out;
    }

    @Test
    @DisplayName("audit: every step of the pod's life with its actor, verb and result, the rejected create included; "
            + "the scheduler and node-sim as system:kube-scheduler and system:node:<name> (issue 23)")
    void auditShowsEveryStep() throws Exception {
        List<JsonNode> entries = audit("kind=pods&namespace=default&name=audited");
        List<String> steps = new ArrayList<>();
        for (JsonNode e : entries) {
            String actor = e.path("actor").asText().startsWith("system:node:") ? "system:node" : e.path("actor").asText();
            steps.add(actor + " " + e.path("verb").asText() + " " + e.path("outcome").asText());
        }
        assertEquals("system:unsecured create accepted", steps.get(0), steps.toString());
        assertTrue(steps.contains("system:kube-scheduler bind accepted"), steps.toString());
        assertTrue(steps.contains("system:node update-status accepted"), steps.toString());
        assertTrue(steps.contains("system:unsecured create rejected"), steps.toString());
        assertTrue(steps.contains("system:unsecured delete accepted"), steps.toString());
        assertEquals("system:node delete accepted", steps.get(steps.size() - 1), steps.toString());

        JsonNode rejected = entries.stream().filter(e -> e.path("outcome").asText().equals("rejected")).findFirst()
                .orElseThrow();
        assertEquals(409, rejected.path("code").asInt());
        assertEquals("AlreadyExists", rejected.path("reason").asText());
        assertEquals("audited", rejected.path("request").path("metadata").path("name").asText());

        JsonNode bind = entries.stream().filter(e -> e.path("verb").asText().equals("bind")).findFirst().orElseThrow();
        assertTrue(bind.path("before").path("spec").path("nodeName").isMissingNode(), "unbound before the bind");
        assertFalse(bind.path("after").path("spec").path("nodeName").asText().isEmpty(), "bound after it");

        List<JsonNode> onlyRejected = audit("outcome=rejected&name=audited&actor=system:unsecured");
        assertEquals(1, onlyRejected.size());
        List<JsonNode> byScheduler = audit("actor=system:kube-scheduler&name=audited");
        assertEquals(1, byScheduler.size());
        JsonNode byNode = entries.stream().filter(e -> e.path("verb").asText().equals("update-status")).findFirst()
                .orElseThrow();
        assertEquals("system:node:" + bind.path("after").path("spec").path("nodeName").asText(),
                byNode.path("actor").asText(), "the node the pod is bound to");
        assertEquals(List.of("system:nodes", "system:authenticated"), texts(byNode.path("groups")));
        assertTrue(audit("name=audited&until=" + Instant.EPOCH.plusSeconds(1)).isEmpty());
    }

    @Test
    @DisplayName("audit: the audit.k8s.io/v1 export follows the levels of a Policy")
    void kubernetesAuditFormat() throws Exception {
        String policy = """
                apiVersion: audit.k8s.io/v1
                kind: Policy
                rules:
                - level: None
                  users: ["system:kube-scheduler"]
                - level: Metadata
                  resources: [{group: "", resources: ["pods/status"]}]
                - level: RequestResponse
                  resources: [{group: "", resources: ["pods"]}]
                """;
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(gateway.url() + "/apis/eventplane.io/v1/audit?format=k8s&name=audited"))
                .header("Content-Type", "application/yaml").POST(HttpRequest.BodyPublishers.ofString(policy)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode list = Http.JSON.readTree(r.body());
        assertEquals("audit.k8s.io/v1", list.path("apiVersion").asText());
        boolean sawCreate = false;
        for (JsonNode e : list.path("items")) {
            assertFalse(e.path("user").path("username").asText().equals("system:kube-scheduler"), "level None leaves it out");
            if (e.path("objectRef").path("subresource").asText().equals("status")) {
                assertEquals("Metadata", e.path("level").asText());
                assertTrue(e.path("requestObject").isMissingNode());
            }
            if (e.path("verb").asText().equals("create") && e.path("responseStatus").path("code").asInt() == 201) {
                sawCreate = true;
                assertEquals("RequestResponse", e.path("level").asText());
                assertEquals("/api/v1/namespaces/default/pods", e.path("requestURI").asText());
                assertEquals(podUid, e.path("responseObject").path("metadata").path("uid").asText());
                assertEquals("ResponseComplete", e.path("stage").asText());
            }
        }
        assertTrue(sawCreate, r.body());
        HttpResponse<String> bad = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(gateway.url() + "/apis/eventplane.io/v1/audit?format=k8s"))
                .POST(HttpRequest.BodyPublishers.ofString("kind: Policy\napiVersion: audit.k8s.io/v1\nrules:\n- users: [x]\n"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, bad.statusCode());
        assertTrue(bad.body().contains("rules[0].level: Required value"), bad.body());
    }

    @Test
    @DisplayName("time travel: get and list asOf a moment show the pod running before it was deleted")
    void asOfShowsThePast() throws Exception {
        JsonNode then = http.getJson("/api/v1/namespaces/default/pods/audited?asOf=" + whileRunning);
        assertEquals("Running", then.path("status").path("phase").asText(), then.toString());
        assertEquals(podUid, then.path("metadata").path("uid").asText());
        JsonNode list = http.getJson("/api/v1/namespaces/default/pods?asOf=" + whileRunning);
        assertEquals(1, list.path("items").size(), list.toString());
        assertEquals(404, http.get("/api/v1/namespaces/default/pods/audited").statusCode());
        assertEquals(404, http.get("/api/v1/namespaces/default/pods/audited?asOf=" + Instant.EPOCH.plusSeconds(1))
                .statusCode());
        HttpResponse<String> bad = http.get("/api/v1/namespaces/default/pods?asOf=yesterday");
        assertEquals(400, bad.statusCode());
        assertTrue(bad.body().contains("neither an RFC 3339 time"), bad.body());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = TimeTravelCommand.get(Options.parse(new String[] {"pods", "--as-of", whileRunning.toString(),
                "--server", gateway.url()}), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, code);
        String table = out.toString(StandardCharsets.UTF_8);
        assertTrue(table.startsWith("NAME"), table);
        assertTrue(table.contains("audited") && table.contains("Running"), table);
    }

    @Test
    @DisplayName("replay: a rebuild from the log alone equals the live state, twice, also when it starts from a snapshot")
    void replayReproducesTheLiveDigest() throws Exception {
        SnapshotManifest snapshot = new SnapshotService(loop.config(), 1, Duration.ofHours(1)).round(1).orElseThrow();
        JsonNode live = http.getJson("/apis/eventplane.io/v1/digest");
        long[] position = ResourceVersions.decode(live.path("resourceVersion").asText(),
                loop.config().partitions());
        TimeTravel.Target target = TimeTravel.Target.atPosition(position);
        TimeTravel.Result first = TimeTravel.fromScratch(loop.config(), target, LogReader.Progress.NONE);
        TimeTravel.Result second = TimeTravel.fromScratch(loop.config(), target, LogReader.Progress.NONE);
        assertEquals(live.path("digest").asText(), first.fold().digest());
        assertEquals(first.fold().digest(), second.fold().digest());
        assertEquals(live.path("objects").asLong(), first.fold().size());

        TimeTravel.Result fromSnapshot = new TimeTravel(loop.config(), new SnapshotStore(loop.config()))
                .rebuild(target, LogReader.Progress.NONE);
        assertEquals(snapshot.getSnapshotId(), fromSnapshot.snapshotId());
        assertEquals(live.path("digest").asText(), fromSnapshot.fold().digest());
        assertTrue(fromSnapshot.changesRead() < first.changesRead(), "the snapshot saved folding");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = ReplayCommand.run(Options.parse(new String[] {"--server", gateway.url(), "--bootstrap",
                loop.config().bootstrapServers(), "--registry", loop.config().registryUrl(), "--topic-prefix",
                loop.config().topics().prefix(), "--twice"}), new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, printed);
        assertTrue(printed.contains("verified: the replayed state is identical to the live state"), printed);
        assertTrue(printed.contains("deterministic"), printed);
        assertNotNull(snapshot.getDigest());
    }

    @Test
    @DisplayName("what-if: replaying the recorded bindings through today's scheduler reproduces every decision")
    void whatIfReproducesTheRecord() throws Exception {
        SchedulerWhatIf.Report report = new SchedulerWhatIf(io.eventplane.scheduler.SchedulerDecider.Profile.defaults(),
                new io.eventplane.scheduler.SchedulerDecider.Profile(42, 100, List.of())).run(loop.config());
        assertEquals(1, report.decisions().size(), report.decisions().toString());
        SchedulerWhatIf.Decision d = report.decisions().get(0);
        assertEquals("default/audited", d.pod());
        assertEquals(d.recorded(), d.baseline(), "the baseline decides as the live scheduler did");
        assertEquals(1, report.recordedPerNode().values().stream().mapToInt(Integer::intValue).sum());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = WhatIfCommand.run(Options.parse(new String[] {"scheduler", "--seed", "7", "--bootstrap",
                loop.config().bootstrapServers(), "--registry", loop.config().registryUrl(), "--topic-prefix",
                loop.config().topics().prefix()}), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, printed);
        assertTrue(printed.contains("1 recorded bindings replayed"), printed);
        assertTrue(printed.contains("baseline (today's scheduler, default profile) agrees with the record: 1 of 1"),
                printed);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
