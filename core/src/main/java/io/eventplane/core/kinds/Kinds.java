package io.eventplane.core.kinds;

import io.eventplane.model.ConfigMap;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.CronJob;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.Deployment;
import io.eventplane.model.Endpoints;
import io.eventplane.model.Event;
import io.eventplane.model.HorizontalPodAutoscaler;
import io.eventplane.model.Job;
import io.eventplane.model.Lease;
import io.eventplane.model.LimitRange;
import io.eventplane.model.Namespace;
import io.eventplane.model.Node;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.PriorityClass;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.ResourceQuota;
import io.eventplane.model.Secret;
import io.eventplane.model.Service;
import io.eventplane.model.ServiceAccount;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StorageClass;
import io.eventplane.model.allocation.NodePortAllocation;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.model.discovery.EndpointSlice;
import io.eventplane.model.networking.IPAddress;
import io.eventplane.model.networking.Ingress;
import io.eventplane.model.networking.IngressClass;
import io.eventplane.model.networking.NetworkPolicy;
import io.eventplane.model.networking.ServiceCIDR;
import io.eventplane.model.rbac.ClusterRole;
import io.eventplane.model.rbac.ClusterRoleBinding;
import io.eventplane.model.rbac.Role;
import io.eventplane.model.rbac.RoleBinding;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/** The registry of every kind the control plane stores. Adding a kind: its schema, a union branch in log.avdl, a line here. */
public final class Kinds {
    public static final KindInfo POD = new KindInfo("Pod", "", "v1", "pods", "pod", List.of("po"), true, true, Pod.class);
    public static final KindInfo NODE = new KindInfo("Node", "", "v1", "nodes", "node", List.of("no"), false, true, Node.class);
    public static final KindInfo NAMESPACE = new KindInfo("Namespace", "", "v1", "namespaces", "namespace", List.of("ns"), false, true, Namespace.class);
    public static final KindInfo EVENT = new KindInfo("Event", "", "v1", "events", "event", List.of("ev"), true, false, Event.class);
    public static final KindInfo LEASE = new KindInfo("Lease", "coordination.k8s.io", "v1", "leases", "lease", List.of(), true, false, Lease.class);
    public static final KindInfo DEPLOYMENT = new KindInfo("Deployment", "apps", "v1", "deployments", "deployment", List.of("deploy"), true, true, Deployment.class);
    public static final KindInfo REPLICA_SET = new KindInfo("ReplicaSet", "apps", "v1", "replicasets", "replicaset", List.of("rs"), true, true, ReplicaSet.class);
    public static final KindInfo STATEFUL_SET = new KindInfo("StatefulSet", "apps", "v1", "statefulsets", "statefulset", List.of("sts"), true, true, StatefulSet.class);
    public static final KindInfo DAEMON_SET = new KindInfo("DaemonSet", "apps", "v1", "daemonsets", "daemonset", List.of("ds"), true, true, DaemonSet.class);
    public static final KindInfo CONTROLLER_REVISION = new KindInfo("ControllerRevision", "apps", "v1", "controllerrevisions", "controllerrevision", List.of(), true, false, ControllerRevision.class);
    public static final KindInfo JOB = new KindInfo("Job", "batch", "v1", "jobs", "job", List.of(), true, true, Job.class);
    public static final KindInfo CRON_JOB = new KindInfo("CronJob", "batch", "v1", "cronjobs", "cronjob", List.of("cj"), true, true, CronJob.class);
    public static final KindInfo REPLICATION_CONTROLLER = new KindInfo("ReplicationController", "", "v1", "replicationcontrollers", "replicationcontroller", List.of("rc"), true, true, ReplicationController.class);
    public static final KindInfo POD_DISRUPTION_BUDGET = new KindInfo("PodDisruptionBudget", "policy", "v1", "poddisruptionbudgets", "poddisruptionbudget", List.of("pdb"), true, true, PodDisruptionBudget.class);
    public static final KindInfo CONFIG_MAP = new KindInfo("ConfigMap", "", "v1", "configmaps", "configmap", List.of("cm"), true, false, ConfigMap.class);
    public static final KindInfo SECRET = new KindInfo("Secret", "", "v1", "secrets", "secret", List.of(), true, false, Secret.class);
    public static final KindInfo SERVICE_ACCOUNT = new KindInfo("ServiceAccount", "", "v1", "serviceaccounts", "serviceaccount", List.of("sa"), true, false, ServiceAccount.class);
    public static final KindInfo SERVICE = new KindInfo("Service", "", "v1", "services", "service", List.of("svc"), true, true, Service.class);
    public static final KindInfo ENDPOINTS = new KindInfo("Endpoints", "", "v1", "endpoints", "endpoints", List.of("ep"), true, false, Endpoints.class);
    public static final KindInfo ENDPOINT_SLICE = new KindInfo("EndpointSlice", "discovery.k8s.io", "v1", "endpointslices", "endpointslice", List.of(), true, false, EndpointSlice.class);
    public static final KindInfo PERSISTENT_VOLUME_CLAIM = new KindInfo("PersistentVolumeClaim", "", "v1", "persistentvolumeclaims", "persistentvolumeclaim", List.of("pvc"), true, true, PersistentVolumeClaim.class);
    public static final KindInfo PERSISTENT_VOLUME = new KindInfo("PersistentVolume", "", "v1", "persistentvolumes", "persistentvolume", List.of("pv"), false, true, PersistentVolume.class);
    public static final KindInfo STORAGE_CLASS = new KindInfo("StorageClass", "storage.k8s.io", "v1", "storageclasses", "storageclass", List.of("sc"), false, false, StorageClass.class);
    public static final KindInfo PRIORITY_CLASS = new KindInfo("PriorityClass", "scheduling.k8s.io", "v1", "priorityclasses", "priorityclass", List.of("pc"), false, false, PriorityClass.class);
    public static final KindInfo RESOURCE_QUOTA = new KindInfo("ResourceQuota", "", "v1", "resourcequotas", "resourcequota", List.of("quota"), true, true, ResourceQuota.class);
    public static final KindInfo LIMIT_RANGE = new KindInfo("LimitRange", "", "v1", "limitranges", "limitrange", List.of("limits"), true, false, LimitRange.class);
    public static final KindInfo HORIZONTAL_POD_AUTOSCALER = new KindInfo("HorizontalPodAutoscaler", "autoscaling", "v2", "horizontalpodautoscalers", "horizontalpodautoscaler", List.of("hpa"), true, true, HorizontalPodAutoscaler.class);
    public static final KindInfo IP_ADDRESS = new KindInfo("IPAddress", "networking.k8s.io", "v1", "ipaddresses", "ipaddress", List.of("ip"), false, false, IPAddress.class);
    public static final KindInfo SERVICE_CIDR = new KindInfo("ServiceCIDR", "networking.k8s.io", "v1", "servicecidrs", "servicecidr", List.of(), false, true, ServiceCIDR.class);
    public static final KindInfo ROLE = new KindInfo("Role", "rbac.authorization.k8s.io", "v1", "roles", "role", List.of(), true, false, Role.class);
    public static final KindInfo CLUSTER_ROLE = new KindInfo("ClusterRole", "rbac.authorization.k8s.io", "v1", "clusterroles", "clusterrole", List.of(), false, false, ClusterRole.class);
    public static final KindInfo ROLE_BINDING = new KindInfo("RoleBinding", "rbac.authorization.k8s.io", "v1", "rolebindings", "rolebinding", List.of(), true, false, RoleBinding.class);
    public static final KindInfo CLUSTER_ROLE_BINDING = new KindInfo("ClusterRoleBinding", "rbac.authorization.k8s.io", "v1", "clusterrolebindings", "clusterrolebinding", List.of(), false, false, ClusterRoleBinding.class);
    public static final KindInfo INGRESS = new KindInfo("Ingress", "networking.k8s.io", "v1", "ingresses", "ingress", List.of("ing"), true, true, Ingress.class);
    public static final KindInfo INGRESS_CLASS = new KindInfo("IngressClass", "networking.k8s.io", "v1", "ingressclasses", "ingressclass", List.of(), false, false, IngressClass.class);
    public static final KindInfo NETWORK_POLICY = new KindInfo("NetworkPolicy", "networking.k8s.io", "v1", "networkpolicies", "networkpolicy", List.of("netpol"), true, false, NetworkPolicy.class);
    public static final KindInfo CUSTOM_RESOURCE_DEFINITION = new KindInfo("CustomResourceDefinition",
            "apiextensions.k8s.io", "v1", "customresourcedefinitions", "customresourcedefinition", List.of("crd", "crds"),
            false, true, CustomResourceDefinition.class);
    public static final KindInfo CERTIFICATE_SIGNING_REQUEST = new KindInfo("CertificateSigningRequest",
            "certificates.k8s.io", "v1", "certificatesigningrequests", "certificatesigningrequest", List.of("csr"),
            false, true, CertificateSigningRequest.class);
    /**
     * A node port held by a Service: stored, never served (kube-apiserver keeps its node port RangeAllocation the same
     * way). It is in {@link #all()} only.
     */
    public static final KindInfo NODE_PORT_ALLOCATION = new KindInfo("NodePortAllocation", "internal.eventplane.io", "v1", "nodeportallocations", "nodeportallocation", List.of(), false, false, NodePortAllocation.class);

