package io.eventplane.controllers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.Container;
import io.eventplane.model.LimitRange;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetCondition;
import io.eventplane.model.ResourceQuota;
import io.eventplane.model.ResourceQuotaSpec;
import io.eventplane.model.Job;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Controllers create through the admission chain, as Kubernetes' controllers create through kube-apiserver: their
 * pods get LimitRange defaults, quota holds them back with kube-apiserver's Forbidden message (the controller's
 * FailedCreate), and creation resumes once the quota allows it.
 */
class ControllerAdmissionTest {
    private final SimulatedCluster cluster = new SimulatedCluster().withAdmission();

    private static <T extends SpecificRecord> T parse(Class<T> type, String json) {
        return KubeJson.get().parseObject(json.getBytes(StandardCharsets.UTF_8), type, FieldValidation.STRICT, null);
    }

    private void quotaAndDefaults(String pods) {
        cluster.create(parse(ResourceQuota.class, "{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":{"
                + "\"name\":\"q\",\"namespace\":\"default\"},\"spec\":{\"hard\":{\"pods\":\"" + pods + "\"}}}"));
        cluster.create(parse(LimitRange.class, "{\"apiVersion\":\"v1\",\"kind\":\"LimitRange\",\"metadata\":{"
                + "\"name\":\"defaults\",\"namespace\":\"default\"},\"spec\":{\"limits\":[{\"type\":\"Container\","
                + "\"default\":{\"cpu\":\"500m\",\"memory\":\"256Mi\"},\"defaultRequest\":{\"cpu\":\"100m\","
                + "\"memory\":\"64Mi\"}}]}}"));
        cluster.settle(); // the quota controller measures the namespace
    }

    private void raiseQuota(String pods) {
        ResourceQuota q = cluster.get(ResourceQuota.class, "q");
        assertTrue(cluster.update(ResourceQuota.newBuilder(q).setSpec(ResourceQuotaSpec.newBuilder(q.getSpec())
                .setHard(Map.of("pods", pods)).build()).build()).getAccepted());
    }

    private List<Pod> activePods() {
        return cluster.list(Pod.class).stream().filter(PodStates::isActive).toList();
    }

    @Test
    @DisplayName("RS-23 issue 16: a ReplicaSet's pods get the LimitRange defaults; quota pods=2 holds 2 of 4 with "
            + "kube-apiserver's exceeded-quota message (FailedCreate, ReplicaFailure); a quota of 4 lets the rest in")
    void replicaSetUnderQuota() {
        quotaAndDefaults("2");
        cluster.create(Workloads.frontend(4));
        cluster.settle();

        assertEquals(2, activePods().size());
        for (Pod p : activePods()) {
            Container c = p.getSpec().getContainers().get(0);
            assertEquals(Map.of("cpu", "100m", "memory", "64Mi"), c.getResources().getRequests());
            assertEquals(Map.of("cpu", "500m", "memory", "256Mi"), c.getResources().getLimits());
            assertEquals("LimitRanger plugin set: cpu, memory request for container " + c.getName() + "; cpu, memory "
                    + "limit for container " + c.getName(), p.getMetadata().getAnnotations().get("kubernetes.io/limit-ranger"));
        }
        List<String> failed = cluster.eventsWithReason("FailedCreate");
        assertFalse(failed.isEmpty());
        assertTrue(failed.get(0).equals("Error creating: pods \"frontend-\" is forbidden: exceeded quota: q, "
                + "requested: pods=1, used: pods=2, limited: pods=2"), failed.get(0));
        ReplicaSetCondition c = cluster.get(ReplicaSet.class, "frontend").getStatus().getConditions().get(0);
        assertEquals("ReplicaFailure", c.getType());
        assertEquals("True", c.getStatus());
        assertEquals("FailedCreate", c.getReason());
        assertTrue(c.getMessage().contains("exceeded quota: q"), c.getMessage());
        assertEquals("2", cluster.get(ResourceQuota.class, "q").getStatus().getUsed().get("pods"));

        raiseQuota("4");
        cluster.settle();
        assertEquals(4, activePods().size());
        assertNull(cluster.get(ReplicaSet.class, "frontend").getStatus().getConditions());
        assertEquals("4", cluster.get(ResourceQuota.class, "q").getStatus().getUsed().get("pods"));
    }

    @Test
    @DisplayName("issue 16: a Job's pods are held by quota with FailedCreate and created once the quota allows")
    void jobUnderQuota() {
        quotaAndDefaults("1");
        cluster.create(parse(Job.class, "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"pi\","
                + "\"namespace\":\"default\"},\"spec\":{\"parallelism\":2,\"completions\":2,\"template\":{\"spec\":{"
                + "\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"pi\",\"image\":\"perl\"}]}}}}"));
        cluster.settle();
        assertEquals(1, activePods().size());
        assertTrue(cluster.eventsWithReason("FailedCreate").stream().anyMatch(e -> e.matches(
                "Error creating: pods \"pi-\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, "
                        + "limited: pods=1")), cluster.eventsWithReason("FailedCreate").toString());
        raiseQuota("2");
        cluster.settle();
        assertEquals(2, activePods().size());
    }

    @Test
    @DisplayName("issue 16: a controller's pod naming a PriorityClass gets its value at admission; an unknown class is "
            + "its FailedCreate")
    void priorityAtAdmission() {
        cluster.create(parse(io.eventplane.model.PriorityClass.class, "{\"apiVersion\":\"scheduling.k8s.io/v1\","
                + "\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"gold\"},\"value\":1000}"));
        ReplicaSet gold = Workloads.frontend(1);
        gold.getSpec().getTemplate().getSpec().setPriorityClassName("gold");
        cluster.create(gold);
        cluster.settle();
        assertEquals(1000, activePods().get(0).getSpec().getPriority());

        ReplicaSet missing = Workloads.replicaSet("other", 1, Map.of("app", "other"), Map.of("app", "other"), "nginx");
        missing.getSpec().getTemplate().getSpec().setPriorityClassName("platinum");
        cluster.create(missing);
        cluster.settle();
        assertEquals(1, activePods().size());
        assertTrue(cluster.eventsWithReason("FailedCreate").stream().anyMatch(e -> e.matches(
                "Error creating: pods \"other-\" is forbidden: no PriorityClass with name platinum was found")),
                cluster.eventsWithReason("FailedCreate").toString());
    }
}
