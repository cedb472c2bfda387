package io.eventplane.core.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.ResourceQuota;
import io.eventplane.model.ResourceQuotaStatus;
import io.eventplane.model.Service;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Quota measured as Kubernetes' quota evaluators measure it: per object, per namespace, per scope. */
class QuotaUsageTest {
    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    /** A manifest in YAML flow style, decoded as the API decodes it. */
    static <T extends SpecificRecord> T parse(Class<T> type, String yaml) {
        try {
            byte[] json = new com.fasterxml.jackson.databind.ObjectMapper()
                    .writeValueAsBytes(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(yaml));
            return KubeJson.get().parseObject(json, type, FieldValidation.STRICT, null);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Pod pod(String name, String extra, String containers) {
        return parse(Pod.class, "{apiVersion: v1, kind: Pod, metadata: {name: " + name + ", namespace: shop}, spec: {"
                + extra + "containers: [" + containers + "]}}");
    }

    static ResourceQuota quota(String spec) {
        return parse(ResourceQuota.class, "{apiVersion: v1, kind: ResourceQuota, metadata: {name: q, namespace: shop}, "
                + "spec: " + spec + "}");
    }

    @Test
    @DisplayName("POD-10.3 a pod's effective requests: app containers and sidecars add up, the largest init step is the floor, overhead on top")
    void effectiveRequests() {
        Pod p = pod("p", "overhead: {cpu: 10m}, initContainers: [{name: s, image: x, restartPolicy: Always, "
                        + "resources: {requests: {cpu: 100m}}}, {name: i, image: x, resources: {requests: {cpu: '1', memory: 1Gi}, "
                        + "limits: {memory: 2Gi}}}], ",
                "{name: a, image: x, resources: {requests: {cpu: 200m, memory: 64Mi}, limits: {cpu: 500m}}}");
        assertEquals("1110m", PodResources.requests(p.getSpec()).get("cpu").canonical(), "max(300m, 100m+1) + 10m");
        assertEquals("1Gi", PodResources.requests(p.getSpec()).get("memory").canonical());
        assertEquals("510m", PodResources.limits(p.getSpec()).get("cpu").canonical(), "overhead on an existing limit");
        assertEquals("2Gi", PodResources.limits(p.getSpec()).get("memory").canonical());
    }

    @ParameterizedTest(name = "quota on {0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "pods,count/pods|",
            "limits.cpu,requests.memory|must specify limits.cpu for: a,b; requests.memory for: b",
            "cpu,memory|must specify memory for: b",
            "limits.memory|must specify limits.memory for: a,b"})
    @DisplayName("a quota on cpu or memory makes every container declare them, worded as Kubernetes")
    void constraints(String resources, String expected) {
        Pod p = pod("p", "", "{name: b, image: x, resources: {requests: {cpu: 100m}}}, "
                + "{name: a, image: x, resources: {requests: {cpu: 100m, memory: 1Mi}}}");
        QuotaEvaluator pods = QuotaEvaluators.of(Kinds.POD);
        assertEquals(expected, pods.constraints(Set.of(resources.split(",")), p));
    }

    @Test
    @DisplayName("the status of a quota: hard from spec, used summed over the namespace for every hard resource")
    void status() {
        List<SpecificRecord> pods = List.of(
                pod("running", "", "{name: a, image: x, resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {memory: 128Mi}}}"),
                pod("other", "", "{name: a, image: x, resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {memory: 128Mi}}}"),
                withPhase(pod("done", "", "{name: a, image: x, resources: {requests: {cpu: '4'}}}"), "Succeeded"));
        List<SpecificRecord> services = List.of(parse(Service.class, "{apiVersion: v1, kind: Service, metadata: {name: s}, "
                + "spec: {type: NodePort, ports: [{port: 80}, {port: 443}]}}"));
        List<SpecificRecord> claims = List.of(parse(PersistentVolumeClaim.class, "{apiVersion: v1, "
                + "kind: PersistentVolumeClaim, metadata: {name: d}, spec: {storageClassName: fast, accessModes: [ReadWriteOnce], "
                + "resources: {requests: {storage: 5Gi}}}}"));
        List<SpecificRecord> configMaps = List.of(parse(ConfigMap.class, "{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}"));
        QuotaUsage.Lister lister = kind -> kind == Kinds.POD ? pods : kind == Kinds.SERVICE ? services
                : kind == Kinds.PERSISTENT_VOLUME_CLAIM ? claims : kind == Kinds.CONFIG_MAP ? configMaps : List.of();
        ResourceQuota q = quota("{hard: {pods: '10', count/pods: '10', requests.cpu: '2', limits.memory: 1Gi, "
                + "configmaps: '5', count/configmaps: '5', services.nodeports: '3', requests.storage: 10Gi, "
                + "fast.storageclass.storage.k8s.io/requests.storage: 6Gi, count/deployments.apps: '2', example.com/foo: '1'}}");
        ResourceQuotaStatus s = QuotaUsage.status(q, lister, NOW);
        assertEquals(q.getSpec().getHard().keySet(), s.getHard().keySet());
        assertEquals(Map.of("pods", "2", "count/pods", "3", "requests.cpu", "500m", "limits.memory", "256Mi",
                "configmaps", "1", "count/configmaps", "1", "services.nodeports", "2", "requests.storage", "5Gi",
                "fast.storageclass.storage.k8s.io/requests.storage", "5Gi", "count/deployments.apps", "0"), s.getUsed());
    }

    private static Pod withPhase(Pod p, String phase) {
        return Pod.newBuilder(p).setStatus(io.eventplane.model.PodStatus.newBuilder().setPhase(phase).build()).build();
    }

    @Test
    @DisplayName("a scoped quota counts only the pods in its scope and matches no other kind")
    void scopes() {
        Pod bestEffort = pod("be", "", "{name: a, image: x}");
        Pod burstable = pod("bu", "priorityClassName: high, ", "{name: a, image: x, resources: {requests: {cpu: 100m}}}");
        QuotaEvaluator pods = QuotaEvaluators.of(Kinds.POD);
        ResourceQuota be = withHard(quota("{hard: {pods: '1'}, scopes: [BestEffort]}"));
        assertTrue(QuotaUsage.matches(be, pods, bestEffort));
        assertFalse(QuotaUsage.matches(be, pods, burstable));
        ResourceQuota high = withHard(quota("{hard: {pods: '1'}, scopeSelector: {matchExpressions: "
                + "[{scopeName: PriorityClass, operator: In, values: [high]}]}}"));
        assertTrue(QuotaUsage.matches(high, pods, burstable));
        assertFalse(QuotaUsage.matches(high, pods, bestEffort));
        ResourceQuota notHigh = withHard(quota("{hard: {pods: '1'}, scopeSelector: {matchExpressions: "
                + "[{scopeName: PriorityClass, operator: NotIn, values: [high]}]}}"));
        assertTrue(QuotaUsage.matches(notHigh, pods, bestEffort), "NotIn matches a pod without a class");
        ConfigMap cm = parse(ConfigMap.class, "{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}");
        ResourceQuota scopedCounts = withHard(quota("{hard: {configmaps: '1'}, scopes: [NotTerminating]}"));
        assertFalse(QuotaUsage.matches(scopedCounts, QuotaEvaluators.of(Kinds.CONFIG_MAP), cm));
    }

    @Test
    @DisplayName("a pod stuck terminating past twice its grace period stops counting; count/pods still counts it")
    void stuckTerminating() {
        Pod p = pod("p", "", "{name: a, image: x, resources: {requests: {cpu: 100m}}}");
        Pod deleting = Pod.newBuilder(p).setMetadata(io.eventplane.model.ObjectMeta.newBuilder(p.getMetadata())
                .setDeletionTimestamp(NOW).setDeletionGracePeriodSeconds(30L).build()).build();
        QuotaEvaluator pods = QuotaEvaluators.of(Kinds.POD);
        assertEquals("100m", pods.usage(deleting, NOW.plusSeconds(30)).get("requests.cpu").canonical());
        assertNull(pods.usage(deleting, NOW.plusSeconds(31)).get("requests.cpu"));
        assertEquals("1", pods.usage(deleting, NOW.plusSeconds(31)).get("count/pods").canonical());
    }

    private static ResourceQuota withHard(ResourceQuota q) {
        return ResourceQuota.newBuilder(q).setStatus(ResourceQuotaStatus.newBuilder().setHard(q.getSpec().getHard())
                .setUsed(Map.of()).build()).build();
    }

    @Test
    @DisplayName("every namespaced kind has an evaluator; object counts use count/<resource>.<group>")
    void everyKind() {
        List<String> names = new ArrayList<>();
        for (KindInfo k : Kinds.all()) {
            if (k.namespaced()) {
                names.add(QuotaEvaluators.countName(k));
                assertEquals(k, QuotaEvaluators.of(k).kind());
            }
        }
        assertTrue(names.contains("count/deployments.apps"));
        assertTrue(names.contains("count/configmaps"));
        assertEquals(Map.of("count/deployments.apps", io.eventplane.core.codec.Quantity.of(1)),
                QuotaEvaluators.of(Kinds.DEPLOYMENT).usage(null, NOW));
    }
}
