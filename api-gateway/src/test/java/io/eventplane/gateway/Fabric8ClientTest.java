package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** fabric8 7.8 (JDK HTTP client) as a second real client of the gateway. */
class Fabric8ClientTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    private static KubernetesClient client(boolean onlyHttpWatches) {
        Config config = new ConfigBuilder().withMasterUrl(f.url()).withNamespace("default")
                .withOnlyHttpWatches(onlyHttpWatches).withRequestRetryBackoffLimit(0).build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).withLabels(Map.of("app", name)).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("nginx:1.27").endContainer().endSpec().build();
    }

    @Test
    @DisplayName("fabric8 creates, reads, lists by label, edits (JSON patch), waits for a condition and deletes a pod")
    void podRoundTrip() {
        try (KubernetesClient client = client(true)) {
            Pod created = client.pods().resource(pod("fab")).create();
            assertNotNull(created.getMetadata().getUid());
            assertEquals("Pending", client.pods().withName("fab").get().getStatus().getPhase());
            assertEquals(1, client.pods().withLabel("app", "fab").list().getItems().size());
            Pod edited = client.pods().withName("fab").edit(p -> new PodBuilder(p).editMetadata()
                    .addToLabels("edited", "yes").endMetadata().build());
            assertEquals("yes", edited.getMetadata().getLabels().get("edited"));
            Pod seen = client.pods().withName("fab").waitUntilCondition(
                    p -> p != null && "yes".equals(p.getMetadata().getLabels().get("edited")), 20, TimeUnit.SECONDS);
            assertNotNull(seen);
            KubernetesClientException dup = null;
            try {
                client.pods().resource(pod("fab")).create();
            } catch (KubernetesClientException e) {
                dup = e;
            }
            assertNotNull(dup);
            assertEquals(409, dup.getCode());
            assertTrue(client.pods().withName("fab").delete().size() == 1);
            assertNull(client.pods().withName("fab").get());
        }
    }

    @Test
    @DisplayName("a fabric8 watch gets ADDED and DELETED, also when it first tries a WebSocket")
    void watches() throws Exception {
        for (boolean onlyHttp : List.of(true, false)) {
            String name = onlyHttp ? "watched-http" : "watched-ws";
            List<String> events = new CopyOnWriteArrayList<>();
            try (KubernetesClient client = client(onlyHttp);
                 Watch w = client.pods().watch(new Watcher<>() {
                     @Override
                     public void eventReceived(Action action, Pod pod) {
                         if (pod.getMetadata().getName().equals(name)) {
                             events.add(action.name());
                         }
                     }

                     @Override
                     public void onClose(WatcherException cause) {
                     }
                 })) {
                client.pods().resource(pod(name)).create();
                GatewayFixture.awaitTrue("ADDED arrives", () -> events.contains("ADDED"), java.time.Duration.ofSeconds(15));
                client.pods().withName(name).delete();
                GatewayFixture.awaitTrue("DELETED arrives", () -> events.contains("DELETED"), java.time.Duration.ofSeconds(15));
            }
        }
    }

    private static io.fabric8.kubernetes.api.model.apps.Deployment deployment(String name, int replicas) {
        return new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder().withNewMetadata().withName(name)
                .withNamespace("default").endMetadata().withNewSpec().withReplicas(replicas)
                .withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("nginx:1.27").endContainer().endSpec()
                .endTemplate().endSpec().build();
    }

    @Test
    @DisplayName("fabric8: server-side apply creates a deployment, scale (GET+PUT of the scale subresource) takes "
            + "replicas over, the next apply conflicts (409 FieldManagerConflict) until forced; an informer sees it all")
    void serverSideApplyScaleInformer() {
        try (KubernetesClient client = client(false)) {
            List<Integer> seen = new CopyOnWriteArrayList<>();
            var informer = client.apps().deployments().inNamespace("default").inform(
                    new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {
                        @Override
                        public void onAdd(io.fabric8.kubernetes.api.model.apps.Deployment d) {
                            seen.add(d.getSpec().getReplicas());
                        }

                        @Override
                        public void onUpdate(io.fabric8.kubernetes.api.model.apps.Deployment o,
                                             io.fabric8.kubernetes.api.model.apps.Deployment d) {
                            seen.add(d.getSpec().getReplicas());
                        }

                        @Override
                        public void onDelete(io.fabric8.kubernetes.api.model.apps.Deployment d, boolean unknown) {
                        }
                    });
            try {
                var applied = client.apps().deployments().resource(deployment("fab-ssa", 2)).fieldManager("feas")
                        .serverSideApply();
                assertEquals(2, applied.getSpec().getReplicas());
                assertEquals("feas", applied.getMetadata().getManagedFields().get(0).getManager());
                assertEquals("Apply", applied.getMetadata().getManagedFields().get(0).getOperation());

                client.apps().deployments().withName("fab-ssa").scale(4);
                assertEquals(4, client.apps().deployments().withName("fab-ssa").get().getSpec().getReplicas());
                KubernetesClientException conflict = null;
                try {
                    client.apps().deployments().resource(deployment("fab-ssa", 2)).fieldManager("feas").serverSideApply();
                } catch (KubernetesClientException e) {
                    conflict = e;
                }
                assertNotNull(conflict);
                assertEquals(409, conflict.getCode());
                assertTrue(conflict.getStatus().getMessage().startsWith("Apply failed with 1 conflict: conflict with \""),
                        conflict.getStatus().getMessage());
                assertEquals("FieldManagerConflict", conflict.getStatus().getDetails().getCauses().get(0).getReason());
                assertEquals(".spec.replicas", conflict.getStatus().getDetails().getCauses().get(0).getField());

                var forced = client.apps().deployments().resource(deployment("fab-ssa", 2)).fieldManager("feas")
                        .forceConflicts().serverSideApply();
                assertEquals(2, forced.getSpec().getReplicas());
                GatewayFixture.awaitTrue("the informer saw 2, 4 and 2 again",
                        () -> seen.size() >= 3 && seen.get(seen.size() - 1) == 2 && seen.contains(4),
                        java.time.Duration.ofSeconds(20));
                assertTrue(client.apps().deployments().withName("fab-ssa").delete().size() == 1);
            } finally {
                informer.close();
            }
        }
    }
}