    /**
     * events.k8s.io/v1 Event: the same stored objects as core/v1 Event, served under a second group with the newer
     * field names. Not a stored kind of its own: it is in {@link #served()} only.
     */
    public static final KindInfo EVENTS_V1_EVENT = new KindInfo("Event", "events.k8s.io", "v1", "events", "event", List.of("ev"), true, false, Event.class);
    private static final Map<KindInfo, FieldRenames> ALIASES = Map.of(EVENTS_V1_EVENT, FieldRenames.of(
            "regarding", "involvedObject", "note", "message", "reportingController", "reportingComponent",
            "deprecatedSource", "source", "deprecatedFirstTimestamp", "firstTimestamp",
            "deprecatedLastTimestamp", "lastTimestamp", "deprecatedCount", "count"));

    /** autoscaling/v1 HorizontalPodAutoscaler: the stored autoscaling/v2 objects, converted (see {@link AutoscalingV1}). */
    public static final KindInfo AUTOSCALING_V1_HPA = new KindInfo("HorizontalPodAutoscaler", "autoscaling", "v1",
            "horizontalpodautoscalers", "horizontalpodautoscaler", List.of("hpa"), true, true, HorizontalPodAutoscaler.class);
    private static final Map<KindInfo, VersionConversion> CONVERSIONS = Map.of(AUTOSCALING_V1_HPA, new AutoscalingV1());

