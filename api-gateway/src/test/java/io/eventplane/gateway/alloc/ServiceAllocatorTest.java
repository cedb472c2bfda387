package io.eventplane.gateway.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import io.eventplane.model.networking.IPAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The Service allocators over the writer's decision in memory (no Kafka): cluster IPs, node ports and health-check
 * node ports taken as IPAddress and NodePortAllocation objects, refused with Kubernetes' messages, given back (issue 16).
 */
class ServiceAllocatorTest {
    private final MemoryLog log = new MemoryLog();
    private final ServiceAllocator allocator = new ServiceAllocator(ServiceNetwork.defaults(), log.store, log,
            new Commands("test"), new Random(1));

    private static String svc(String name, String spec) {
        return "metadata: {name: " + name + ", namespace: default}\nspec: " + spec;
    }

    private Service create(String yaml) {
        Service decided = log.decided(yaml);
        ServiceAllocator.Allocation a = allocator.allocate(null, decided, MemoryLog.parse(yaml), false);
        log.write(a.service());
        a.commit();
        return (Service) log.store.get("Service", "default", decided.getMetadata().getName()).orElseThrow().getObject();
    }

    private ApiException refused(String yaml) {
        Service decided = log.decided(yaml);
        return assertThrows(ApiException.class, () -> allocator.allocate(null, decided, MemoryLog.parse(yaml), false));
    }

    private int objects(String kind) {
        return log.store.list(kind, null).size();
    }

    @Test
    @DisplayName("a ClusterIP Service gets a free IP of the range, held by an IPAddress named by it that names the Service")
    void clusterIp() {
        Service web = create(svc("web", "{selector: {app: web}, ports: [{port: 80}]}"));
        String ip = web.getSpec().getClusterIP();
        assertEquals(List.of(ip), web.getSpec().getClusterIPs());
        assertTrue(ServiceNetwork.defaults().clusterIps().allocatable(ip), ip);
        assertEquals(List.of("IPv4"), web.getSpec().getIpFamilies());
        assertEquals("SingleStack", web.getSpec().getIpFamilyPolicy());
        IPAddress address = (IPAddress) log.store.get("IPAddress", "", ip).orElseThrow().getObject();
        assertEquals("services", address.getSpec().getParentRef().getResource());
        assertEquals("default", address.getSpec().getParentRef().getNamespace());
        assertEquals("web", address.getSpec().getParentRef().getName());
        assertEquals(Map.of("ipaddress.kubernetes.io/ip-family", "IPv4",
                "ipaddress.kubernetes.io/managed-by", "ipallocator.k8s.io"), address.getMetadata().getLabels());
    }

    @Test
    @DisplayName("a requested IP in use, outside the range, or the network address is refused with Kubernetes' message")
    void requestedIps() {
        create(svc("dns", "{clusterIP: 10.96.0.10, ports: [{port: 53, protocol: UDP}]}"));
        assertEquals("Service \"dns2\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.96.0.10\"}: failed to "
                + "allocate IP 10.96.0.10: provided IP is already allocated",
                refused(svc("dns2", "{clusterIP: 10.96.0.10, ports: [{port: 53}]}")).status().message());
        assertEquals("Service \"out\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.0.0.5\"}: failed to "
                + "allocate IP 10.0.0.5: the provided network does not match the current range",
                refused(svc("out", "{clusterIP: 10.0.0.5, ports: [{port: 80}]}")).status().message());
        assertEquals("Service \"net\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.96.0.0\"}: failed to "
                + "allocate IP 10.96.0.0: the provided IP (10.96.0.0) is not in the valid range. The range of valid IPs "
                + "is 10.96.0.0/12", refused(svc("net", "{clusterIP: 10.96.0.0, ports: [{port: 80}]}")).status().message());
        assertEquals(1, objects("IPAddress"));
    }

    @Test
    @DisplayName("headless and ExternalName Services get no IP; a headless one without selector asks for both families")
    void noIps() {
        Service headless = create(svc("db", "{clusterIP: None, ports: [{port: 5432}]}"));
        assertEquals(List.of("None"), headless.getSpec().getClusterIPs());
        assertEquals("RequireDualStack", headless.getSpec().getIpFamilyPolicy());
        assertEquals(List.of("IPv4", "IPv6"), headless.getSpec().getIpFamilies());
        Service selected = create(svc("db2", "{clusterIP: None, selector: {app: db}, ports: [{port: 5432}]}"));
        assertEquals(List.of("IPv4"), selected.getSpec().getIpFamilies());
        Service external = create(svc("ext", "{type: ExternalName, externalName: db.example.com}"));
        assertEquals(null, external.getSpec().getClusterIP());
        assertEquals(null, external.getSpec().getIpFamilies());
        assertEquals(0, objects("IPAddress"));
    }

