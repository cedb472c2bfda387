package io.eventplane.scheduler;

import io.eventplane.model.Container;
import io.eventplane.model.Node;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.testkit.objects.KubeObjects;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Pods and nodes for decision tests, built the way the writer stores them. */
final class TestObjects {
    private TestObjects() {
    }

    static Container container(String name, String cpu, String memory) {
        return KubeObjects.container(name).requests(cpu, memory).build();
    }

    /** A created pod waiting for the default scheduler: uid, resourceVersion, Pending. */
    static Pod pod(String name, Container... containers) {
        return KubeObjects.pod(name).uid("uid-" + name).resourceVersion("7").containers(containers)
                .schedulerName("default-scheduler").pending().build();
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
        return KubeObjects.node(name).labels(labels).capacity(cpu, memory, pods).ready(ready).build();
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
