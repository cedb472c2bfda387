package io.eventplane.controllers;

import io.eventplane.model.Container;
import io.eventplane.model.ContainerPort;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.DeploymentStrategy;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetSpec;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.ReplicationControllerSpec;
import io.eventplane.model.RollingUpdateDeployment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The seed's example objects, built as a user would send them. */
public final class Workloads {
    private Workloads() {
    }

    public static PodTemplateSpec template(Map<String, String> labels, String image) {
        Container c = Container.newBuilder().setName(image.startsWith("gcr") ? "php-redis" : "nginx").setImage(image)
                .setPorts(List.of(ContainerPort.newBuilder().setContainerPort(80).build())).build();
        return PodTemplateSpec.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setLabels(new HashMap<>(labels)).build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(c)).build())
                .build();
    }

    /** The seed's nginx-deployment: app=nginx, nginx:1.14.2, port 80. */
    public static Deployment nginxDeployment(int replicas) {
        return deployment("nginx-deployment", replicas, "nginx:1.14.2");
    }

    public static Deployment deployment(String name, int replicas, String image) {
        return Deployment.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default")
                        .setLabels(new HashMap<>(Map.of("app", "nginx"))).build())
                .setSpec(DeploymentSpec.newBuilder().setReplicas(replicas)
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(new HashMap<>(Map.of("app", "nginx"))).build())
                        .setTemplate(template(Map.of("app", "nginx"), image)).build())
                .build();
    }

    public static Deployment withStrategy(Deployment d, Object maxSurge, Object maxUnavailable) {
        return Deployment.newBuilder(d).setSpec(DeploymentSpec.newBuilder(d.getSpec())
                .setStrategy(DeploymentStrategy.newBuilder().setType("RollingUpdate").setRollingUpdate(
                        RollingUpdateDeployment.newBuilder().setMaxSurge(maxSurge).setMaxUnavailable(maxUnavailable)
                                .build()).build()).build()).build();
    }

    public static Deployment recreate(Deployment d) {
        return Deployment.newBuilder(d).setSpec(DeploymentSpec.newBuilder(d.getSpec())
                .setStrategy(DeploymentStrategy.newBuilder().setType("Recreate").build()).build()).build();
    }

    /** The seed's frontend ReplicaSet: tier=frontend, gb-frontend:v3. */
    public static ReplicaSet frontend(int replicas) {
        return ReplicaSet.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("frontend").setNamespace("default")
                        .setLabels(new HashMap<>(Map.of("app", "guestbook", "tier", "frontend"))).build())
                .setSpec(ReplicaSetSpec.newBuilder().setReplicas(replicas)
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(new HashMap<>(Map.of("tier", "frontend"))).build())
                        .setTemplate(template(Map.of("tier", "frontend"), "gcr.io/google_samples/gb-frontend:v3")).build())
                .build();
    }

    public static ReplicaSet replicaSet(String name, int replicas, Map<String, String> selector,
                                        Map<String, String> templateLabels, String image) {
        return ReplicaSet.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setSpec(ReplicaSetSpec.newBuilder().setReplicas(replicas)
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(new HashMap<>(selector)).build())
                        .setTemplate(template(templateLabels, image)).build())
                .build();
    }

    /** The seed's nginx ReplicationController: app=nginx, selector left to default unless given. */
    public static ReplicationController nginxRc(String name, int replicas, Map<String, String> labels,
                                                Map<String, String> selector) {
        return ReplicationController.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setSpec(ReplicationControllerSpec.newBuilder().setReplicas(replicas)
                        .setSelector(selector == null ? null : new HashMap<>(selector))
                        .setTemplate(template(labels, "nginx")).build())
                .build();
    }

    /** A bare pod, as `kubectl apply -f pod-rs.yaml` makes one. */
    public static Pod barePod(String name, Map<String, String> labels) {
        Container c = Container.newBuilder().setName("hello1").setImage("gcr.io/google-samples/hello-app:2.0").build();
        return Pod.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default")
                        .setLabels(new HashMap<>(labels)).build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(c)).build())
                .build();
    }
}
