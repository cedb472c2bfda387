package io.eventplane.controllers.daemonset;

import io.eventplane.model.Container;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.DaemonSetSpec;
import io.eventplane.model.DaemonSetUpdateStrategy;
import io.eventplane.model.HostPathVolumeSource;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.model.RollingUpdateDaemonSet;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import io.eventplane.model.Volume;
import io.eventplane.model.VolumeMount;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The seed's fluentd-elasticsearch DaemonSet and nodes, built as a user and a kubelet would send them. */
final class DaemonSets {
    static final Map<String, String> LABELS = Map.of("name", "fluentd-elasticsearch");
    static final String IMAGE = "quay.io/fluentd_elasticsearch/fluentd:v2.5.2";

    private DaemonSets() {
    }

    /** The seed's example (workloads.md §4, L3116), in {@code namespace}. */
    static DaemonSet fluentd(String namespace) {
        Container c = Container.newBuilder().setName("fluentd-elasticsearch").setImage(IMAGE)
                .setResources(ResourceRequirements.newBuilder().setLimits(new HashMap<>(Map.of("memory", "200Mi")))
                        .setRequests(new HashMap<>(Map.of("cpu", "100m", "memory", "200Mi"))).build())
                .setVolumeMounts(List.of(
                        VolumeMount.newBuilder().setName("varlog").setMountPath("/var/log").build(),
                        VolumeMount.newBuilder().setName("varlibdockercontainers")
                                .setMountPath("/var/lib/docker/containers").setReadOnly(true).build()))
                .build();
        PodSpec spec = PodSpec.newBuilder()
                .setTolerations(List.of(Toleration.newBuilder().setKey("node-role.kubernetes.io/master")
                        .setEffect("NoSchedule").build()))
                .setContainers(List.of(c))
                .setTerminationGracePeriodSeconds(30L)
                .setVolumes(List.of(
                        Volume.newBuilder().setName("varlog").setHostPath(HostPathVolumeSource.newBuilder()
                                .setPath("/var/log").build()).build(),
                        Volume.newBuilder().setName("varlibdockercontainers").setHostPath(HostPathVolumeSource.newBuilder()
                                .setPath("/var/lib/docker/containers").build()).build()))
                .build();
        return DaemonSet.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("fluentd-elasticsearch").setNamespace(namespace)
                        .setLabels(new HashMap<>(Map.of("k8s-app", "fluentd-logging"))).build())
                .setSpec(DaemonSetSpec.newBuilder()
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(new HashMap<>(LABELS)).build())
                        .setTemplate(PodTemplateSpec.newBuilder()
                                .setMetadata(ObjectMeta.newBuilder().setLabels(new HashMap<>(LABELS)).build())
                                .setSpec(spec).build())
                        .build())
                .build();
    }

    static DaemonSet fluentd() {
        return fluentd("default");
    }

    static DaemonSet withPodSpec(DaemonSet ds, java.util.function.UnaryOperator<PodSpec.Builder> change) {
        PodTemplateSpec t = ds.getSpec().getTemplate();
        return DaemonSet.newBuilder(ds).setSpec(DaemonSetSpec.newBuilder(ds.getSpec()).setTemplate(PodTemplateSpec
                .newBuilder(t).setSpec(change.apply(PodSpec.newBuilder(t.getSpec())).build()).build()).build()).build();
    }

    static DaemonSet withImage(DaemonSet ds, String image) {
        return withPodSpec(ds, s -> s.setContainers(List.of(Container.newBuilder(s.getContainers().get(0))
                .setImage(image).build())));
    }

    static DaemonSet withNodeSelector(DaemonSet ds, Map<String, String> selector) {
        return withPodSpec(ds, s -> s.setNodeSelector(new HashMap<>(selector)));
    }

    static DaemonSet rollingUpdate(DaemonSet ds, Object maxUnavailable, Object maxSurge) {
        return DaemonSet.newBuilder(ds).setSpec(DaemonSetSpec.newBuilder(ds.getSpec()).setUpdateStrategy(
                DaemonSetUpdateStrategy.newBuilder().setType("RollingUpdate").setRollingUpdate(RollingUpdateDaemonSet
                        .newBuilder().setMaxUnavailable(maxUnavailable).setMaxSurge(maxSurge).build()).build())
                .build()).build();
    }

    static DaemonSet onDelete(DaemonSet ds) {
        return DaemonSet.newBuilder(ds).setSpec(DaemonSetSpec.newBuilder(ds.getSpec()).setUpdateStrategy(
                DaemonSetUpdateStrategy.newBuilder().setType("OnDelete").build()).build()).build();
    }

    /** A Ready node with room for 110 pods, labelled as a kubelet labels it plus {@code labels}. */
    static Node node(String name, Map<String, String> labels) {
        Map<String, String> all = new HashMap<>(labels);
        all.put("kubernetes.io/hostname", name);
        Map<String, String> capacity = Map.of("cpu", "4", "memory", "16Gi", "pods", "110");
        return Node.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setLabels(all).build())
                .setSpec(new NodeSpec())
                .setStatus(NodeStatus.newBuilder().setCapacity(capacity).setAllocatable(capacity)
                        .setConditions(List.of(NodeCondition.newBuilder().setType("Ready").setStatus("True").build()))
                        .build())
                .build();
    }

    static Node node(String name) {
        return node(name, Map.of());
    }

    static Node cordoned(Node node) {
        return Node.newBuilder(node).setSpec(NodeSpec.newBuilder(node.getSpec()).setUnschedulable(true)
                .setTaints(List.of(taint(DaemonPods.UNSCHEDULABLE, "NoSchedule"))).build()).build();
    }

    static Node withTaints(Node node, Taint... taints) {
        List<Taint> all = new ArrayList<>(node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints());
        all.addAll(List.of(taints));
        return Node.newBuilder(node).setSpec(NodeSpec.newBuilder(node.getSpec()).setTaints(all).build()).build();
    }

    static Node withLabels(Node node, Map<String, String> labels) {
        return Node.newBuilder(node).setMetadata(ObjectMeta.newBuilder(node.getMetadata())
                .setLabels(new HashMap<>(labels)).build()).build();
    }

    static Taint taint(String key, String effect) {
        return Taint.newBuilder().setKey(key).setEffect(effect).build();
    }
}