    @Test
    @DisplayName("families this cluster does not have are refused as kube-apiserver refuses them")
    void families() {
        assertEquals("Service \"v6\" is invalid: spec.ipFamilies[0]: Invalid value: \"IPv6\": not configured on this "
                + "cluster", refused(svc("v6", "{ipFamilies: [IPv6], ports: [{port: 80}]}")).status().message());
        assertEquals("Service \"dual\" is invalid: spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": this "
                + "cluster is not configured for dual-stack services",
                refused(svc("dual", "{ipFamilyPolicy: RequireDualStack, ports: [{port: 80}]}")).status().message());
        Service prefer = create(svc("prefer", "{ipFamilyPolicy: PreferDualStack, ports: [{port: 80}]}"));
        assertEquals(List.of("IPv4"), prefer.getSpec().getIpFamilies());
    }

    @Test
    @DisplayName("an IPv6 service CIDR gives IPv6 cluster IPs and families")
    void ipv6Range() {
        ServiceAllocator v6 = new ServiceAllocator(ServiceNetwork.of("fd00:10:96::/112"), log.store, log,
                new Commands("test"), new Random(2));
        String yaml = svc("web6", "{ports: [{port: 80}]}");
        Service filled = v6.allocate(null, log.decided(yaml), MemoryLog.parse(yaml), false).service();
        assertTrue(filled.getSpec().getClusterIP().startsWith("fd00:10:96::"), filled.getSpec().getClusterIP());
        assertEquals(List.of("IPv6"), filled.getSpec().getIpFamilies());
    }

    @Test
    @DisplayName("when every IP of a small range is held, the next Service is refused: range is full")
    void rangeFull() {
        ServiceAllocator small = new ServiceAllocator(ServiceNetwork.of("10.10.0.0/29"), log.store, log,
                new Commands("test"), new Random(3));
        for (int i = 0; i < 6; i++) {
            String yaml = svc("s" + i, "{ports: [{port: 80}]}");
            log.write(small.allocate(null, log.decided(yaml), MemoryLog.parse(yaml), false).service());
        }
        String yaml = svc("s6", "{ports: [{port: 80}]}");
        ApiException full = assertThrows(ApiException.class,
                () -> small.allocate(null, log.decided(yaml), MemoryLog.parse(yaml), false));
        assertEquals(500, full.status().code());
        assertEquals("Internal error occurred: failed to allocate a serviceIP: range is full", full.status().message());
    }

    @Test
    @DisplayName("node ports: allocated in the range, one per port number across protocols, a port in use refused")
    void nodePorts() {
        Service web = create(svc("web", "{type: NodePort, selector: {app: web}, ports: [{name: http, port: 80, "
                + "nodePort: 30080}, {name: dns, port: 53, protocol: UDP}, {name: dns-tcp, port: 53, protocol: TCP}]}"));
        List<ServicePort> ports = web.getSpec().getPorts();
        assertEquals(30080, ports.get(0).getNodePort());
        assertTrue(PortRange.DEFAULT.contains(ports.get(1).getNodePort()));
        assertEquals(ports.get(1).getNodePort(), ports.get(2).getNodePort(), "TCP and UDP of one port share it");
        assertEquals(2, objects("NodePortAllocation"));
        ApiException taken = refused(svc("web2", "{type: NodePort, ports: [{port: 80, nodePort: 30080}]}"));
        assertEquals(422, taken.status().code());
        assertEquals("Service \"web2\" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is "
                + "already allocated", taken.status().message());
        assertEquals(2, objects("NodePortAllocation"));
    }

    @Test
    @DisplayName("a LoadBalancer with externalTrafficPolicy Local gets a health-check node port; one in use is a 500")
    void healthCheckNodePort() {
        Service lb = create(svc("lb", "{type: LoadBalancer, externalTrafficPolicy: Local, ports: [{port: 443}]}"));
        int hc = lb.getSpec().getHealthCheckNodePort();
        assertTrue(PortRange.DEFAULT.contains(hc));
        assertNotEquals(lb.getSpec().getPorts().get(0).getNodePort(), hc);
        ApiException taken = refused(svc("lb2", "{type: LoadBalancer, externalTrafficPolicy: Local, healthCheckNodePort: "
                + hc + ", ports: [{port: 443}]}"));
        assertEquals(500, taken.status().code());
        assertEquals("Internal error occurred: failed to allocate requested HealthCheck NodePort " + hc
                + ": provided port is already allocated", taken.status().message());
        Service noPorts = create(svc("lb3", "{type: LoadBalancer, allocateLoadBalancerNodePorts: false, "
                + "ports: [{port: 443}]}"));
        assertEquals(null, noPorts.getSpec().getPorts().get(0).getNodePort());
    }

