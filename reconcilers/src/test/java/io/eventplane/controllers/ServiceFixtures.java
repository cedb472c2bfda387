package io.eventplane.controllers;

import static io.eventplane.testkit.objects.KubeObjects.container;

import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.model.ContainerPort;
import io.eventplane.model.Deployment;
import io.eventplane.model.Service;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Services as manifests write them, and a Deployment whose pods name their port, for the endpoints controllers. */
public final class ServiceFixtures {
    private ServiceFixtures() {
    }

    /** A Service from YAML, decoded as the API decodes it. */
    public static Service service(String yaml) {
        return KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8), Service.class, FieldValidation.STRICT,
                null);
    }

    /** A Deployment {@code web} (app=web) whose pods name their port 8080 "http". */
    public static Deployment web(int replicas) {
        return KubeObjects.deployment("web").replicas(replicas).selector("app", "web").templateLabels("app", "web")
                .containers(container("web").image("nginx").edit(b -> b.setPorts(List.of(ContainerPort.newBuilder()
                        .setName("http").setContainerPort(8080).setProtocol("TCP").build())))).build();
    }
}
