package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 16: each of the kinds every real manifest carries, over HTTP: created from YAML with strict field validation,
 * read back, listed as kubectl's Table, merge-patched, watched and deleted.
 */
class CoreKindsApiTest {
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    private static final String NS = "/api/v1/namespaces/default/";
    /** Any cell (an age). */
    private static final String ANY = "*";
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    /**
     * @param collection the collection URL
     * @param yaml       the manifest
     * @param header     the Table's default columns as kubectl prints them
     * @param cells      the row's cells ({@link #ANY} for the age)
     * @param patch      a merge patch, and where its effect shows (a JSON pointer) and what it is
     */
    record Case(String collection, String yaml, String header, List<String> cells, String patch, String pointer,
                String patched) {
        String name() {
            return WorkloadApiTest.yaml(yaml).path("metadata").path("name").asText();
        }

        @Override
        public String toString() {
            return WorkloadApiTest.yaml(yaml).path("kind").asText();
        }
    }

    static Stream<Arguments> kinds() {
        return Stream.of(
                new Case(NS + "configmaps", """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata: {name: game-config}
                        data: {lives: "3", game.properties: "enemies=aliens"}
                        binaryData: {logo.bin: AAEC}
                        """, "NAME DATA AGE", List.of("game-config", "3", ANY),
                        "{\"data\":{\"lives\":\"5\"}}", "/data/lives", "5"),
                new Case(NS + "secrets", """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: web-tls}
                        type: kubernetes.io/tls
                        data: {tls.crt: Y2VydA==, tls.key: a2V5}
                        """, "NAME TYPE DATA AGE", List.of("web-tls", "kubernetes.io/tls", "2", ANY),
                        "{\"stringData\":{\"note\":\"hi\"}}", "/data/note", "aGk="),
                new Case(NS + "serviceaccounts", """
                        apiVersion: v1
                        kind: ServiceAccount
                        metadata: {name: build-robot}
                        secrets: [{name: build-robot-token}]
                        """, "NAME SECRETS AGE", List.of("build-robot", "1", ANY),
                        "{\"automountServiceAccountToken\":false}", "/automountServiceAccountToken", "false"),
                new Case(NS + "services", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: web}
                        spec:
                          type: NodePort
                          selector: {app: web}
                          ports:
                          - {name: http, port: 80, targetPort: 8080, nodePort: 30080}
                          - {name: metrics, port: 9090}
                        """, "NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE",
                        // the cluster IP and the second node port are allocated (ServiceApiTest)
                        List.of("web", "NodePort", ANY, "<none>", ANY, ANY, "app=web"),
                        "{\"spec\":{\"selector\":{\"app\":\"web2\"}}}", "/spec/selector/app", "web2"),
                new Case(NS + "endpoints", """
                        apiVersion: v1
                        kind: Endpoints
                        metadata: {name: web}
                        subsets: [{addresses: [{ip: 10.244.1.5}, {ip: 10.244.2.6}], ports: [{port: 8080}]}]
                        """, "NAME ENDPOINTS AGE", List.of("web", "10.244.1.5:8080,10.244.2.6:8080", ANY),
                        "{\"metadata\":{\"labels\":{\"team\":\"a\"}}}", "/metadata/labels/team", "a"),
                new Case("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", """
                        apiVersion: discovery.k8s.io/v1
                        kind: EndpointSlice
                        metadata: {name: web-abc, labels: {kubernetes.io/service-name: web}}
                        addressType: IPv4
                        endpoints: [{addresses: [10.1.2.3], conditions: {ready: true}}]
                        ports: [{name: http, port: 80}]
                        """, "NAME ADDRESSTYPE PORTS ENDPOINTS AGE", List.of("web-abc", "IPv4", "80", "10.1.2.3", ANY),
                        "{\"endpoints\":[{\"addresses\":[\"10.1.2.4\"]}]}", "/endpoints/0/addresses/0", "10.1.2.4"),
                new Case(NS + "persistentvolumeclaims", """
                        apiVersion: v1
                        kind: PersistentVolumeClaim
                        metadata: {name: data}
                        spec:
                          accessModes: [ReadWriteOnce]
                          resources: {requests: {storage: 1Gi}}
                          storageClassName: standard
                        """, "NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE",
                        List.of("data", "Pending", "", "", "", "standard", "<unset>", ANY, "Filesystem"),
                        "{\"spec\":{\"volumeName\":\"pv1\"}}", "/spec/volumeName", "pv1"),
                new Case("/api/v1/persistentvolumes", """
                        apiVersion: v1
                        kind: PersistentVolume
                        metadata: {name: pv1}
                        spec:
                          capacity: {storage: 5Gi}
                          accessModes: [ReadWriteOnce, ReadOnlyMany]
                          claimRef: {namespace: default, name: data}
                          storageClassName: standard
                          hostPath: {path: /data/pv1}
                        """, "NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS VOLUMEATTRIBUTESCLASS "
                        + "REASON AGE", List.of("pv1", "5Gi", "RWO,ROX", "Retain", "Pending", "default/data", "standard",
                        "<unset>", "", ANY, "Filesystem"),
                        "{\"spec\":{\"persistentVolumeReclaimPolicy\":\"Delete\"}}", "/spec/persistentVolumeReclaimPolicy",
                        "Delete"),
                new Case("/apis/storage.k8s.io/v1/storageclasses", """
                        apiVersion: storage.k8s.io/v1
                        kind: StorageClass
                        metadata:
                          name: standard
                          annotations: {storageclass.kubernetes.io/is-default-class: "true"}
                        provisioner: rancher.io/local-path
                        volumeBindingMode: WaitForFirstConsumer
                        allowVolumeExpansion: true
                        """, "NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE",
                        List.of("standard (default)", "rancher.io/local-path", "Delete", "WaitForFirstConsumer", "true", ANY),
                        "{\"allowVolumeExpansion\":false}", "/allowVolumeExpansion", "false"),
                new Case("/apis/scheduling.k8s.io/v1/priorityclasses", """
                        apiVersion: scheduling.k8s.io/v1
                        kind: PriorityClass
                        metadata: {name: high-priority}
                        value: 1000000
                        description: for XYZ service pods only
                        """, "NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY",
                        List.of("high-priority", "1000000", "false", ANY, "PreemptLowerPriority"),
                        "{\"description\":\"for ABC\"}", "/description", "for ABC"),
                new Case(NS + "resourcequotas", """
                        apiVersion: v1
                        kind: ResourceQuota
                        metadata: {name: compute}
                        spec: {hard: {requests.cpu: "1", limits.memory: 2Gi, pods: "10"}}
                        """, "NAME AGE REQUEST LIMIT",
                        // empty until the resourcequota controller has written the status, which may come first
                        List.of("compute", ANY, "|pods: 0/10, requests.cpu: 0/1", "|limits.memory: 0/2Gi"),
                        "{\"spec\":{\"hard\":{\"pods\":\"20\"}}}", "/spec/hard/pods", "20"),
                new Case(NS + "limitranges", """
                        apiVersion: v1
                        kind: LimitRange
                        metadata: {name: cpu-limits}
                        spec: {limits: [{type: Container, max: {cpu: "1"}, min: {cpu: 100m}}]}
                        """, "NAME CREATED AT", List.of("cpu-limits", ANY),
                        "{\"metadata\":{\"labels\":{\"tier\":\"web\"}}}", "/spec/limits/0/defaultRequest/cpu", "1"))
                .map(c -> Arguments.of(c.toString(), c));
    }

    @ParameterizedTest(name = "{0}: create (YAML, strict), get, list as a Table, merge patch, watch and delete over HTTP")
    @MethodSource("kinds")
    void lifecycle(String kind, Case c) throws Exception {
        String name = c.name();
        String rv = json(f.get(c.collection())).path("metadata").path("resourceVersion").asText();
        try (RawWatch watch = new RawWatch(f.url(), c.collection() + "?watch=true&resourceVersion=" + rv
                + "&timeoutSeconds=60")) {
            assertEquals(200, watch.status);
            HttpResponse<String> created = f.send("POST", c.collection() + "?fieldValidation=Strict", "application/yaml",
                    c.yaml().getBytes(StandardCharsets.UTF_8));
            assertEquals(201, created.statusCode(), created.body());
            JsonNode stored = json(created);
            assertEquals(kind, stored.path("kind").asText());
            assertEquals(name, stored.path("metadata").path("name").asText());
            JsonNode read = json(f.get(c.collection() + "/" + name));
            if (kind.equals("ResourceQuota") && !read.equals(stored)) {
                // the resourcequota controller may have written the status since: the spec and identity are the same
                assertEquals(stored.path("spec"), read.path("spec"));
                assertEquals(stored.path("metadata").path("uid"), read.path("metadata").path("uid"));
                assertEquals(stored.path("spec").path("hard"), read.path("status").path("hard"));
            } else {
                assertEquals(stored, read);
            }

            JsonNode table = json(f.get(c.collection(), "Accept", TABLE));
            assertEquals(c.header(), header(table));
            assertCells(c.cells(), row(table, name));

            HttpResponse<String> patched = f.patch(c.collection() + "/" + name, "application/merge-patch+json", c.patch());
            assertEquals(200, patched.statusCode(), patched.body());
            assertEquals(c.patched(), json(patched).at(c.pointer()).asText(), patched.body());
            assertFalse(json(patched).has("stringData"), "stringData is write-only");

            assertEquals(200, f.delete(c.collection() + "/" + name, null).statusCode());
            assertEquals(404, f.get(c.collection() + "/" + name).statusCode());

            // the created object, the patch (and, for a ResourceQuota, its controller's status writes), the delete
            List<String> events = new ArrayList<>();
            while (events.size() < 8 && !events.contains("DELETED")) {
                JsonNode e = watch.nextEvent();
                assertEquals(name, e.path("object").path("metadata").path("name").asText(), e.toString());
                assertEquals(kind, e.path("object").path("kind").asText());
                events.add(e.path("type").asText());
            }
            List<String> expected = new ArrayList<>(List.of("ADDED", "MODIFIED", "DELETED"));
            while (kind.equals("ResourceQuota") && expected.size() < events.size()) {
                expected.add(1, "MODIFIED");
            }
            assertEquals(expected, events);
        }
    }

    @Test
    @DisplayName("bad input answers as Kubernetes does: invalid base64 400, a port out of range or a nodePort outside "
            + "the range 422 with the field's message")
    void badInput() {
        HttpResponse<String> base64 = f.post(NS + "secrets",
                "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"bad\"},\"data\":{\"key\":\"abc!\"}}");
        assertEquals(400, base64.statusCode(), base64.body());
        assertEquals("Secret in version \"v1\" cannot be handled as a Secret: data[key]: illegal base64 data at input "
                + "byte 3", json(base64).path("message").asText());
        HttpResponse<String> port = f.post(NS + "services", "{\"metadata\":{\"name\":\"bad\"},\"spec\":{\"type\":"
                + "\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":40000},{\"name\":\"b\",\"port\":65536,\"targetPort\":80}]}}");
        assertEquals(422, port.statusCode(), port.body());
        JsonNode status = json(port);
        assertEquals("Invalid", status.path("reason").asText());
        List<String> messages = new ArrayList<>();
        status.path("details").path("causes").forEach(cause -> messages.add(cause.path("field").asText() + ": "
                + cause.path("message").asText()));
        assertEquals(List.of("spec.ports[0].name: Required value",
                "spec.ports[1].port: Invalid value: 65536: must be between 1 and 65535, inclusive",
                "spec.ports[0].nodePort: Invalid value: 40000: provided port is not in the valid range. "
                        + "The range of valid ports is 30000-32767"), messages);
        HttpResponse<String> frozen = f.post(NS + "configmaps",
                "{\"metadata\":{\"name\":\"frozen\"},\"data\":{\"a\":\"1\"},\"immutable\":true}");
        assertEquals(201, frozen.statusCode(), frozen.body());
        HttpResponse<String> changed = f.patch(NS + "configmaps/frozen", "application/merge-patch+json",
                "{\"data\":{\"a\":\"2\"}}");
        assertEquals(422, changed.statusCode(), changed.body());
        assertTrue(json(changed).path("message").asText().contains(
                "data: Forbidden: field is immutable when `immutable` is set"), changed.body());
    }

    @Test
    @DisplayName("kubectl apply's strategic merge patch merges a Service's ports by port; server-side apply keys them "
            + "by port and protocol")
    void servicePortsMergeByPort() {
        String svc = NS + "services";
        assertEquals(201, f.post(svc, "{\"metadata\":{\"name\":\"ports\"},\"spec\":{\"selector\":{\"app\":\"p\"},"
                + "\"ports\":[{\"name\":\"http\",\"port\":80},{\"name\":\"https\",\"port\":443}]}}").statusCode());
        HttpResponse<String> smp = f.patch(svc + "/ports", "application/strategic-merge-patch+json",
                "{\"spec\":{\"ports\":[{\"port\":80,\"targetPort\":8080}]}}");
        assertEquals(200, smp.statusCode(), smp.body());
        JsonNode ports = json(smp).path("spec").path("ports");
        assertEquals(2, ports.size(), ports.toString());
        assertEquals(8080, ports.get(0).path("targetPort").asInt());
        assertEquals(443, ports.get(1).path("targetPort").asInt());

        String applied = """
                apiVersion: v1
                kind: Service
                metadata: {name: applied}
                spec:
                  selector: {app: a}
                  ports: [{name: http, port: 80}, {name: dns, port: 53, protocol: UDP}]
                """;
        HttpResponse<String> first = f.patch(svc + "/applied?fieldManager=me", "application/apply-patch+yaml", applied);
        assertEquals(201, first.statusCode(), first.body());
        String fields = json(first).path("metadata").path("managedFields").get(0).path("fieldsV1").toString();
        assertTrue(fields.contains("k:{\\\"port\\\":80,\\\"protocol\\\":\\\"TCP\\\"}"), fields);
        HttpResponse<String> again = f.patch(svc + "/applied?fieldManager=me", "application/apply-patch+yaml",
                applied.replace("port: 53, protocol: UDP", "port: 53, protocol: UDP, targetPort: 5353"));
        assertEquals(200, again.statusCode(), again.body());
        JsonNode appliedPorts = json(again).path("spec").path("ports");
        assertEquals(2, appliedPorts.size(), appliedPorts.toString());
        assertEquals(5353, appliedPorts.get(1).path("targetPort").asInt());
    }

    @Test
    @DisplayName("field selectors Kubernetes registers for the new kinds: a Secret's type, a Service's spec.type")
    void fieldSelectors() {
        String secrets = "/api/v1/namespaces/kube-system/secrets";
        assertEquals(201, f.post(secrets, "{\"metadata\":{\"name\":\"plain\"},\"data\":{\"a\":\"AA==\"}}").statusCode());
        assertEquals(201, f.post(secrets, "{\"metadata\":{\"name\":\"cert\"},\"type\":\"kubernetes.io/tls\","
                + "\"data\":{\"tls.crt\":\"AA==\",\"tls.key\":\"AA==\"}}").statusCode());
        JsonNode tls = json(f.get(secrets + "?fieldSelector=type%3Dkubernetes.io%2Ftls"));
        assertEquals(1, tls.path("items").size(), tls.toString());
        assertEquals("cert", tls.path("items").get(0).path("metadata").path("name").asText());
        String services = "/api/v1/namespaces/kube-system/services";
        assertEquals(201, f.post(services, "{\"metadata\":{\"name\":\"ext\"},\"spec\":{\"type\":\"ExternalName\","
                + "\"externalName\":\"db.example.com\"}}").statusCode());
        JsonNode external = json(f.get(services + "?fieldSelector=spec.type%3DExternalName"));
        assertEquals(1, external.path("items").size(), external.toString());
        assertEquals(400, f.get(secrets + "?fieldSelector=spec.type%3DOpaque").statusCode());
    }

    @Test
    @DisplayName("discovery serves the new kinds with their short names and scopes; services are in the all category")
    void discovery() {
        JsonNode core = json(f.get("/api/v1"));
        assertEquals("[\"cm\"]", resource(core, "configmaps").path("shortNames").toString());
        assertEquals("[\"svc\"]", resource(core, "services").path("shortNames").toString());
        assertEquals("[\"all\"]", resource(core, "services").path("categories").toString());
        assertEquals("Service", resource(core, "services/status").path("kind").asText());
        assertEquals("[\"quota\"]", resource(core, "resourcequotas").path("shortNames").toString());
        assertEquals("[\"limits\"]", resource(core, "limitranges").path("shortNames").toString());
        assertFalse(resource(core, "persistentvolumes").path("namespaced").asBoolean());
        assertEquals("[\"pvc\"]", resource(core, "persistentvolumeclaims").path("shortNames").toString());
        JsonNode storage = json(f.get("/apis/storage.k8s.io/v1"));
        assertEquals("[\"sc\"]", resource(storage, "storageclasses").path("shortNames").toString());
        assertFalse(resource(storage, "storageclasses").path("namespaced").asBoolean());
        JsonNode scheduling = json(f.get("/apis/scheduling.k8s.io/v1"));
        assertEquals("[\"pc\"]", resource(scheduling, "priorityclasses").path("shortNames").toString());
        assertEquals("EndpointSlice", resource(json(f.get("/apis/discovery.k8s.io/v1")), "endpointslices")
                .path("kind").asText());
    }

    private static JsonNode resource(JsonNode list, String name) {
        for (JsonNode r : list.path("resources")) {
            if (r.path("name").asText().equals(name)) {
                return r;
            }
        }
        throw new AssertionError(name + " not in " + list);
    }

    private static String header(JsonNode table) {
        List<String> columns = new ArrayList<>();
        table.path("columnDefinitions").forEach(c -> {
            if (c.path("priority").asInt() == 0) {
                columns.add(c.path("name").asText().toUpperCase());
            }
        });
        return String.join(" ", columns);
    }

    private static List<String> row(JsonNode table, String name) {
        for (JsonNode r : table.path("rows")) {
            if (r.path("object").path("metadata").path("name").asText().equals(name)) {
                List<String> cells = new ArrayList<>();
                r.path("cells").forEach(c -> cells.add(c.asText()));
                return cells;
            }
        }
        throw new AssertionError("no row for " + name + " in " + table);
    }

    private static void assertCells(List<String> expected, List<String> actual) {
        assertEquals(expected.size(), actual.size(), actual.toString());
        for (int i = 0; i < expected.size(); i++) {
            if (expected.get(i).contains("|")) { // one of several
                assertTrue(List.of(expected.get(i).split("\\|", -1)).contains(actual.get(i)),
                        "cell " + i + " of " + actual + " is one of " + expected.get(i));
            } else if (!expected.get(i).equals(ANY)) {
                assertEquals(expected.get(i), actual.get(i), "cell " + i + " of " + actual);
            }
        }
    }
}
