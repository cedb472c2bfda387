package io.eventplane.client.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.ResourceQuota;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The shared chain as controllers run it: refusals as values with kube-apiserver's messages, no wire types. */
class AdmissionChainTest {
    private static final Instant NOW = Instant.parse("2026-11-26T10:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private final ObjectStore view = new ObjectStore();
    private final List<ResourceQuota> reservations = new ArrayList<>();
    private final AdmissionChain controllers = AdmissionChain.forControllers(view, CLOCK, q -> {
        reservations.add(q);
        put(q);
        return true;
    });
    private long rv = 10;

    private static <T extends SpecificRecord> T parse(Class<T> type, String json) {
        return KubeJson.get().parseObject(json.getBytes(StandardCharsets.UTF_8), type, FieldValidation.STRICT, null);
    }

    private void put(SpecificRecord object) {
        KindInfo kind = Kinds.of(object);
        ObjectMeta meta = ObjectAccess.meta(object);
        long version = ++rv;
        SpecificRecord stored = ObjectAccess.withMeta(object, ObjectMeta.newBuilder(meta)
                .setResourceVersion(String.valueOf(version)).setUid(meta.getName() + "-uid").build());
        view.apply(ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("test").setRequestId("r" + version).setTime(NOW).build())
                .setType(ChangeType.CREATED).setKind(kind.kind()).setNamespace(kind.namespaced() ? meta.getNamespace() : "")
                .setName(meta.getName()).setUid(meta.getName() + "-uid").setResourceVersion(version).setObject(stored)
                .build());
    }

    /** A ReplicaSet's pod: a drawn name and its generateName, as the controllers here send it. */
    private static Pod pod(String name, String specExtra) {
        return parse(Pod.class, "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web-5d8f-" + name
                + "\",\"generateName\":\"web-5d8f-\",\"namespace\":\"shop\"},\"spec\":{" + (specExtra == null ? ""
                : specExtra + ",") + "\"containers\":[{\"name\":\"web\",\"image\":\"nginx\"}]}}");
    }

    private AdmissionResult create(AdmissionChain chain, Pod pod) {
        return chain.create(AdmissionRequest.create(pod), pod, o -> { });
    }

    @Test
    @DisplayName("issue 16: a controller's pod gets LimitRange defaults and is charged to quota; the next one beyond it "
            + "is refused with kube-apiserver's message, shown under its generateName")
    void limitRangeAndQuota() {
        put(parse(io.eventplane.model.LimitRange.class, "{\"apiVersion\":\"v1\",\"kind\":\"LimitRange\",\"metadata\":{"
                + "\"name\":\"l\",\"namespace\":\"shop\"},\"spec\":{\"limits\":[{\"type\":\"Container\",\"default\":{"
                + "\"cpu\":\"500m\"},\"defaultRequest\":{\"cpu\":\"100m\"}}]}}"));
        put(parse(ResourceQuota.class, "{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"q\","
                + "\"namespace\":\"shop\"},\"spec\":{\"hard\":{\"pods\":\"1\"}},\"status\":{\"hard\":{\"pods\":\"1\"},"
                + "\"used\":{\"pods\":\"0\"}}}"));
        AdmissionResult first = create(controllers, pod("a", null));
        assertFalse(first.isRefused());
        Pod admitted = (Pod) first.object();
        assertEquals(Map.of("cpu", "100m"), admitted.getSpec().getContainers().get(0).getResources().getRequests());
        assertEquals(Map.of("cpu", "500m"), admitted.getSpec().getContainers().get(0).getResources().getLimits());
        assertEquals("LimitRanger plugin set: cpu request for container web; cpu limit for container web",
                admitted.getMetadata().getAnnotations().get("kubernetes.io/limit-ranger"));
        assertEquals(Map.of("pods", "1"), reservations.get(0).getStatus().getUsed());

        AdmissionResult second = create(controllers, pod("b", null));
        assertTrue(second.isRefused());
        assertEquals(403, second.refusal().code());
        assertEquals("Forbidden", second.refusal().reason());
        assertEquals("pods \"web-5d8f-\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1",
                second.refusal().message());
        assertEquals(1, reservations.size());
    }

    @Test
    @DisplayName("issue 16: controllers' pods need no default ServiceAccount (the API's do), a named one must exist; "
            + "priority comes from the PriorityClass")
    void serviceAccountAndPriority() {
        assertFalse(create(controllers, pod("a", null)).isRefused());
        put(parse(io.eventplane.model.Namespace.class, "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{"
                + "\"name\":\"shop\"}}"));
        AdmissionChain api = AdmissionChain.forApi(view, CLOCK, q -> true, Duration.ZERO);
        assertEquals("error looking up service account shop/default: serviceaccount \"default\" not found",
                create(api, pod("a", null)).refusal().why());
        assertEquals("pods \"web-5d8f-\" is forbidden: error looking up service account shop/robot: serviceaccount "
                + "\"robot\" not found", create(controllers, pod("a", "\"serviceAccountName\":\"robot\"")).refusal().message());
        put(parse(io.eventplane.model.PriorityClass.class, "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":"
                + "\"PriorityClass\",\"metadata\":{\"name\":\"gold\"},\"value\":1000}"));
        Pod gold = (Pod) create(controllers, pod("a", "\"priorityClassName\":\"gold\"")).object();
        assertEquals(1000, gold.getSpec().getPriority());
    }