    @Test
    @DisplayName("a refused write gives back what it took; a deleted Service gives back everything it held")
    void release() {
        String yaml = svc("web", "{type: NodePort, ports: [{port: 80}]}");
        ServiceAllocator.Allocation a = allocator.allocate(null, log.decided(yaml), MemoryLog.parse(yaml), false);
        assertEquals(1, objects("IPAddress"));
        a.revert();
        assertEquals(0, objects("IPAddress"));
        assertEquals(0, objects("NodePortAllocation"));
        Service web = create(yaml);
        allocator.releaseAll(web);
        assertEquals(0, objects("IPAddress"));
        assertEquals(0, objects("NodePortAllocation"));
    }

    @Test
    @DisplayName("a type change gives back what the new type does not use, once the update is accepted")
    void typeChange() {
        Service web = create(svc("web", "{type: NodePort, ports: [{port: 80, nodePort: 30080}]}"));
        ObjectChanged stored = log.store.get("Service", "default", "web").orElseThrow();
        Service toClusterIp = Service.newBuilder(web).setSpec(io.eventplane.model.ServiceSpec.newBuilder(web.getSpec())
                .setType("ClusterIP").setExternalTrafficPolicy(null)
                .setPorts(List.of(ServicePort.newBuilder(web.getSpec().getPorts().get(0)).setNodePort(null).build()))
                .build()).build();
        ServiceAllocator.Allocation a = allocator.allocate(web, toClusterIp, toClusterIp, false);
        assertEquals(1, objects("NodePortAllocation"), "kept until the update is accepted");
        a.commit();
        assertEquals(0, objects("NodePortAllocation"));
        Service external = Service.newBuilder(toClusterIp).setSpec(io.eventplane.model.ServiceSpec.newBuilder(
                toClusterIp.getSpec()).setType("ExternalName").setExternalName("x.example.com").setClusterIP(null)
                .setClusterIPs(null).build()).build();
        allocator.allocate(toClusterIp, external, external, false).commit();
        assertEquals(0, objects("IPAddress"));
        assertEquals("web", stored.getName());
    }

    @Test
    @DisplayName("a dry run picks and checks, and takes nothing")
    void dryRun() {
        String yaml = svc("web", "{type: NodePort, ports: [{port: 80}]}");
        Service filled = allocator.allocate(null, log.decided(yaml), MemoryLog.parse(yaml), true).service();
        assertTrue(filled.getSpec().getClusterIP() != null && filled.getSpec().getPorts().get(0).getNodePort() != null);
        assertEquals(0, log.changes.size());
    }

    @Test
    @DisplayName("two racing creates of one requested IP and node port: exactly one wins, the other is refused")
    void racingCreates() throws Exception {
        for (int round = 0; round < 20; round++) {
            String ip = "10.96.1." + (round + 1);
            int port = 31000 + round;
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<String>> results = new ArrayList<>();
            for (String name : List.of("a" + round, "b" + round)) {
                String yaml = svc(name, "{type: NodePort, clusterIP: " + ip + ", ports: [{port: 80, nodePort: " + port
                        + "}]}");
                Service decided = log.decided(yaml);
                results.add(pool.submit(() -> {
                    go.await();
                    try {
                        log.write(allocator.allocate(null, decided, MemoryLog.parse(yaml), false).service());
                        return "won";
                    } catch (ApiException e) {
                        return e.status().message();
                    }
                }));
            }
            go.countDown();
            List<String> outcomes = new ArrayList<>();
            for (Future<String> f : results) {
                outcomes.add(f.get());
            }
            pool.shutdown();
            assertEquals(1, outcomes.stream().filter("won"::equals).count(), outcomes.toString());
            String loser = outcomes.stream().filter(o -> !o.equals("won")).findFirst().orElseThrow();
            assertTrue(loser.contains("provided IP is already allocated") || loser.contains("provided port is already "
                    + "allocated"), loser);
            assertEquals(round + 1, objects("IPAddress"));
            assertEquals(round + 1, objects("NodePortAllocation"), "the loser gave back what it took");
        }
        assertEquals(20, log.store.list(Kinds.SERVICE.kind(), null).size());
    }
}
