package io.eventplane.core.decide;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/** Which {@link KindRules} apply to which kind; kinds without their own rules get the generic ones. */
public final class RulesRegistry {
    private final Map<String, KindRules<? extends SpecificRecord>> byKind = new HashMap<>();

    public static RulesRegistry standard() {
        RulesRegistry r = new RulesRegistry();
        r.register(Kinds.POD, new PodRules());
        r.register(Kinds.NAMESPACE, new NamespaceRules());
        r.register(Kinds.DEPLOYMENT, new DeploymentRules());
        r.register(Kinds.REPLICA_SET, new ReplicaSetRules());
        r.register(Kinds.STATEFUL_SET, new StatefulSetRules());
        r.register(Kinds.DAEMON_SET, new DaemonSetRules());
        r.register(Kinds.CONTROLLER_REVISION, new ControllerRevisionRules());
        r.register(Kinds.JOB, new JobRules());
        r.register(Kinds.CRON_JOB, new CronJobRules());
        r.register(Kinds.REPLICATION_CONTROLLER, new ReplicationControllerRules());
        r.register(Kinds.POD_DISRUPTION_BUDGET, new PodDisruptionBudgetRules());
        r.register(Kinds.CONFIG_MAP, new ConfigMapRules());
        r.register(Kinds.SECRET, new SecretRules());
        r.register(Kinds.SERVICE_ACCOUNT, new ServiceAccountRules());
        r.register(Kinds.SERVICE, new ServiceRules());
        r.register(Kinds.ENDPOINTS, new EndpointsRules());
        r.register(Kinds.ENDPOINT_SLICE, new EndpointSliceRules());
        r.register(Kinds.PERSISTENT_VOLUME_CLAIM, new PersistentVolumeClaimRules());
        r.register(Kinds.PERSISTENT_VOLUME, new PersistentVolumeRules());
        r.register(Kinds.STORAGE_CLASS, new StorageClassRules());
        r.register(Kinds.PRIORITY_CLASS, new PriorityClassRules());
        r.register(Kinds.RESOURCE_QUOTA, new ResourceQuotaRules());
        r.register(Kinds.LIMIT_RANGE, new LimitRangeRules());
        r.register(Kinds.HORIZONTAL_POD_AUTOSCALER, new HorizontalPodAutoscalerRules());
        r.register(Kinds.IP_ADDRESS, new IPAddressRules());
        r.register(Kinds.SERVICE_CIDR, new ServiceCIDRRules());
        r.register(Kinds.NODE_PORT_ALLOCATION, new NodePortAllocationRules());
        r.register(Kinds.ROLE, new RbacRules.RoleRules());
        r.register(Kinds.CLUSTER_ROLE, new RbacRules.ClusterRoleRules());
        r.register(Kinds.ROLE_BINDING, new RbacRules.RoleBindingRules());
        r.register(Kinds.CLUSTER_ROLE_BINDING, new RbacRules.ClusterRoleBindingRules());
        r.register(Kinds.INGRESS, new IngressRules());
        r.register(Kinds.INGRESS_CLASS, new IngressClassRules());
        r.register(Kinds.NETWORK_POLICY, new NetworkPolicyRules());
        r.register(Kinds.CUSTOM_RESOURCE_DEFINITION, new CustomResourceDefinitionRules());
        r.register(Kinds.CERTIFICATE_SIGNING_REQUEST, new CertificateSigningRequestRules());
        return r;
    }

    public RulesRegistry register(KindInfo kind, KindRules<? extends SpecificRecord> rules) {
        byKind.put(kind.kind(), rules);
        return this;
    }

    public KindRules<? extends SpecificRecord> rulesFor(KindInfo kind) {
        if (kind.type() == io.eventplane.model.apiextensions.CustomObject.class) {
            return CustomObjectRules.INSTANCE;
        }
        return byKind.getOrDefault(kind.kind(), GenericRules.INSTANCE);
    }

    /** Rules for kinds that add nothing to the generic ones. */
    static final class GenericRules implements KindRules<SpecificRecord> {
        static final GenericRules INSTANCE = new GenericRules();

        @Override
        public SpecificRecord prepareForCreate(SpecificRecord object, java.time.Instant now) {
            return object;
        }

        @Override
        public java.util.List<io.eventplane.log.StatusCause> validate(SpecificRecord object) {
            return java.util.List.of();
        }
    }
}
