package io.eventplane.controllers;

import static io.eventplane.testkit.objects.KubeObjects.container;

import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.DeploymentStrategy;
import io.eventplane.model.Pod;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.RollingUpdateDeployment;
import io.eventplane.testkit.objects.KubeObjects;
import java.util.HashMap;
import java.util.Map;

/** The seed's example objects, built as a user would send them. */
public final class Workloads {
    private Workloads() {
    }

    /** One container (php-redis for the gcr.io guestbook images, nginx otherwise) on port 80. */
    public static PodTemplateSpec template(Map<String, String> labels, String image) {
        return KubeObjects.template().labels(new HashMap<>(labels))
                .containers(container(image.startsWith("gcr") ? "php-redis" : "nginx").image(image).port(80)).build();
    }

    /** The seed's nginx-deployment: app=nginx, nginx:1.14.2, port 80. */
    public static Deployment nginxDeployment(int replicas) {
        return deployment("nginx-deployment", replicas, "nginx:1.14.2");
    }

    public static Deployment deployment(String name, int replicas, String image) {
        return KubeObjects.deployment(name).labels("app", "nginx").replicas(replicas).selector("app", "nginx")
                .template(template(Map.of("app", "nginx"), image)).build();
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
        return KubeObjects.replicaSet("frontend").labels(new HashMap<>(Map.of("app", "guestbook", "tier", "frontend")))
                .replicas(replicas).selector("tier", "frontend")
                .template(template(Map.of("tier", "frontend"), "gcr.io/google_samples/gb-frontend:v3")).build();
    }

    public static ReplicaSet replicaSet(String name, int replicas, Map<String, String> selector,
                                        Map<String, String> templateLabels, String image) {
        return KubeObjects.replicaSet(name).replicas(replicas).selector(new HashMap<>(selector))
                .template(template(templateLabels, image)).build();
    }

    /** The seed's nginx ReplicationController: app=nginx, selector left to default unless given. */
    public static ReplicationController nginxRc(String name, int replicas, Map<String, String> labels,
                                                Map<String, String> selector) {
        var rc = KubeObjects.replicationController(name).replicas(replicas).template(template(labels, "nginx"));
        return (selector == null ? rc.withoutSelector() : rc.selector(new HashMap<>(selector))).build();
    }

    /** A bare pod, as `kubectl apply -f pod-rs.yaml` makes one. */
    public static Pod barePod(String name, Map<String, String> labels) {
        return KubeObjects.pod(name).labels(new HashMap<>(labels))
                .containers(container("hello1").image("gcr.io/google-samples/hello-app:2.0")).build();
    }
}