    private static final Map<String, KindInfo> BY_KIND = new LinkedHashMap<>();
    private static final Map<Class<?>, KindInfo> BY_TYPE = new LinkedHashMap<>();
    private static final List<KindInfo> SERVED;

    static {
        for (KindInfo k : List.of(POD, NODE, NAMESPACE, EVENT, LEASE, DEPLOYMENT, REPLICA_SET, STATEFUL_SET, DAEMON_SET,
                CONTROLLER_REVISION, JOB, CRON_JOB, REPLICATION_CONTROLLER, POD_DISRUPTION_BUDGET, CONFIG_MAP, SECRET,
                SERVICE_ACCOUNT, SERVICE, ENDPOINTS, ENDPOINT_SLICE, PERSISTENT_VOLUME_CLAIM, PERSISTENT_VOLUME,
                STORAGE_CLASS, PRIORITY_CLASS, RESOURCE_QUOTA, LIMIT_RANGE, HORIZONTAL_POD_AUTOSCALER, IP_ADDRESS,
                SERVICE_CIDR, NODE_PORT_ALLOCATION, ROLE, CLUSTER_ROLE, ROLE_BINDING, CLUSTER_ROLE_BINDING,
                INGRESS, INGRESS_CLASS, NETWORK_POLICY, CUSTOM_RESOURCE_DEFINITION, CERTIFICATE_SIGNING_REQUEST)) {
            BY_KIND.put(k.kind(), k);
            BY_TYPE.put(k.type(), k);
        }
        List<KindInfo> served = new java.util.ArrayList<>(BY_KIND.values());
        served.remove(NODE_PORT_ALLOCATION);
        served.add(EVENTS_V1_EVENT);
        served.add(AUTOSCALING_V1_HPA);
        SERVED = List.copyOf(served);
    }

