package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.gateway.alloc.ServiceNetwork;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 16 phase 2 over HTTP: cluster IPs and node ports allocated by the gateway as kube-apiserver allocates them
 * (IPAddress objects served as networking.k8s.io/v1), refused with Kubernetes' messages without writing anything,
 * given back on delete and type change; the kubernetes Service; racing creates.
 */
class ServiceApiTest {
    private static final String SERVICES = "/api/v1/namespaces/default/services";
    private static final String IPS = "/apis/networking.k8s.io/v1/ipaddresses";
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    private static String service(String name, String spec) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":" + spec + "}";
    }

    private HttpResponse<String> create(String name, String spec) {
        return f.post(SERVICES, service(name, spec));
    }

    /** Asserts the request is refused with {@code code} and {@code message}, and that the log did not grow. */
    private void refusedWithoutWrites(int code, String message, String name, String spec) {
        long before = f.gateway.view().appliedChanges();
        HttpResponse<String> r = create(name, spec);
        assertEquals(code, r.statusCode(), r.body());
        assertEquals(message, json(r).path("message").asText());
        assertEquals(before, f.gateway.view().appliedChanges(), "nothing is written");
        assertEquals(404, f.get(SERVICES + "/" + name).statusCode());
    }

    @Test
    @DisplayName("a Service gets a cluster IP of 10.96.0.0/12, held by an IPAddress served as networking.k8s.io/v1")
    void clusterIpAllocated() {
        HttpResponse<String> r = create("web", "{\"selector\":{\"app\":\"web\"},\"ports\":[{\"port\":80}]}");
        assertEquals(201, r.statusCode(), r.body());
        String ip = json(r).path("spec").path("clusterIP").asText();
        assertTrue(ServiceNetwork.defaults().clusterIps().allocatable(ip), ip);
        assertEquals("[\"" + ip + "\"]", json(r).path("spec").path("clusterIPs").toString());
        JsonNode address = json(f.get(IPS + "/" + ip));
        assertEquals("IPAddress", address.path("kind").asText());
        assertEquals("networking.k8s.io/v1", address.path("apiVersion").asText());
        assertEquals("{\"resource\":\"services\",\"namespace\":\"default\",\"name\":\"web\"}",
                address.path("spec").path("parentRef").toString());
        JsonNode table = json(f.get(IPS, "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"));
        boolean listed = false;
        for (JsonNode row : table.path("rows")) {
            listed |= row.path("cells").get(0).asText().equals(ip)
                    && row.path("cells").get(1).asText().equals("services/default/web");
        }
        assertTrue(listed, table.toString());
        assertEquals(200, f.delete(SERVICES + "/web", null).statusCode());
        assertEquals(404, f.get(IPS + "/" + ip).statusCode(), "the IP is given back with the Service");
    }

    @Test
    @DisplayName("bad input is refused with Kubernetes' message and writes nothing: an IP in use, an IP outside the "
            + "range, a node port in use, a port out of range")
    void badInput() {
        assertEquals(201, create("dns", "{\"clusterIP\":\"10.96.0.10\",\"ports\":[{\"port\":53,\"protocol\":\"UDP\"}]}")
                .statusCode());
        refusedWithoutWrites(422, "Service \"dns2\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.96.0.10\"}: "
                + "failed to allocate IP 10.96.0.10: provided IP is already allocated", "dns2",
                "{\"clusterIP\":\"10.96.0.10\",\"ports\":[{\"port\":53}]}");
        refusedWithoutWrites(422, "Service \"outside\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.0.0.5\"}: "
                + "failed to allocate IP 10.0.0.5: the provided network does not match the current range", "outside",
                "{\"clusterIP\":\"10.0.0.5\",\"ports\":[{\"port\":80}]}");
        assertEquals(201, create("np", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30080}]}")
                .statusCode());
        refusedWithoutWrites(422, "Service \"np2\" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided "
                + "port is already allocated", "np2", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30080}]}");
        refusedWithoutWrites(422, "Service \"big\" is invalid: spec.ports[0].port: Invalid value: 70000: must be between "
                + "1 and 65535, inclusive", "big", "{\"ports\":[{\"port\":70000,\"targetPort\":80}]}");
        refusedWithoutWrites(422, "Service \"np3\" is invalid: spec.ports[0].nodePort: Invalid value: 40000: provided "
                + "port is not in the valid range. The range of valid ports is 30000-32767", "np3",
                "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":40000}]}");
    }

    @Test
    @DisplayName("node ports are given back when the Service is deleted or stops being a NodePort")
    void nodePortsGivenBack() {
        assertEquals(201, create("a", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30100}]}").statusCode());
        assertEquals(200, f.delete(SERVICES + "/a", null).statusCode());
        HttpResponse<String> again = create("b", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30100}]}");
        assertEquals(201, again.statusCode(), again.body());
        HttpResponse<String> toClusterIp = f.patch(SERVICES + "/b", "application/merge-patch+json",
                "{\"spec\":{\"type\":\"ClusterIP\",\"externalTrafficPolicy\":null,\"ports\":[{\"port\":80}]}}");
        assertEquals(200, toClusterIp.statusCode(), toClusterIp.body());
        assertTrue(json(toClusterIp).path("spec").path("ports").get(0).path("nodePort").isMissingNode());
        HttpResponse<String> third = create("c", "{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30100}]}");
        assertEquals(201, third.statusCode(), third.body());
        HttpResponse<String> toNodePort = f.patch(SERVICES + "/b", "application/merge-patch+json",
                "{\"spec\":{\"type\":\"NodePort\"}}");
        assertEquals(200, toNodePort.statusCode(), toNodePort.body());
        int allocated = json(toNodePort).path("spec").path("ports").get(0).path("nodePort").asInt();
        assertTrue(allocated >= 30000 && allocated <= 32767 && allocated != 30100, toNodePort.body());
    }

    @Test
    @DisplayName("two racing creates of one requested cluster IP and node port: exactly one wins")
    void racingCreates() throws Exception {
        for (int round = 0; round < 3; round++) {
            String spec = "{\"type\":\"NodePort\",\"clusterIP\":\"10.96.7." + (round + 1) + "\",\"ports\":[{\"port\":80,"
                    + "\"nodePort\":" + (31500 + round) + "}]}";
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (String name : List.of("race-a" + round, "race-b" + round)) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return create(name, spec);
                }));
            }
            go.countDown();
            List<Integer> codes = new ArrayList<>();
            String loser = "";
            for (Future<HttpResponse<String>> a : answers) {
                HttpResponse<String> r = a.get();
                codes.add(r.statusCode());
                if (r.statusCode() != 201) {
                    loser = json(r).path("message").asText();
                }
            }
            pool.shutdown();
            assertEquals(List.of(201, 422), codes.stream().sorted().toList(), codes + " " + loser);
            assertTrue(loser.contains("is already allocated"), loser);
        }
    }

    @Test
    @DisplayName("the kubernetes Service: the range's first IP, 443 to the gateway's port, its Endpoints and EndpointSlice")
    void kubernetesService() {
        JsonNode svc = json(f.get(SERVICES + "/kubernetes"));
        assertEquals("10.96.0.1", svc.path("spec").path("clusterIP").asText(), svc.toString());
        assertEquals(443, svc.path("spec").path("ports").get(0).path("port").asInt());
        assertEquals(f.gateway.port(), svc.path("spec").path("ports").get(0).path("targetPort").asInt());
        assertFalse(svc.path("spec").has("selector"));
        assertEquals("apiserver", svc.path("metadata").path("labels").path("component").asText());
        assertEquals("services/default/kubernetes", json(f.get(IPS, "Accept",
                "application/json;as=Table;v=v1;g=meta.k8s.io")).path("rows").findValues("cells").stream()
                .filter(c -> c.get(0).asText().equals("10.96.0.1")).findFirst().orElseThrow().get(1).asText());
        JsonNode cidr = json(f.get("/apis/networking.k8s.io/v1/servicecidrs/kubernetes"));
        assertEquals("[\"10.96.0.0/12\"]", cidr.path("spec").path("cidrs").toString());
        assertEquals("True", cidr.path("status").path("conditions").get(0).path("status").asText());
        HttpResponse<String> ep = f.get("/api/v1/namespaces/default/endpoints/kubernetes");
        if (ep.statusCode() == 200) { // a host without a routable address has none
            assertEquals(f.gateway.port(), json(ep).path("subsets").get(0).path("ports").get(0).path("port").asInt());
            JsonNode slice = json(f.get("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes"));
            assertEquals("kubernetes", slice.path("metadata").path("labels").path("kubernetes.io/service-name").asText());
            assertEquals(json(ep).path("subsets").get(0).path("addresses").get(0).path("ip").asText(),
                    slice.path("endpoints").get(0).path("addresses").get(0).asText());
        }
    }
}
