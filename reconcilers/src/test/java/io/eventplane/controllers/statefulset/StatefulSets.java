package io.eventplane.controllers.statefulset;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.volume.provisioner.SimulatedProvisioner;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerPort;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeClaimSpec;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.RollingUpdateStatefulSetStrategy;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import io.eventplane.model.ServiceSpec;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetOrdinals;
import io.eventplane.model.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.eventplane.model.StatefulSetSpec;
import io.eventplane.model.StatefulSetUpdateStrategy;
import io.eventplane.model.VolumeMount;
import io.eventplane.model.VolumeResourceRequirements;
import io.eventplane.testkit.objects.KubeObjects;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** The seed's StatefulSet example (workloads.md §3, seed L2930-2990) and variations, built as a user sends them. */
final class StatefulSets {
    static final String IMAGE = "k8s.gcr.io/nginx-slim:0.8";
    static final Map<String, String> LABELS = Map.of("app", "nginx");

    private StatefulSets() {
    }

    /** The headless Service {@code nginx} the seed creates before {@code web} (STS-03). */
    static Service nginxService(String namespace) {
        return Service.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("nginx").setNamespace(namespace)
                        .setLabels(new HashMap<>(LABELS)).build())
                .setSpec(ServiceSpec.newBuilder().setClusterIP("None").setSelector(new HashMap<>(LABELS))
                        .setPorts(List.of(ServicePort.newBuilder().setPort(80).setName("web").build())).build())
                .build();
    }

    /** The claim template {@code www}: ReadWriteOnce, my-storage-class, 1Gi (STS-04). */
    static PersistentVolumeClaim www() {
        return PersistentVolumeClaim.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("www").build())
                .setSpec(PersistentVolumeClaimSpec.newBuilder().setAccessModes(List.of("ReadWriteOnce"))
                        .setStorageClassName("my-storage-class")
                        .setResources(VolumeResourceRequirements.newBuilder()
                                .setRequests(new HashMap<>(Map.of("storage", "1Gi"))).build()).build())
                .build();
    }

    static PodTemplateSpec template(String image) {
        Container c = Container.newBuilder().setName("nginx").setImage(image)
                .setPorts(List.of(ContainerPort.newBuilder().setContainerPort(80).setName("web").build()))
                .setVolumeMounts(List.of(VolumeMount.newBuilder().setName("www").setMountPath("/usr/share/nginx/html")
                        .build()))
                .build();
        return PodTemplateSpec.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setLabels(new HashMap<>(LABELS)).build())
                .setSpec(PodSpec.newBuilder().setTerminationGracePeriodSeconds(10L).setContainers(List.of(c)).build())
                .build();
    }

    /** The seed's {@code web}: 3 replicas of nginx-slim behind the headless Service nginx, a www claim each. */
    static StatefulSet web(String namespace, int replicas) {
        return StatefulSet.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("web").setNamespace(namespace).build())
                .setSpec(StatefulSetSpec.newBuilder()
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(new HashMap<>(LABELS)).build())
                        .setServiceName("nginx")
                        .setReplicas(replicas)
                        .setTemplate(template(IMAGE))
                        .setVolumeClaimTemplates(List.of(www()))
                        .build())
                .build();
    }

    static StatefulSet web(int replicas) {
        return web("default", replicas);
    }

    static StatefulSet spec(StatefulSet set, UnaryOperator<StatefulSetSpec.Builder> edit) {
        return StatefulSet.newBuilder(set).setSpec(edit.apply(StatefulSetSpec.newBuilder(set.getSpec())).build()).build();
    }

    static StatefulSet replicas(StatefulSet set, int replicas) {
        return spec(set, s -> s.setReplicas(replicas));
    }

    static StatefulSet image(StatefulSet set, String image) {
        PodTemplateSpec t = set.getSpec().getTemplate();
        Container c = Container.newBuilder(t.getSpec().getContainers().get(0)).setImage(image).build();
        return spec(set, s -> s.setTemplate(PodTemplateSpec.newBuilder(t)
                .setSpec(PodSpec.newBuilder(t.getSpec()).setContainers(List.of(c)).build()).build()));
    }

    static StatefulSet parallel(StatefulSet set) {
        return spec(set, s -> s.setPodManagementPolicy("Parallel"));
    }

    static StatefulSet onDelete(StatefulSet set) {
        return spec(set, s -> s.setUpdateStrategy(StatefulSetUpdateStrategy.newBuilder().setType("OnDelete").build()));
    }

    static StatefulSet rollingUpdate(StatefulSet set, Integer partition, Object maxUnavailable) {
        return spec(set, s -> s.setUpdateStrategy(StatefulSetUpdateStrategy.newBuilder().setType("RollingUpdate")
                .setRollingUpdate(RollingUpdateStatefulSetStrategy.newBuilder().setPartition(partition)
                        .setMaxUnavailable(maxUnavailable).build()).build()));
    }

    static StatefulSet retention(StatefulSet set, String whenDeleted, String whenScaled) {
        return spec(set, s -> s.setPersistentVolumeClaimRetentionPolicy(StatefulSetPersistentVolumeClaimRetentionPolicy
                .newBuilder().setWhenDeleted(whenDeleted).setWhenScaled(whenScaled).build()));
    }

    static StatefulSet startAt(StatefulSet set, int start) {
        return spec(set, s -> s.setOrdinals(StatefulSetOrdinals.newBuilder().setStart(start).build()));
    }

    /**
     * A simulated cluster with three nodes and the seed's class {@code my-storage-class}, provisioned by the simulated
     * provisioner when a pod first uses a claim (STS-05): the binder binds the claims, the kubelet starts a pod once
     * its claims are Bound.
     */
    static SimulatedCluster withStorage() {
        SimulatedCluster cluster = new SimulatedCluster().nodes(3);
        cluster.create(KubeObjects.storageClass("my-storage-class", SimulatedProvisioner.NAME).waitForFirstConsumer()
                .build());
        return cluster;
    }

    /** The stored set's current state (with its resourceVersion, for an update). */
    static StatefulSet stored(SimulatedCluster cluster, String namespace, String name) {
        return cluster.get(StatefulSet.class, namespace, name);
    }
}
