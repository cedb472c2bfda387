package io.eventplane.core.quota;

import io.eventplane.core.codec.Quantity;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;

/**
 * The evaluator of every namespaced kind (Kubernetes' quota registry): pods, services and persistent volume claims
 * have their own; every other kind is counted as {@code count/<resource>[.<group>]}, and ConfigMaps, Secrets,
 * ReplicationControllers and ResourceQuotas also under their legacy names ({@code configmaps}, ...).
 */
public final class QuotaEvaluators {
    private static final Map<String, String> LEGACY_COUNTS = Map.of("ConfigMap", "configmaps", "Secret", "secrets",
            "ReplicationController", "replicationcontrollers", "ResourceQuota", "resourcequotas");
    private static final Map<String, QuotaEvaluator> BY_KIND = new TreeMap<>();

    static {
        for (KindInfo kind : Kinds.all()) {
            if (!kind.namespaced()) {
                continue;
            }
            QuotaEvaluator e;
            if (kind == Kinds.POD) {
                e = new PodQuota();
            } else if (kind == Kinds.SERVICE) {
                e = new ServiceQuota();
            } else if (kind == Kinds.PERSISTENT_VOLUME_CLAIM) {
                e = new ClaimQuota();
            } else {
                e = new ObjectCount(kind, LEGACY_COUNTS.get(kind.kind()));
            }
            BY_KIND.put(kind.kind(), e);
        }
    }

    private QuotaEvaluators() {
    }

    /** The evaluator of a namespaced kind. */
    public static QuotaEvaluator of(KindInfo kind) {
        QuotaEvaluator e = BY_KIND.get(kind.kind());
        if (e == null && kind.namespaced() && kind.type() == io.eventplane.model.apiextensions.CustomObject.class) {
            return new ObjectCount(kind, null); // a custom kind: count/<plural>.<group>, as Kubernetes counts it
        }
        if (e == null) {
            throw new IllegalArgumentException(kind.kind() + " is not namespaced");
        }
        return e;
    }

    /** Every evaluator, by kind name. */
    public static Collection<QuotaEvaluator> all() {
        return BY_KIND.values();
    }

    /** {@code count/pods}, {@code count/deployments.apps}: an object count's resource name. */
    static String countName(KindInfo kind) {
        return "count/" + kind.plural() + (kind.group().isEmpty() ? "" : "." + kind.group());
    }

    /** Objects counted, nothing else (generic.ObjectCountEvaluator). */
    private record ObjectCount(KindInfo kind, String legacyName) implements QuotaEvaluator {
        @Override
        public Set<String> matchingResources(Collection<String> resources) {
            Set<String> out = new TreeSet<>();
            for (String r : resources) {
                if (r.equals(countName(kind)) || r.equals(legacyName)) {
                    out.add(r);
                }
            }
            return out;
        }

        @Override
        public Map<String, Quantity> usage(SpecificRecord object, Instant now) {
            Map<String, Quantity> out = new TreeMap<>();
            out.put(countName(kind), Quantity.of(1));
            if (legacyName != null) {
                out.put(legacyName, Quantity.of(1));
            }
            return out;
        }
    }

    /** Services, load balancers and the node ports they take (serviceEvaluator). */
    private static final class ServiceQuota implements QuotaEvaluator {
        private static final Set<String> RESOURCES = Set.of("services", "count/services", "services.loadbalancers",
                "services.nodeports");

        @Override
        public KindInfo kind() {
            return Kinds.SERVICE;
        }

        @Override
        public Set<String> matchingResources(Collection<String> resources) {
            Set<String> out = new TreeSet<>(resources);
            out.retainAll(RESOURCES);
            return out;
        }

        @Override
        public Map<String, Quantity> usage(SpecificRecord object, Instant now) {
            Service svc = (Service) object;
            String type = svc.getSpec() == null ? null : svc.getSpec().getType();
            List<ServicePort> ports = svc.getSpec() == null || svc.getSpec().getPorts() == null ? List.of()
                    : svc.getSpec().getPorts();
            Map<String, Quantity> out = new TreeMap<>();
            out.put("count/services", Quantity.of(1));
            out.put("services", Quantity.of(1));
            out.put("services.loadbalancers", Quantity.of(0));
            out.put("services.nodeports", Quantity.of(0));
            if ("NodePort".equals(type)) {
                out.put("services.nodeports", Quantity.of(ports.size()));
            } else if ("LoadBalancer".equals(type)) {
                boolean allocates = !Boolean.FALSE.equals(svc.getSpec().getAllocateLoadBalancerNodePorts());
                long nodePorts = allocates ? ports.size()
                        : ports.stream().filter(p -> p.getNodePort() != null && p.getNodePort() != 0).count();
                out.put("services.nodeports", Quantity.of(nodePorts));
                out.put("services.loadbalancers", Quantity.of(1));
            }
            return out;
        }
    }

    /** Claims and the storage they request, also per storage class (pvcEvaluator). */
    private static final class ClaimQuota implements QuotaEvaluator {
        private static final String CLASS_SUFFIX = ".storageclass.storage.k8s.io/";
        private static final Set<String> RESOURCES = Set.of("persistentvolumeclaims", "count/persistentvolumeclaims",
                "requests.storage");

        @Override
        public KindInfo kind() {
            return Kinds.PERSISTENT_VOLUME_CLAIM;
        }

        @Override
        public Set<String> matchingResources(Collection<String> resources) {
            Set<String> out = new TreeSet<>();
            for (String r : resources) {
                if (RESOURCES.contains(r) || r.endsWith(CLASS_SUFFIX + "requests.storage")
                        || r.endsWith(CLASS_SUFFIX + "persistentvolumeclaims")) {
                    out.add(r);
                }
            }
            return out;
        }

        @Override
        public Map<String, Quantity> usage(SpecificRecord object, Instant now) {
            PersistentVolumeClaim pvc = (PersistentVolumeClaim) object;
            Map<String, Quantity> out = new TreeMap<>();
            out.put("persistentvolumeclaims", Quantity.of(1));
            out.put("count/persistentvolumeclaims", Quantity.of(1));
            String storageClass = storageClass(pvc);
            if (storageClass != null) {
                out.put(storageClass + CLASS_SUFFIX + "persistentvolumeclaims", Quantity.of(1));
            }
            Map<String, String> requests = pvc.getSpec() == null || pvc.getSpec().getResources() == null ? null
                    : pvc.getSpec().getResources().getRequests();
            if (requests != null && requests.get("storage") != null) {
                Quantity storage = Quantity.parse(requests.get("storage"));
                out.put("requests.storage", storage);
                if (storageClass != null) {
                    out.put(storageClass + CLASS_SUFFIX + "requests.storage", storage);
                }
            }
            return out;
        }

        /** spec.storageClassName, or the beta annotation older claims carry. */
        private static String storageClass(PersistentVolumeClaim pvc) {
            String name = pvc.getSpec() == null ? null : pvc.getSpec().getStorageClassName();
            if ((name == null || name.isEmpty()) && pvc.getMetadata() != null && pvc.getMetadata().getAnnotations() != null) {
                name = pvc.getMetadata().getAnnotations().get("volume.beta.kubernetes.io/storage-class");
            }
            return name == null || name.isEmpty() ? null : name;
        }
    }
}
