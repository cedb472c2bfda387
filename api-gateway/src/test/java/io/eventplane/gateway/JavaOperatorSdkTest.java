package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An operator written with the Java Operator SDK (5.2, on our fabric8 7.8) runs against a running Eventplane (issue
 * 26 item 5): its CRD applied through the API, its custom objects reconciled into Deployments owned by them, their
 * status written through the status subresource; the garbage collector deletes a Deployment once its WebApp is gone.
 */
class JavaOperatorSdkTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture(GatewayFixture.CONTROLLERS + ",garbagecollector");
    private static KubernetesClient client;
    private static Operator operator;

    @Group("ops.example.com")
    @Version("v1")
    public static class WebApp extends CustomResource<WebAppSpec, WebAppStatus> implements Namespaced {
    }

    public static class WebAppSpec {
        private String image;
        private Integer replicas;

        public String getImage() {
            return image;
        }

        public void setImage(String image) {
            this.image = image;
        }

        public Integer getReplicas() {
            return replicas;
        }

        public void setReplicas(Integer replicas) {
            this.replicas = replicas;
        }
    }

    public static class WebAppStatus {
        private String deployment;
        private Integer replicas;
        private Long observedGeneration;

        public String getDeployment() {
            return deployment;
        }

        public void setDeployment(String deployment) {
            this.deployment = deployment;
        }

        public Integer getReplicas() {
            return replicas;
        }

        public void setReplicas(Integer replicas) {
            this.replicas = replicas;
        }

        public Long getObservedGeneration() {
            return observedGeneration;
        }

        public void setObservedGeneration(Long observedGeneration) {
            this.observedGeneration = observedGeneration;
        }
    }

    /** The operator: a WebApp becomes a Deployment of its image and replicas, owned by it; status says so. */
    @ControllerConfiguration(name = "webapp")
    public static class WebAppReconciler implements Reconciler<WebApp> {
        @Override
        public UpdateControl<WebApp> reconcile(WebApp app, Context<WebApp> context) {
            String name = app.getMetadata().getName();
            Map<String, String> labels = Map.of("app", name);
            Deployment desired = new DeploymentBuilder()
                    .withNewMetadata().withName(name).withNamespace(app.getMetadata().getNamespace())
                    .withLabels(labels).withOwnerReferences(new OwnerReferenceBuilder()
                            .withApiVersion(app.getApiVersion()).withKind(app.getKind()).withName(name)
                            .withUid(app.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true)
                            .build()).endMetadata()
                    .withNewSpec().withReplicas(app.getSpec().getReplicas())
                    .withNewSelector().withMatchLabels(labels).endSelector()
                    .withNewTemplate().withNewMetadata().withLabels(labels).endMetadata()
                    .withNewSpec().addNewContainer().withName("web").withImage(app.getSpec().getImage()).endContainer()
                    .endSpec().endTemplate().endSpec().build();
            context.getClient().apps().deployments().resource(desired).fieldManager("webapp-operator").forceConflicts()
                    .serverSideApply();
            WebAppStatus status = new WebAppStatus();
            status.setDeployment(name);
            status.setReplicas(app.getSpec().getReplicas());
            status.setObservedGeneration(app.getMetadata().getGeneration());
            app.setStatus(status);
            return UpdateControl.patchStatus(app);
        }
    }

    @BeforeAll
    static void startOperator() throws Exception {
        Config config = new ConfigBuilder().withMasterUrl(f.url()).withNamespace("default")
                .withRequestRetryBackoffLimit(0).build();
        client = new KubernetesClientBuilder().withConfig(config).build();
        try (InputStream in = JavaOperatorSdkTest.class.getResourceAsStream("/crd/webapp-crd.yaml")) {
            CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions().load(in).item();
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        }
        GatewayFixture.awaitTrue("webapps are served", () -> f.get("/apis/ops.example.com/v1").statusCode() == 200,
                Duration.ofSeconds(20));
        operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
        operator.register(new WebAppReconciler());
        operator.start();
    }

    @AfterAll
    static void stopOperator() {
        if (operator != null) {
            operator.stop();
        }
        if (client != null) {
            client.close();
        }
    }

    private static WebApp webApp(String name, String image, int replicas) {
        WebApp app = new WebApp();
        app.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        WebAppSpec spec = new WebAppSpec();
        spec.setImage(image);
        spec.setReplicas(replicas);
        app.setSpec(spec);
        return app;
    }

    private static Deployment deployment(String name) {
        return client.apps().deployments().inNamespace("default").withName(name).get();
    }

    @Test
    @DisplayName("CRD-14 Java Operator SDK: a WebApp is reconciled into an owned Deployment and its status updated; a "
            + "spec change updates the Deployment; deleting the WebApp garbage-collects the Deployment")
    void operatorReconcilesWebApps() {
        var webApps = client.resources(WebApp.class).inNamespace("default");
        WebApp created = webApps.resource(webApp("shop", "nginx:1.27", 2)).create();

        GatewayFixture.awaitTrue("the operator creates the Deployment", () -> deployment("shop") != null,
                Duration.ofSeconds(30));
        Deployment d = deployment("shop");
        assertEquals(2, d.getSpec().getReplicas());
        assertEquals("nginx:1.27", d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals(created.getMetadata().getUid(), d.getMetadata().getOwnerReferences().get(0).getUid());
        assertEquals("WebApp", d.getMetadata().getOwnerReferences().get(0).getKind());
        GatewayFixture.awaitTrue("the operator writes the status", () -> {
            WebApp app = webApps.withName("shop").get();
            return app.getStatus() != null && "shop".equals(app.getStatus().getDeployment())
                    && Integer.valueOf(2).equals(app.getStatus().getReplicas());
        }, Duration.ofSeconds(30));
        assertEquals(1L, webApps.withName("shop").get().getMetadata().getGeneration(), "status leaves generation");

        webApps.withName("shop").edit(app -> {
            app.getSpec().setReplicas(3);
            app.getSpec().setImage("nginx:1.28");
            return app;
        });
        GatewayFixture.awaitTrue("the spec change reaches the Deployment", () -> {
            Deployment changed = deployment("shop");
            return changed.getSpec().getReplicas() == 3
                    && "nginx:1.28".equals(changed.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        }, Duration.ofSeconds(30));
        GatewayFixture.awaitTrue("status follows the spec", () -> {
            WebAppStatus status = webApps.withName("shop").get().getStatus();
            return status != null && Integer.valueOf(3).equals(status.getReplicas())
                    && Long.valueOf(2).equals(status.getObservedGeneration());
        }, Duration.ofSeconds(30));

        assertTrue(webApps.withName("shop").delete().size() == 1);
        GatewayFixture.awaitTrue("the garbage collector deletes the owned Deployment", () -> deployment("shop") == null,
                Duration.ofSeconds(30));
    }
}