    @Test
    @DisplayName("the writer's dry run runs first where a quota reserves, before a plugin's refusal elsewhere (its "
            + "refusal comes first, as Kubernetes validates before validating admission), and not at all otherwise")
    void writerCheckOnlyWhereItDecidesSomething() {
        List<String> checked = new ArrayList<>();
        java.util.function.Consumer<SpecificRecord> writer = o -> checked.add(ObjectAccess.meta(o).getName());
        assertFalse(controllers.create(AdmissionRequest.create(pod("a", null)), pod("a", null), writer).isRefused());
        assertEquals(List.of(), checked, "no quota, no refusal: the writer decides once, on send");

        java.util.function.Consumer<SpecificRecord> refusing = o -> {
            throw new IllegalStateException("the writer refuses " + ObjectAccess.meta(o).getName());
        };
        put(parse(io.eventplane.model.LimitRange.class, "{\"apiVersion\":\"v1\",\"kind\":\"LimitRange\",\"metadata\":{"
                + "\"name\":\"l\",\"namespace\":\"shop\"},\"spec\":{\"limits\":[{\"type\":\"Container\",\"max\":{"
                + "\"cpu\":\"1\"}}]}}"));
        Pod tooBig = pod("b", null);
        tooBig.getSpec().getContainers().get(0).setResources(io.eventplane.model.ResourceRequirements.newBuilder()
                .setLimits(Map.of("cpu", "2")).build());
        IllegalStateException writerFirst = assertThrows(IllegalStateException.class,
                () -> controllers.create(AdmissionRequest.create(tooBig), tooBig, refusing));
        assertEquals("the writer refuses web-5d8f-b", writerFirst.getMessage());
        assertTrue(controllers.create(AdmissionRequest.create(tooBig), tooBig, writer).isRefused());
        assertEquals(List.of("web-5d8f-b"), checked, "a plugin's refusal: the writer's check ran before it stood");

        put(parse(ResourceQuota.class, "{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"q\","
                + "\"namespace\":\"shop\"},\"spec\":{\"hard\":{\"pods\":\"5\"}},\"status\":{\"hard\":{\"pods\":\"5\"},"
                + "\"used\":{\"pods\":\"0\"}}}"));
        assertThrows(IllegalStateException.class,
                () -> controllers.create(AdmissionRequest.create(pod("c", null)), pod("c", null), refusing));
        assertEquals(0, reservations.size(), "nothing reserved for a pod the writer refuses");
        Pod fits = pod("d", null);
        fits.getSpec().getContainers().get(0).setResources(io.eventplane.model.ResourceRequirements.newBuilder()
                .setLimits(Map.of("cpu", "500m")).build());
        assertFalse(controllers.create(AdmissionRequest.create(fits), fits, writer).isRefused());
        assertEquals(List.of("web-5d8f-b", "web-5d8f-d"), checked);
        assertEquals(1, reservations.size());
    }

    @Test
    @DisplayName("a refusal's message is kube-apiserver's for its code")
    void refusalMessages() {
        assertEquals("deployments.apps \"web\" is forbidden: because",
                AdmissionRefusal.forbidden(Kinds.DEPLOYMENT, "web", "because").message());
        assertEquals("namespaces \"shop\" not found", AdmissionRefusal.namespaceNotFound("shop").message());
        assertEquals("Operation cannot be fulfilled on resourcequotas \"q\": changed",
                AdmissionRefusal.conflict(Kinds.RESOURCE_QUOTA, "q", "changed").message());
    }

    @Test
    @DisplayName("issue 23: a controller's pod gets the projected token volume where the cluster CA is published "
            + "(kube-root-ca.crt: a cluster that signs ServiceAccount tokens), not elsewhere")
    void tokenVolumeWhereTheClusterCaIsPublished() {
        put(parse(io.eventplane.model.ServiceAccount.class, "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\","
                + "\"metadata\":{\"name\":\"default\",\"namespace\":\"shop\"}}"));
        Pod without = (Pod) create(controllers, pod("a", null)).object();
        assertEquals(null, without.getSpec().getVolumes(), "no CA published: no token volume");

        put(parse(io.eventplane.model.ConfigMap.class, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{"
                + "\"name\":\"kube-root-ca.crt\",\"namespace\":\"shop\"},\"data\":{\"ca.crt\":\"pem\"}}"));
        Pod with = (Pod) create(controllers, pod("b", null)).object();
        assertEquals(1, with.getSpec().getVolumes().size());
        assertTrue(with.getSpec().getVolumes().get(0).getName().startsWith("kube-api-access-"));
        assertEquals("/var/run/secrets/kubernetes.io/serviceaccount",
                with.getSpec().getContainers().get(0).getVolumeMounts().get(0).getMountPath());
        Pod optedOut = (Pod) create(controllers, pod("c", "\"automountServiceAccountToken\":false")).object();
        assertEquals(null, optedOut.getSpec().getVolumes(), "the pod opts out");
    }
}
