package io.eventplane.gateway.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.eventplane.client.ObjectStore;
import io.eventplane.client.admission.AdmissionRequest;
import io.eventplane.client.admission.ResourceQuotaAdmission;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.ResourceQuota;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The admission plugins on a view in memory: what each admits, changes and refuses, with Kubernetes' messages. */
class AdmissionTest {
    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private final ObjectStore view = new ObjectStore();
    private final List<ResourceQuota> reservations = new ArrayList<>();
    /** Conflicts the fake writer answers before it accepts a reservation. */
    private int conflicts;
    private final Admission admission = new Admission(view, Clock.fixed(NOW, ZoneOffset.UTC), q -> {
        if (conflicts > 0) {
            conflicts--;
            return false;
        }
        reservations.add(q);
        put(q);
        return true;
    }, Duration.ZERO);
    private long rv = 100;

    static <T extends SpecificRecord> T parse(Class<T> type, String yaml) {
        try {
            byte[] json = new ObjectMapper().writeValueAsBytes(new YAMLMapper().readTree(yaml));
            return KubeJson.get().parseObject(json, type, FieldValidation.STRICT, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stores an object as the writer would have it (its own resourceVersion). */
    private SpecificRecord put(SpecificRecord object) {
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
        return stored;
    }

    private void namespace(String name, boolean terminating) {
        put(parse(io.eventplane.model.Namespace.class, "{apiVersion: v1, kind: Namespace, metadata: {name: " + name
                + (terminating ? ", deletionTimestamp: '2026-11-21T09:00:00Z'" : "") + "}, status: {phase: "
                + (terminating ? "Terminating" : "Active") + "}}"));
        put(parse(io.eventplane.model.ServiceAccount.class, "{apiVersion: v1, kind: ServiceAccount, metadata: "
                + "{name: default, namespace: " + name + "}}"));
    }

    private static Pod pod(String name, String specExtra, String resources) {
        return parse(Pod.class, "{apiVersion: v1, kind: Pod, metadata: {name: " + name + ", namespace: shop}, spec: {"
                + (specExtra == null ? "" : specExtra + ", ") + "containers: [{name: web, image: nginx"
                + (resources == null ? "" : ", resources: " + resources) + "}]}}");
    }

    private SpecificRecord create(SpecificRecord object) {
        KindInfo kind = Kinds.of(object);
        ObjectMeta meta = ObjectAccess.meta(object);
        return admission.create(new AdmissionRequest(AdmissionRequest.Operation.CREATE, kind,
                kind.namespaced() ? meta.getNamespace() : "", meta.getName(), null, false), object, o -> { });
    }

    private String refusal(SpecificRecord object) {
        ApiException e = assertThrows(ApiException.class, () -> create(object));
        assertEquals(403, e.status().code(), e.status().message());
        return e.status().message();
    }

    @Test
    @DisplayName("NamespaceLifecycle: no create in a namespace that is missing (404) or terminating (403 with its cause); some never deleted")
    void lifecycle() {
        ApiException missing = assertThrows(ApiException.class, () -> create(pod("p", null, null)));
        assertEquals(404, missing.status().code());
        assertEquals("namespaces \"shop\" not found", missing.status().message());
        namespace("shop", true);
        assertEquals("pods \"p\" is forbidden: unable to create new content in namespace shop because it is being "
                + "terminated", refusal(pod("p", null, null)));
        ApiException e = assertThrows(ApiException.class, () -> create(pod("p", null, null)));
        assertEquals("NamespaceTerminating", e.status().details().causes().get(0).reason());
        ApiException immortal = assertThrows(ApiException.class, () -> admission.delete(new AdmissionRequest(
                AdmissionRequest.Operation.DELETE, Kinds.NAMESPACE, "", "kube-system", null, false)));
        assertEquals("namespaces \"kube-system\" is forbidden: this namespace may not be deleted",
                immortal.status().message());
        admission.delete(new AdmissionRequest(AdmissionRequest.Operation.DELETE, Kinds.NAMESPACE, "", "kube-node-lease", null,
                false));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "limit above max | {limits: {cpu: '2'}} | maximum cpu usage per Container is 1, but limit is 2",
            "request below min | {requests: {memory: 1Mi}} | minimum memory usage per Container is 10Mi, but request is 1Mi",
            "ratio | {requests: {cpu: 50m}, limits: {cpu: '1'}} | cpu max limit to request ratio per Container is 10, but provided ratio is 20.000000"})
    @DisplayName("LimitRanger: a container outside its namespace's limits is refused with Kubernetes' message")
    void containerLimits(String what, String resources, String message) {
        namespace("shop", false);
        put(parse(io.eventplane.model.LimitRange.class, "{apiVersion: v1, kind: LimitRange, metadata: {name: l, "
                + "namespace: shop}, spec: {limits: [{type: Container, max: {cpu: '1'}, min: {memory: 10Mi}, "
                + "default: {cpu: 500m, memory: 256Mi}, defaultRequest: {cpu: 100m, memory: 64Mi}, "
                + "maxLimitRequestRatio: {cpu: '10'}}]}}"));
        assertEquals("pods \"p\" is forbidden: " + message, refusal(pod("p", null, resources)));
    }

    @Test
    @DisplayName("LimitRanger: Pod items hold the pod's totals; several errors are listed as Kubernetes aggregates them")
    void podLimits() {
        namespace("shop", false);
        put(parse(io.eventplane.model.LimitRange.class, "{apiVersion: v1, kind: LimitRange, metadata: {name: l, "
                + "namespace: shop}, spec: {limits: [{type: Pod, max: {cpu: '1'}, min: {memory: 1Gi}}]}}"));
        Pod two = parse(Pod.class, "{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: shop}, spec: {"
                + "containers: [{name: a, image: x, resources: {limits: {cpu: 600m, memory: 512Mi}}}, "
                + "{name: b, image: x, resources: {limits: {cpu: 600m}}}]}}");
        assertEquals("pods \"p\" is forbidden: [minimum memory usage per Pod is 1Gi, but request is 512Mi, maximum "
                + "cpu usage per Pod is 1, but limit is 1200m]", refusal(two));
    }

    @Test
    @DisplayName("LimitRanger: a claim's storage request within min and max")
    void claimLimits() {
        namespace("shop", false);
        put(parse(io.eventplane.model.LimitRange.class, "{apiVersion: v1, kind: LimitRange, metadata: {name: l, "
                + "namespace: shop}, spec: {limits: [{type: PersistentVolumeClaim, min: {storage: 1Gi}, max: {storage: 10Gi}}]}}"));
        PersistentVolumeClaim big = parse(PersistentVolumeClaim.class, "{apiVersion: v1, kind: PersistentVolumeClaim, "
                + "metadata: {name: data, namespace: shop}, spec: {accessModes: [ReadWriteOnce], resources: {requests: "
                + "{storage: 20Gi}}}}");
        assertEquals("persistentvolumeclaims \"data\" is forbidden: maximum storage usage per PersistentVolumeClaim is "
                + "10Gi, but request is 20Gi", refusal(big));
    }

    @Test
    @DisplayName("ServiceAccount and Priority: defaults and lookups on a new pod")
    void serviceAccountAndPriority() {
        namespace("shop", false);
        Pod admitted = (Pod) create(pod("p", null, null));
        assertEquals("default", admitted.getSpec().getServiceAccountName());
        assertEquals(0, admitted.getSpec().getPriority());
        assertEquals("pods \"p\" is forbidden: error looking up service account shop/robot: serviceaccount \"robot\" "
                + "not found", refusal(pod("p", "serviceAccountName: robot", null)));
        assertEquals("pods \"p\" is forbidden: no PriorityClass with name gold was found",
                refusal(pod("p", "priorityClassName: gold", null)));
        put(parse(io.eventplane.model.PriorityClass.class, "{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, "
                + "metadata: {name: gold}, value: 100, preemptionPolicy: PreemptLowerPriority, globalDefault: true}"));
        Pod gold = (Pod) create(pod("p", null, null));
        assertEquals("gold", gold.getSpec().getPriorityClassName());
        assertEquals(100, gold.getSpec().getPriority());
        assertEquals("priorityclasses.scheduling.k8s.io \"silver\" is forbidden: PriorityClass gold is marked as "
                + "default. Only one default can exist", refusal(parse(io.eventplane.model.PriorityClass.class,
                "{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: silver}, value: 50, "
                        + "globalDefault: true}")));
    }

    private static io.eventplane.model.networking.Ingress ingress(String specExtra, String annotations) {
        return parse(io.eventplane.model.networking.Ingress.class, "{apiVersion: networking.k8s.io/v1, kind: Ingress, "
                + "metadata: {name: web, namespace: shop" + (annotations == null ? "" : ", annotations: " + annotations)
                + "}, spec: {" + (specExtra == null ? "" : specExtra + ", ") + "defaultBackend: {service: {name: web, "
                + "port: {number: 80}}}}}");
    }

    private void ingressClass(String name, String created, boolean isDefault) {
        put(parse(io.eventplane.model.networking.IngressClass.class, "{apiVersion: networking.k8s.io/v1, kind: "
                + "IngressClass, metadata: {name: " + name + ", creationTimestamp: '" + created + "'"
                + (isDefault ? ", annotations: {ingressclass.kubernetes.io/is-default-class: 'true'}" : "")
                + "}, spec: {controller: example.com/" + name + "}}"));
    }

    private String ingressClassOf(io.eventplane.model.networking.Ingress ingress) {
        return ((io.eventplane.model.networking.Ingress) create(ingress)).getSpec().getIngressClassName();
    }

    @Test
    @DisplayName("DefaultIngressClass: a new Ingress naming no class gets the default one, the newest of several; a named "
            + "class or the ingress.class annotation is kept; none without a default")
    void defaultIngressClass() {
        namespace("shop", false);
        ingressClass("plain", "2026-11-21T08:00:00Z", false);
        assertEquals(null, ingressClassOf(ingress(null, null)));
        ingressClass("old", "2026-11-21T08:00:00Z", true);
        assertEquals("old", ingressClassOf(ingress(null, null)));
        ingressClass("new", "2026-11-21T09:00:00Z", true);
        ingressClass("also-new", "2026-11-21T09:00:00Z", true);
        assertEquals("also-new", ingressClassOf(ingress(null, null)));
        assertEquals("plain", ingressClassOf(ingress("ingressClassName: plain", null)));
        assertEquals(null, ingressClassOf(ingress(null, "{kubernetes.io/ingress.class: nginx}")));
    }

    private static io.eventplane.model.PriorityClass priorityClass(String name, int value, String extra) {
        return parse(io.eventplane.model.PriorityClass.class, "{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, "
                + "metadata: {name: " + name + "}, value: " + value + (extra == null ? "" : ", " + extra) + "}");
    }

    private SpecificRecord update(SpecificRecord old, SpecificRecord object) {
        KindInfo kind = Kinds.of(object);
        return admission.update(new AdmissionRequest(AdmissionRequest.Operation.UPDATE, kind, "",
                ObjectAccess.meta(object).getName(), old, false), object);
    }

    @Test
    @DisplayName("Priority: one global default class (kept by its own updates, refused to a second by update), whose value and preemptionPolicy a pod without a class gets; the lowest of two raced defaults wins")
    void globalDefaultPriorityClass() {
        namespace("shop", false);
        SpecificRecord gold = put(priorityClass("gold", 100, "preemptionPolicy: Never, globalDefault: true"));
        SpecificRecord silver = put(priorityClass("silver", 50, "preemptionPolicy: PreemptLowerPriority"));
        update(gold, priorityClass("gold", 100, "preemptionPolicy: Never, globalDefault: true, description: kept"));
        SpecificRecord silverDefault = priorityClass("silver", 50,
                "preemptionPolicy: PreemptLowerPriority, globalDefault: true");
        ApiException second = assertThrows(ApiException.class, () -> update(silver, silverDefault));
        assertEquals("priorityclasses.scheduling.k8s.io \"silver\" is forbidden: PriorityClass gold is marked as "
                + "default. Only one default can exist", second.status().message());

        Pod plain = (Pod) create(pod("p", null, null));
        assertEquals("gold", plain.getSpec().getPriorityClassName());
        assertEquals(100, plain.getSpec().getPriority());
        assertEquals("Never", plain.getSpec().getPreemptionPolicy());
        Pod named = (Pod) create(pod("q", "priorityClassName: silver", null));
        assertEquals(50, named.getSpec().getPriority());
        assertEquals("PreemptLowerPriority", named.getSpec().getPreemptionPolicy());

        put(silverDefault); // two gateways raced: Kubernetes takes the lowest value
        Pod raced = (Pod) create(pod("r", null, null));
        assertEquals("silver", raced.getSpec().getPriorityClassName());
        assertEquals(50, raced.getSpec().getPriority());
    }

    private void quota(String spec, String status) {
        put(parse(ResourceQuota.class, "{apiVersion: v1, kind: ResourceQuota, metadata: {name: q, namespace: shop}, "
                + "spec: " + spec + ", status: " + status + "}"));
    }

    @Test
    @DisplayName("ResourceQuota: exceeded, must specify, status unknown; what fits is reserved in the quota's status")
    void quotas() {
        namespace("shop", false);
        quota("{hard: {pods: '2', requests.cpu: '1'}}", "{hard: {pods: '2', requests.cpu: '1'}, used: {pods: '1', requests.cpu: 900m}}");
        assertEquals("pods \"p\" is forbidden: failed quota: q: must specify requests.cpu for: web",
                refusal(pod("p", null, null)));
        assertEquals("pods \"p\" is forbidden: exceeded quota: q, requested: requests.cpu=200m, used: requests.cpu=900m, "
                + "limited: requests.cpu=1", refusal(pod("p", null, "{requests: {cpu: 200m}}")));
        assertTrue(reservations.isEmpty());
        create(pod("p", null, "{requests: {cpu: 100m}}"));
        assertEquals(1, reservations.size());
        assertEquals(java.util.Map.of("pods", "2", "requests.cpu", "1"), reservations.get(0).getStatus().getUsed());
        assertEquals("pods \"p2\" is forbidden: exceeded quota: q, requested: pods=1,requests.cpu=100m, used: "
                + "pods=2,requests.cpu=1, limited: pods=2,requests.cpu=1", refusal(pod("p2", null, "{requests: {cpu: 100m}}")));

        quota("{hard: {pods: '5'}}", "{}");
        create(pod("p3", null, null)); // a quota the controller has not measured yet covers nothing
        quota("{hard: {pods: '5'}}", "{hard: {pods: '5'}}");
        assertEquals("pods \"p4\" is forbidden: status unknown for quota: q, resources: pods", refusal(pod("p4", null, null)));
    }

    @Test
    @DisplayName("ResourceQuota: a reservation that conflicts is decided again on the newer quota; a dry run reserves nothing")
    void conflictsAndDryRun() {
        namespace("shop", false);
        quota("{hard: {pods: '2'}}", "{hard: {pods: '2'}, used: {pods: '0'}}");
        conflicts = 2;
        create(pod("p", null, null));
        assertEquals(1, reservations.size(), "reserved once, after two conflicts");
        admission.create(new AdmissionRequest(AdmissionRequest.Operation.CREATE, Kinds.POD, "shop", "dry", null, true),
                pod("dry", null, null), o -> { });
        assertEquals(1, reservations.size());
        conflicts = ResourceQuotaAdmission.RETRIES + 1;
        ApiException e = assertThrows(ApiException.class, () -> create(pod("unlucky", null, null)));
        assertEquals(409, e.status().code());
        assertFalse(e.status().message().isEmpty());
    }
}
