package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.gateway.alloc.ServiceNetwork;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EndpointsBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.LimitRangeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * fabric8's typed DSL against every core kind of issue 16: create, get, list by label, edit (a JSON patch fabric8
 * computes), merge patch and delete, with each kind's server-side behaviour (defaults, stringData, cluster IPs)
 * asserted on what fabric8 reads back.
 */
class Fabric8CoreKindsTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();
    private static final String NS = "default";
    private static KubernetesClient client;

    @BeforeAll
    static void connect() {
        Config config = new ConfigBuilder().withMasterUrl(f.url()).withNamespace(NS).withRequestRetryBackoffLimit(0)
                .build();
        client = new KubernetesClientBuilder().withConfig(config).build();
    }

    @AfterAll
    static void disconnect() {
        client.close();
    }

    /** What {@link #roundTrip} saw: the created object, the edited one and the merge-patched one. */
    private record Seen<T>(T created, T edited, T patched) {
    }

    /**
     * Creates {@code item} (whose name is also its {@code proof} label), reads and lists it back, edits it with
     * {@code edit}, merge-patches an annotation on, deletes it and checks it is gone.
     */
    private static <T extends HasMetadata, L extends KubernetesResourceList<T>, R extends Resource<T>> Seen<T> roundTrip(
            NonNamespaceOperation<T, L, R> op, T item, UnaryOperator<T> edit) {
        String name = item.getMetadata().getName();
        item.getMetadata().setLabels(Map.of("proof", name));
        T created = op.resource(item).create();
        assertEquals(name, created.getMetadata().getName());
        assertNotNull(created.getMetadata().getUid());
        assertNotNull(created.getMetadata().getResourceVersion());
        assertNotNull(created.getMetadata().getCreationTimestamp());
        assertEquals(item.getKind(), created.getKind());

        T got = op.withName(name).get();
        assertEquals(created.getMetadata().getUid(), got.getMetadata().getUid());
        if (!item.getKind().equals("ResourceQuota")) { // its controller may have written the status since
            assertEquals(created.getMetadata().getResourceVersion(), got.getMetadata().getResourceVersion());
        }
        List<T> listed = op.withLabel("proof", name).list().getItems();
        assertEquals(List.of(name), listed.stream().map(o -> o.getMetadata().getName()).toList());
        assertEquals(List.of(), op.withLabel("proof", "nobody").list().getItems());

        if (item instanceof io.fabric8.kubernetes.api.model.ResourceQuota) {
            // its controller writes the status (used) once; an edit racing that write is a 409, in Kubernetes too
            GatewayFixture.awaitTrue(name + "'s quota status", () -> {
                var q = (io.fabric8.kubernetes.api.model.ResourceQuota) op.withName(name).get();
                return q.getStatus() != null && q.getStatus().getUsed() != null && !q.getStatus().getUsed().isEmpty();
            }, java.time.Duration.ofSeconds(15));
        }
        T edited = op.withName(name).edit(edit);
        assertNotEquals(created.getMetadata().getResourceVersion(), edited.getMetadata().getResourceVersion());
        T patched = op.withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"annotations\":{\"proof/patched\":\"yes\"}}}");
        assertEquals("yes", patched.getMetadata().getAnnotations().get("proof/patched"));
        assertEquals(name, patched.getMetadata().getLabels().get("proof"), "the merge patch keeps the labels");

        assertEquals(1, op.withName(name).delete().size());
        GatewayFixture.awaitTrue(name + " is gone", () -> op.withName(name).get() == null,
                java.time.Duration.ofSeconds(15));
        assertNull(op.withName(name).get());
        return new Seen<>(created, edited, patched);
    }

    private static String base64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("ConfigMap: data round-trips, an edit adds a key")
    void configMap() {
        Seen<ConfigMap> s = roundTrip(client.configMaps().inNamespace(NS), new ConfigMapBuilder().withNewMetadata()
                .withName("game").endMetadata().addToData("lives", "3").build(),
                c -> new ConfigMapBuilder(c).addToData("level", "7").build());
        assertEquals(Map.of("lives", "3"), s.created().getData());
        assertEquals(Map.of("lives", "3", "level", "7"), s.edited().getData());
        assertEquals(Map.of("lives", "3", "level", "7"), s.patched().getData());
    }

    @Test
    @DisplayName("Secret: stringData is merged into base64 data on write and never stored; type defaults to Opaque")
    void secret() {
        var s = roundTrip(client.secrets().inNamespace(NS), new SecretBuilder().withNewMetadata().withName("creds")
                .endMetadata().addToData("user", base64("admin")).addToStringData("password", "s3cret").build(),
                x -> new SecretBuilder(x).withStringData(Map.of("token", "abc")).build());
        assertEquals("Opaque", s.created().getType());
        assertEquals(Map.of("user", base64("admin"), "password", base64("s3cret")), s.created().getData());
        assertTrue(s.created().getStringData() == null || s.created().getStringData().isEmpty(), "never stored");
        assertEquals(base64("abc"), s.edited().getData().get("token"));
        assertEquals(base64("s3cret"), s.edited().getData().get("password"));
        assertTrue(s.edited().getStringData() == null || s.edited().getStringData().isEmpty(), "never stored");
    }

    @Test
    @DisplayName("ServiceAccount: an edit turns token automounting off")
    void serviceAccount() {
        var s = roundTrip(client.serviceAccounts().inNamespace(NS), new ServiceAccountBuilder().withNewMetadata()
                .withName("robot").endMetadata().build(),
                a -> new ServiceAccountBuilder(a).withAutomountServiceAccountToken(false).build());
        assertNull(s.created().getAutomountServiceAccountToken());
        assertEquals(false, s.edited().getAutomountServiceAccountToken());
    }

    @Test
    @DisplayName("Service: a ClusterIP service gets an IP from the service CIDR and defaults; an edit changes the selector")
    void service() {
        var s = roundTrip(client.services().inNamespace(NS), new ServiceBuilder().withNewMetadata().withName("web")
                .endMetadata().withNewSpec().addToSelector("app", "web").addNewPort().withName("http").withPort(80)
                .endPort().endSpec().build(),
                x -> new ServiceBuilder(x).editSpec().withSelector(Map.of("app", "web2")).endSpec().build());
        String ip = s.created().getSpec().getClusterIP();
        assertTrue(ServiceNetwork.defaults().clusterIps().allocatable(ip), ip);
        assertEquals(List.of(ip), s.created().getSpec().getClusterIPs());
        assertEquals("ClusterIP", s.created().getSpec().getType());
        assertEquals("TCP", s.created().getSpec().getPorts().get(0).getProtocol());
        assertEquals(80, s.created().getSpec().getPorts().get(0).getTargetPort().getIntVal());
        assertEquals(ip, s.edited().getSpec().getClusterIP(), "an edit keeps the cluster IP");
        assertEquals(Map.of("app", "web2"), s.edited().getSpec().getSelector());
    }

    @Test
    @DisplayName("PersistentVolumeClaim: Pending with its request; an edit grows the labels")
    void persistentVolumeClaim() {
        var s = roundTrip(client.persistentVolumeClaims().inNamespace(NS), new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName("data").endMetadata().withNewSpec().withAccessModes("ReadWriteOnce")
                .withStorageClassName("manual").withNewResources().addToRequests("storage", new Quantity("1Gi"))
                .endResources().endSpec().build(),
                c -> new PersistentVolumeClaimBuilder(c).editMetadata().addToLabels("tier", "db").endMetadata().build());
        assertEquals("Pending", s.created().getStatus().getPhase());
        assertEquals("Filesystem", s.created().getSpec().getVolumeMode());
        assertEquals(new Quantity("1Gi"), s.created().getSpec().getResources().getRequests().get("storage"));
        assertEquals("db", s.edited().getMetadata().getLabels().get("tier"));
    }

    @Test
    @DisplayName("PersistentVolume: reclaim policy defaults to Retain; an edit sets Delete")
    void persistentVolume() {
        var s = roundTrip(client.persistentVolumes(), new PersistentVolumeBuilder().withNewMetadata().withName("pv1")
                .endMetadata().withNewSpec().addToCapacity("storage", new Quantity("5Gi"))
                .withAccessModes("ReadWriteOnce", "ReadOnlyMany").withNewHostPath().withPath("/data/pv1").endHostPath()
                .endSpec().build(),
                v -> new PersistentVolumeBuilder(v).editSpec().withPersistentVolumeReclaimPolicy("Delete").endSpec()
                        .build());
        assertEquals("Retain", s.created().getSpec().getPersistentVolumeReclaimPolicy());
        assertEquals(List.of("ReadWriteOnce", "ReadOnlyMany"), s.created().getSpec().getAccessModes());
        assertEquals(new Quantity("5Gi"), s.created().getSpec().getCapacity().get("storage"));
        assertEquals("Delete", s.edited().getSpec().getPersistentVolumeReclaimPolicy());
    }

    @Test
    @DisplayName("StorageClass: reclaim policy and binding mode default; an edit allows expansion")
    void storageClass() {
        var s = roundTrip(client.storage().v1().storageClasses(), new StorageClassBuilder().withNewMetadata()
                .withName("fast").endMetadata().withProvisioner("example.com/fast").build(),
                c -> new StorageClassBuilder(c).withAllowVolumeExpansion(true).build());
        assertEquals("example.com/fast", s.created().getProvisioner());
        assertEquals("Delete", s.created().getReclaimPolicy());
        assertEquals("Immediate", s.created().getVolumeBindingMode());
        assertEquals(true, s.edited().getAllowVolumeExpansion());
    }

    @Test
    @DisplayName("PriorityClass: value and the default preemption policy; an edit changes the description")
    void priorityClass() {
        var s = roundTrip(client.scheduling().v1().priorityClasses(), new PriorityClassBuilder().withNewMetadata()
                .withName("high").endMetadata().withValue(1_000_000).withDescription("for XYZ").build(),
                p -> new PriorityClassBuilder(p).withDescription("for ABC").build());
        assertEquals(1_000_000, s.created().getValue());
        assertEquals("PreemptLowerPriority", s.created().getPreemptionPolicy());
        assertEquals("for ABC", s.edited().getDescription());
    }

    @Test
    @DisplayName("ResourceQuota: hard limits round-trip; an edit raises the pod count")
    void resourceQuota() {
        var s = roundTrip(client.resourceQuotas().inNamespace(NS), new ResourceQuotaBuilder().withNewMetadata()
                .withName("compute").endMetadata().withNewSpec().addToHard("pods", new Quantity("10"))
                .addToHard("requests.cpu", new Quantity("1")).endSpec().build(),
                q -> new ResourceQuotaBuilder(q).editSpec().addToHard("pods", new Quantity("20")).endSpec().build());
        assertEquals(new Quantity("10"), s.created().getSpec().getHard().get("pods"));
        assertEquals(new Quantity("20"), s.edited().getSpec().getHard().get("pods"));
        assertEquals(new Quantity("1"), s.edited().getSpec().getHard().get("requests.cpu"));
    }

    @Test
    @DisplayName("LimitRange: a container max defaults the default limit and request; an edit adds a min")
    void limitRange() {
        var s = roundTrip(client.limitRanges().inNamespace(NS), new LimitRangeBuilder().withNewMetadata()
                .withName("cpu-limits").endMetadata().withNewSpec().addNewLimit().withType("Container")
                .addToMax("cpu", new Quantity("1")).endLimit().endSpec().build(),
                r -> new LimitRangeBuilder(r).editSpec().editFirstLimit().addToMin("cpu", new Quantity("100m"))
                        .endLimit().endSpec().build());
        var limit = s.created().getSpec().getLimits().get(0);
        assertEquals(new Quantity("1"), limit.getDefault().get("cpu"));
        assertEquals(new Quantity("1"), limit.getDefaultRequest().get("cpu"));
        assertEquals(new Quantity("100m"), s.edited().getSpec().getLimits().get(0).getMin().get("cpu"));
    }

    @Test
    @DisplayName("Endpoints: subsets round-trip; an edit adds an address")
    void endpoints() {
        var s = roundTrip(client.endpoints().inNamespace(NS), new EndpointsBuilder().withNewMetadata()
                .withName("manual").endMetadata().addNewSubset().addNewAddress().withIp("10.244.1.5").endAddress()
                .addNewPort().withPort(8080).endPort().endSubset().build(),
                e -> new EndpointsBuilder(e).editFirstSubset().addNewAddress().withIp("10.244.2.6").endAddress()
                        .endSubset().build());
        assertEquals("10.244.1.5", s.created().getSubsets().get(0).getAddresses().get(0).getIp());
        assertEquals("TCP", s.created().getSubsets().get(0).getPorts().get(0).getProtocol());
        assertEquals(List.of("10.244.1.5", "10.244.2.6"), s.edited().getSubsets().get(0).getAddresses().stream()
                .map(a -> a.getIp()).toList());
    }

    @Test
    @DisplayName("EndpointSlice: address type, endpoints and ports round-trip; an edit replaces the address")
    void endpointSlice() {
        var s = roundTrip(client.discovery().v1().endpointSlices().inNamespace(NS), new EndpointSliceBuilder()
                .withNewMetadata().withName("manual-abc").endMetadata().withAddressType("IPv4").addNewEndpoint()
                .withAddresses("10.1.2.3").withNewConditions().withReady(true).endConditions().endEndpoint()
                .addNewPort().withName("http").withPort(80).endPort().build(),
                e -> new EndpointSliceBuilder(e).editFirstEndpoint().withAddresses("10.1.2.4").endEndpoint().build());
        assertEquals("IPv4", s.created().getAddressType());
        assertEquals(List.of("10.1.2.3"), s.created().getEndpoints().get(0).getAddresses());
        assertEquals(true, s.created().getEndpoints().get(0).getConditions().getReady());
        assertEquals("http", s.created().getPorts().get(0).getName());
        assertEquals(List.of("10.1.2.4"), s.edited().getEndpoints().get(0).getAddresses());
    }
}
