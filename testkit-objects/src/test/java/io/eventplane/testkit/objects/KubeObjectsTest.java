package io.eventplane.testkit.objects;

import static io.eventplane.testkit.objects.KubeObjects.container;
import static io.eventplane.testkit.objects.KubeObjects.controllerRef;
import static io.eventplane.testkit.objects.KubeObjects.daemonSet;
import static io.eventplane.testkit.objects.KubeObjects.deployment;
import static io.eventplane.testkit.objects.KubeObjects.job;
import static io.eventplane.testkit.objects.KubeObjects.node;
import static io.eventplane.testkit.objects.KubeObjects.ownerRef;
import static io.eventplane.testkit.objects.KubeObjects.pod;
import static io.eventplane.testkit.objects.KubeObjects.podDisruptionBudget;
import static io.eventplane.testkit.objects.KubeObjects.replicaSet;
import static io.eventplane.testkit.objects.KubeObjects.replicationController;
import static io.eventplane.testkit.objects.KubeObjects.statefulSet;
import static io.eventplane.testkit.objects.KubeObjects.taint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.eventplane.model.Container;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.Deployment;
import io.eventplane.model.Job;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.StatefulSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class KubeObjectsTest {

    @Test
    @DisplayName("a bare pod is in namespace default with one container c (image nginx), and nothing else is set")
    void podDefaults() {
        Pod p = pod("web-1").build();
        assertEquals(ObjectMeta.newBuilder().setName("web-1").setNamespace("default").build(), p.getMetadata());
        assertEquals(List.of(Container.newBuilder().setName("c").setImage("nginx").build()),
                p.getSpec().getContainers());
        assertNull(p.getSpec().getNodeName());
        assertNull(p.getStatus());
    }

    @Test
    @DisplayName("a pod reads as a sentence: labels, requests and limits on its container, node, phase and conditions")
    void podSentence() {
        Pod p = pod("web-1").labels("app", "web").requests("100m", "64Mi").limits("200m", null).onNode("node-1")
                .running().ready(true).uid("uid-web-1").build();
        assertEquals(Map.of("app", "web"), p.getMetadata().getLabels());
        assertEquals(Map.of("cpu", "100m", "memory", "64Mi"),
                p.getSpec().getContainers().get(0).getResources().getRequests());
        assertEquals(Map.of("cpu", "200m"), p.getSpec().getContainers().get(0).getResources().getLimits());
        assertEquals("node-1", p.getSpec().getNodeName());
        assertEquals("Running", p.getStatus().getPhase());
        assertEquals("Ready", p.getStatus().getConditions().get(0).getType());
        assertEquals("True", p.getStatus().getConditions().get(0).getStatus());
        assertEquals("uid-web-1", p.getMetadata().getUid());
    }

    @Test
    @DisplayName("given containers replace the default one; the shortcuts change the first")
    void containers() {
        Pod p = pod("p").containers(container("app").image("busybox:1.36"), container("side")).image("alpine").build();
        assertEquals(List.of("app/alpine", "side/nginx"),
                p.getSpec().getContainers().stream().map(c -> c.getName() + "/" + c.getImage()).toList());
        assertThrows(IllegalArgumentException.class, () -> pod("p").labels("odd"));
    }

    @Test
    @DisplayName("maps keep the order given, through every build; an empty map is set, not left out")
    void order() {
        List<String> keys = List.of("zeta", "alpha", "mid", "beta", "omega", "gamma", "kappa", "delta", "pi");
        PodBuilder b = pod("p").requests(Map.of()).nodeSelector("z", "1", "a", "2");
        keys.forEach(k -> b.labels(k, "v"));
        for (int i = 0; i < 2; i++) {
            Pod p = b.build();
            assertEquals(keys, List.copyOf(p.getMetadata().getLabels().keySet()));
            assertEquals(List.of("z", "a"), List.copyOf(p.getSpec().getNodeSelector().keySet()));
            assertEquals(Map.of(), p.getSpec().getContainers().get(0).getResources().getRequests());
            assertNull(p.getSpec().getContainers().get(0).getResources().getLimits());
        }
        Deployment d = deployment("d").selector(KubeObjects.labels("z", "1", "a", "2", "m", "3")).build();
        assertEquals(List.of("z", "a", "m"), List.copyOf(d.getSpec().getTemplate().getMetadata().getLabels().keySet()));
        assertEquals(Map.of(), pod("p").labels(Map.of()).build().getMetadata().getLabels());
    }

    @Test
    @DisplayName("a node: capacity is also allocatable, conditions in the order given, taints, no namespace")
    void nodeSentence() {
        Node n = node("node-1").capacity("4", "8Gi", "110").ready().condition("MemoryPressure", "False")
                .taints(taint("dedicated", "gpu", "NoSchedule")).labels("zone", "a").build();
        assertNull(n.getMetadata().getNamespace());
        assertEquals(Map.of("cpu", "4", "memory", "8Gi", "pods", "110"), n.getStatus().getCapacity());
        assertEquals(n.getStatus().getCapacity(), n.getStatus().getAllocatable());
        assertEquals(List.of("Ready=True", "MemoryPressure=False"), n.getStatus().getConditions().stream()
                .map(c -> c.getType() + "=" + c.getStatus()).toList());
        assertEquals("NoSchedule", n.getSpec().getTaints().get(0).getEffect());
        Node bare = node("n").build();
        assertNull(bare.getStatus());
        assertEquals(new io.eventplane.model.NodeSpec(), bare.getSpec());
        assertEquals(List.of(NodeCondition.newBuilder().setType("Ready").setStatus("Unknown").build()),
                node("n").ready("Unknown").build().getStatus().getConditions());
    }

    @Test
    @DisplayName("workloads select app=<name> and label their template like their selector unless told otherwise")
    void workloadDefaults() {
        Deployment d = deployment("web").replicas(3).image("nginx:1.27").rollingUpdate(1, "25%").build();
        assertEquals("default", d.getMetadata().getNamespace());
        assertEquals(Map.of("app", "web"), d.getSpec().getSelector().getMatchLabels());
        assertEquals(Map.of("app", "web"), d.getSpec().getTemplate().getMetadata().getLabels());
        assertEquals("nginx:1.27", d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals(1, d.getSpec().getStrategy().getRollingUpdate().getMaxSurge());
        assertEquals("25%", d.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable());

        ReplicaSet rs = replicaSet("frontend").selector("tier", "frontend").replicas(2).build();
        assertEquals(Map.of("tier", "frontend"), rs.getSpec().getTemplate().getMetadata().getLabels());
        ReplicaSet mismatched = replicaSet("rs").selector("a", "1").templateLabels("b", "2").build();
        assertEquals(Map.of("b", "2"), mismatched.getSpec().getTemplate().getMetadata().getLabels());

        ReplicationController rc = replicationController("nginx").withoutSelector().templateLabels("app", "nginx")
                .build();
        assertNull(rc.getSpec().getSelector());
        assertEquals(Map.of("app", "x"), replicationController("x").build().getSpec().getSelector());
    }

    @Test
    @DisplayName("StatefulSet, DaemonSet and Job builders cover their kinds' common fields")
    void otherWorkloads() {
        StatefulSet ss = statefulSet("db").replicas(3).parallel().rollingUpdate(1, null).build();
        assertEquals("db", ss.getSpec().getServiceName());
        assertEquals("Parallel", ss.getSpec().getPodManagementPolicy());
        assertEquals(1, ss.getSpec().getUpdateStrategy().getRollingUpdate().getPartition());

        DaemonSet ds = daemonSet("agent").onDelete()
                .template(t -> t.tolerations(KubeObjects.toleration("k", "NoSchedule"))).build();
        assertEquals("OnDelete", ds.getSpec().getUpdateStrategy().getType());
        assertEquals("Exists", ds.getSpec().getTemplate().getSpec().getTolerations().get(0).getOperator());

        Job j = job("pi").completions(5).parallelism(2).backoffLimit(4).indexed().build();
        assertNull(j.getSpec().getSelector());
        assertEquals("Never", j.getSpec().getTemplate().getSpec().getRestartPolicy());
        assertEquals(Map.of("app", "pi"), j.getSpec().getTemplate().getMetadata().getLabels());
        assertEquals("Indexed", j.getSpec().getCompletionMode());

        PodDisruptionBudget pdb = podDisruptionBudget("web").minAvailable("50%").build();
        assertEquals(Map.of("app", "web"), pdb.getSpec().getSelector().getMatchLabels());
        assertEquals("50%", pdb.getSpec().getMinAvailable());
    }

    @Test
    @DisplayName("owner references: apiVersion from the kind; a controller reference from the owner object")
    void ownerReferences() {
        ReplicaSet rs = replicaSet("web-1").uid("rs-uid").build();
        OwnerReference expected = OwnerReference.newBuilder().setApiVersion("apps/v1").setKind("ReplicaSet")
                .setName("web-1").setUid("rs-uid").setController(true).setBlockOwnerDeletion(true).build();
        assertEquals(expected, controllerRef(rs));
        assertEquals(expected, ownerRef("ReplicaSet", "web-1", "rs-uid").controller().blockOwnerDeletion().build());
        assertEquals(List.of(expected), pod("p").controlledBy(rs).build().getMetadata().getOwnerReferences());
        assertEquals("batch/v1", ownerRef("Job", "j", "u").build().getApiVersion());
        assertThrows(IllegalArgumentException.class, () -> ownerRef("Widget", "w", "u"));
    }
}