    private Kinds() {
    }

    /** Every stored kind, once each. */
    public static Collection<KindInfo> all() {
        return BY_KIND.values();
    }

    /**
     * Every kind the API serves: the stored kinds but the internal ones, the aliases that serve a stored kind under
     * another group, and the other versions of a stored kind (after it: a group's first version is its preferred one).
     */
    public static List<KindInfo> served() {
        return SERVED;
    }

    /** For an alias of a stored kind, how its JSON differs from the stored kind's; empty for a stored kind itself. */
    public static Optional<FieldRenames> renames(KindInfo served) {
        return Optional.ofNullable(ALIASES.get(served));
    }

    /** For another version of a stored kind, how it converts; empty for a stored kind or a renaming alias. */
    public static Optional<VersionConversion> conversion(KindInfo served) {
        return Optional.ofNullable(CONVERSIONS.get(served));
    }

    /** The record a served kind's JSON decodes into: the stored type, or the converted version's own. */
    public static Class<? extends SpecificRecord> wireType(KindInfo served) {
        VersionConversion c = CONVERSIONS.get(served);
        return c != null ? c.servedType() : served.type();
    }

    /**
     * A stored kind by its log name ({@link KindInfo#kind()}): compiled in, or the storage version of a kind a
     * CustomResourceDefinition defines ({@code Kind.group}).
     */
    public static Optional<KindInfo> byKind(String kind) {
        KindInfo k = BY_KIND.get(kind);
        return k != null ? Optional.of(k) : CustomKinds.byKind(kind).map(CustomKinds.CustomKind::info);
    }

    public static KindInfo of(String kind) {
        return byKind(kind).orElseThrow(() -> new IllegalArgumentException("unknown kind " + kind));
    }

    public static KindInfo of(SpecificRecord object) {
        if (object instanceof CustomObject custom) {
            return CustomKinds.of(custom).map(CustomKinds.CustomKind::info)
                    .orElseGet(() -> CustomKinds.undefined(custom));
        }
        KindInfo k = BY_TYPE.get(object.getClass());
        if (k == null) {
            throw new IllegalArgumentException("not a stored kind: " + object.getClass().getName());
        }
        return k;
    }

    /**
     * The stored kind a reference names (an owner reference, a scale target, an involved object): by its apiVersion's
     * group and its kind, so a custom {@code Deployment} of {@code example.com} is not apps/v1's.
     */
    public static Optional<KindInfo> byReference(String apiVersion, String kind) {
        if (kind == null) {
            return Optional.empty();
        }
        String name = logKind(apiVersion, kind);
        KindInfo compiled = BY_KIND.get(name);
        return compiled != null ? Optional.of(compiled)
                : CustomKinds.byKind(name).map(CustomKinds.CustomKind::info);
    }

    /**
     * The log name ({@link KindInfo#kind()}) of the kind a reference names, whether or not this process knows its
     * definition: a compiled kind when one of that name is served in the reference's group (or no apiVersion is
     * given), else {@code Kind.group}.
     */
    public static String logKind(String apiVersion, String kind) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        String group = slash < 0 ? "" : apiVersion.substring(0, slash);
        KindInfo compiled = BY_KIND.get(kind);
        if (group.isEmpty() || compiled != null && (apiVersion == null
                || SERVED.stream().anyMatch(k -> k.kind().equals(kind) && k.group().equals(group)))) {
            return kind;
        }
        return KindInfo.customKind(kind, group);
    }

    /** The kind served at {@code group/version/plural}, if any. */
    public static Optional<KindInfo> byResource(String group, String version, String plural) {
        Optional<KindInfo> compiled = served().stream()
                .filter(k -> k.group().equals(group) && k.version().equals(version) && k.plural().equals(plural))
                .findFirst();
        return compiled.isPresent() ? compiled
                : CustomKinds.byResource(group, version, plural).map(CustomKinds.CustomKind::info);
    }
}
