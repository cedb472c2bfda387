package io.eventplane.scheduler;

import io.eventplane.model.Container;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Pods and nodes for decision tests, built the way the writer stores them. */
final class TestObjects {
    private TestObjects() {
    }

    static Container container(String name, String cpu, String memory) {
        Map<String, String> requests = new HashMap<>();
        if (cpu != null) {
            requests.put("cpu", cpu);
        }
        if (memory != null) {
            requests.put("memory", memory);
        }
        return Container.newBuilder().setName(name).setImage("nginx")
                .setResources(ResourceRequirements.newBuilder().setRequests(requests).build()).build();
    }

    static Pod pod(String name, Container... containers) {
        return Pod.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").setUid("uid-" + name)
                        .setResourceVersion("7").build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(containers)).setSchedulerName("default-scheduler").build())
                .setStatus(PodStatus.newBuilder().setPhase("Pending").build())
                .build();
    }

    static Pod pod(String name, String cpu) {
        return pod(name, container("nginx", cpu, null));
    }

    static Pod withSpec(Pod pod, PodSpec spec) {
        return Pod.newBuilder(pod).setSpec(spec).build();
    }

    static Node node(String name, String cpu, String memory, String pods) {
        return node(name, cpu, memory, pods, "True", Map.of("kubernetes.io/hostname", name));
    }

    static Node node(String name, String cpu, String memory, String pods, String ready, Map<String, String> labels) {
        Map<String, String> capacity = Map.of("cpu", cpu, "memory", memory, "pods", pods);
        return Node.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setLabels(labels).build())
                .setSpec(new NodeSpec())
                .setStatus(NodeStatus.newBuilder().setCapacity(capacity).setAllocatable(capacity)
                        .setConditions(List.of(NodeCondition.newBuilder().setType("Ready").setStatus(ready).build()))
                        .build())
                .build();
    }

    static Node cordoned(Node node) {
        return Node.newBuilder(node).setSpec(NodeSpec.newBuilder().setUnschedulable(true).build()).build();
    }

    static ClusterSnapshot states(Node... nodes) {
        return ClusterSnapshot.of(List.of(nodes));
    }

    static ClusterSnapshot snapshot(Collection<Node> nodes) {
        return ClusterSnapshot.of(nodes);
    }
}
