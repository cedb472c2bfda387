package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * fabric8 7.8's custom-resource clients against the gateway (issue 26 item 5): the generic client
 * (GenericKubernetesResource over a ResourceDefinitionContext) and a typed CustomResource class, on a kind defined
 * through the API, with a CEL rule in its schema.
 */
class Fabric8CustomResourceTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();
    private static final ResourceDefinitionContext DIALS = new ResourceDefinitionContext.Builder()
            .withGroup("fab.example.com").withVersion("v1").withPlural("dials").withKind("Dial").withNamespaced(true)
            .build();

    static KubernetesClient client() {
        Config config = new ConfigBuilder().withMasterUrl(f.url()).withNamespace("default")
                .withRequestRetryBackoffLimit(0).build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    @BeforeAll
    static void defineDials() throws Exception {
        try (KubernetesClient client = client(); InputStream in = Fabric8CustomResourceTest.class
                .getResourceAsStream("/crd/dial-crd.yaml")) {
            CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions().load(in).item();
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
            client.apiextensions().v1().customResourceDefinitions().withName("dials.fab.example.com")
                    .waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions().stream()
                            .anyMatch(x -> x.getType().equals("Established") && x.getStatus().equals("True")),
                            30, java.util.concurrent.TimeUnit.SECONDS);
            GatewayFixture.awaitTrue("dials are served",
                    () -> f.get("/apis/fab.example.com/v1").statusCode() == 200, Duration.ofSeconds(20));
        }
    }

    private static GenericKubernetesResource dial(String name, int level, Map<String, String> labels) {
        return new GenericKubernetesResourceBuilder().withApiVersion("fab.example.com/v1").withKind("Dial")
                .withMetadata(new ObjectMetaBuilder().withName(name).withLabels(labels).build())
                .addToAdditionalProperties("spec", Map.of("level", level)).build();
    }

    @SuppressWarnings("unchecked")
    private static Object spec(GenericKubernetesResource r, String field) {
        return ((Map<String, Object>) r.getAdditionalProperties().get("spec")).get(field);
    }

    @Test
    @DisplayName("CRD-12 generic client: create (defaulted), get, list by label and by field selector "
            + "(metadata.name, metadata.namespace), merge and JSON patch, edit, status update, server-side apply, "
            + "a CEL rule refusing 422, deletecollection and delete")
    void genericClient() {
        try (KubernetesClient client = client()) {
            var dials = client.genericKubernetesResources(DIALS).inNamespace("default");
            GenericKubernetesResource created = dials.resource(dial("d1", 3, Map.of("tier", "a"))).create();
            assertNotNull(created.getMetadata().getUid());
            assertEquals(10, spec(created, "max"), "defaulted from the schema");
            dials.resource(dial("d2", 4, Map.of("tier", "b"))).create();
            dials.resource(dial("d3", 5, Map.of("tier", "b"))).create();
            assertEquals(3, spec(dials.withName("d1").get(), "level"));
            assertEquals(List.of("d2", "d3"), names(dials.withLabel("tier", "b").list().getItems()));
            assertEquals(List.of("d2"), names(dials.withField("metadata.name", "d2").list().getItems()));
            assertEquals(3, client.genericKubernetesResources(DIALS).inAnyNamespace()
                    .withField("metadata.namespace", "default").list().getItems().size());

            GenericKubernetesResource merged = dials.withName("d1").patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"spec\":{\"color\":\"red\"}}");
            assertEquals("red", spec(merged, "color"));
            GenericKubernetesResource jsonPatched = dials.withName("d1").patch(PatchContext.of(PatchType.JSON),
                    "[{\"op\":\"replace\",\"path\":\"/spec/level\",\"value\":6}]");
            assertEquals(6, spec(jsonPatched, "level"));
            GenericKubernetesResource edited = dials.withName("d1").edit(r -> new GenericKubernetesResourceBuilder(r)
                    .editMetadata().addToLabels("edited", "yes").endMetadata().build());
            assertEquals("yes", edited.getMetadata().getLabels().get("edited"));

            GenericKubernetesResource withStatus = dials.withName("d1").get();
            withStatus.setAdditionalProperty("status", Map.of("seen", 6));
            GenericKubernetesResource statusUpdated = dials.resource(withStatus).updateStatus();
            assertEquals(Map.of("seen", 6), statusUpdated.getAdditionalProperties().get("status"));

            GenericKubernetesResource applied = dials.resource(dial("d4", 2, Map.of("tier", "c")))
                    .fieldManager("fab-test").serverSideApply();
            assertEquals("fab-test", applied.getMetadata().getManagedFields().get(0).getManager());
            assertEquals(10, spec(applied, "max"));

            KubernetesClientException refused = null;
            try {
                dials.resource(dial("d5", 11, Map.of())).create();
            } catch (KubernetesClientException e) {
                refused = e;
            }
            assertNotNull(refused, "level 11 > max 10");
            assertEquals(422, refused.getCode());
            assertTrue(refused.getStatus().getMessage().contains(
                    "spec: Invalid value: \"object\": level must not exceed max"), refused.getStatus().getMessage());

            dials.withLabel("tier", "b").delete();
            GatewayFixture.awaitTrue("tier b is gone", () -> dials.withLabel("tier", "b").list().getItems().isEmpty(),
                    Duration.ofSeconds(10));
            assertEquals(List.of("d1", "d4"), names(dials.list().getItems()));
            assertEquals(1, dials.withName("d4").delete().size());
            assertEquals(1, dials.withName("d1").delete().size());
            assertNull(dials.withName("d1").get());
        }
    }

    @Test
    @DisplayName("CRD-12 generic client watch: ADDED, MODIFIED and DELETED of a custom object")
    void genericWatch() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (KubernetesClient client = client();
             Watch w = client.genericKubernetesResources(DIALS).inNamespace("default").watch(new Watcher<>() {
                 @Override
                 public void eventReceived(Action action, GenericKubernetesResource r) {
                     if (r.getMetadata().getName().equals("watched")) {
                         events.add(action.name());
                     }
                 }

                 @Override
                 public void onClose(WatcherException cause) {
                 }
             })) {
            var dials = client.genericKubernetesResources(DIALS).inNamespace("default");
            dials.resource(dial("watched", 1, Map.of())).create();
            dials.withName("watched").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"level\":2}}");
            dials.withName("watched").delete();
            GatewayFixture.awaitTrue("ADDED, MODIFIED, DELETED arrive", () -> events.contains("DELETED"),
                    Duration.ofSeconds(15));
            assertEquals(List.of("ADDED", "MODIFIED", "DELETED"), events);
        }
    }

    /** The typed client's kind: a CustomResource class with spec and status. */
    @Group("fab.example.com")
    @Version("v1")
    public static class Dial extends CustomResource<DialSpec, DialStatus> implements Namespaced {
    }

    public static class DialSpec {
        private Integer level;
        private Integer max;
        private String color;

        public Integer getLevel() {
            return level;
        }

        public void setLevel(Integer level) {
            this.level = level;
        }

        public Integer getMax() {
            return max;
        }

        public void setMax(Integer max) {
            this.max = max;
        }

        public String getColor() {
            return color;
        }

        public void setColor(String color) {
            this.color = color;
        }
    }

    public static class DialStatus {
        private Integer seen;

        public Integer getSeen() {
            return seen;
        }

        public void setSeen(Integer seen) {
            this.seen = seen;
        }
    }

    private static Dial typed(String name, int level) {
        Dial d = new Dial();
        d.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(Map.of("typed", "yes")).build());
        DialSpec spec = new DialSpec();
        spec.setLevel(level);
        d.setSpec(spec);
        return d;
    }

    @Test
    @DisplayName("CRD-13 typed client (a CustomResource class): create, get, list by label, watch, edit, merge "
            + "patch, status update, server-side apply, field selector, deletecollection")
    void typedClient() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        try (KubernetesClient client = client()) {
            MixedOperation<Dial, io.fabric8.kubernetes.api.model.KubernetesResourceList<Dial>, Resource<Dial>> all =
                    client.resources(Dial.class);
            NonNamespaceOperation<Dial, io.fabric8.kubernetes.api.model.KubernetesResourceList<Dial>, Resource<Dial>>
                    dials = all.inNamespace("default");
            try (Watch w = dials.withLabel("typed", "yes").watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Dial d) {
                    events.add(action.name() + " " + d.getMetadata().getName());
                }

                @Override
                public void onClose(WatcherException cause) {
                }
            })) {
                Dial created = dials.resource(typed("t1", 1)).create();
                assertEquals(10, created.getSpec().getMax());
                dials.resource(typed("t2", 2)).create();
                assertEquals(2, dials.withName("t2").get().getSpec().getLevel());
                assertEquals(2, dials.withLabel("typed", "yes").list().getItems().size());
                assertEquals("t1", dials.withField("metadata.name", "t1").list().getItems().get(0).getMetadata().getName());
                Dial edited = dials.withName("t1").edit(d -> {
                    d.getSpec().setColor("blue");
                    return d;
                });
                assertEquals("blue", edited.getSpec().getColor());
                Dial patched = dials.withName("t1").patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"level\":4}}");
                assertEquals(4, patched.getSpec().getLevel());
                DialStatus status = new DialStatus();
                status.setSeen(4);
                patched.setStatus(status);
                assertEquals(4, dials.resource(patched).updateStatus().getStatus().getSeen());
                assertEquals(4, dials.withName("t1").get().getStatus().getSeen());
                Dial applied = dials.resource(typed("t3", 7)).fieldManager("typed-test").serverSideApply();
                assertEquals(7, applied.getSpec().getLevel());
                GatewayFixture.awaitTrue("the watch saw t1 added and modified",
                        () -> events.contains("ADDED t1") && events.contains("MODIFIED t1") && events.contains("ADDED t3"),
                        Duration.ofSeconds(15));
                dials.withLabel("typed", "yes").delete();
                GatewayFixture.awaitTrue("the watch saw every one deleted", () -> events.contains("DELETED t1")
                        && events.contains("DELETED t2") && events.contains("DELETED t3"), Duration.ofSeconds(15));
                assertTrue(dials.list().getItems().isEmpty());
            }
        }
    }

    private static List<String> names(List<? extends io.fabric8.kubernetes.api.model.HasMetadata> items) {
        return items.stream().map(i -> i.getMetadata().getName()).sorted().toList();
    }
}
