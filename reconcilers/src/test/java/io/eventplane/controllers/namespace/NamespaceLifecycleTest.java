package io.eventplane.controllers.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.Workloads;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Conditions;
import io.eventplane.log.CommandOutcome;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.Deployment;
import io.eventplane.model.Namespace;
import io.eventplane.model.NamespaceCondition;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ServiceAccount;
import io.eventplane.model.apiextensions.CustomObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The namespace and service account controllers in the simulated cluster, with the real writer. */
class NamespaceLifecycleTest {
    private final SimulatedCluster cluster = new SimulatedCluster();

    private void createNamespace(String name) {
        assertTrue(cluster.create(Namespace.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).build())
                .build()).getAccepted());
    }

    private Namespace namespace(String name) {
        return cluster.get(Namespace.class, "", name);
    }

    private Deployment deploymentIn(String namespace) {
        Deployment d = Workloads.nginxDeployment(2);
        return Deployment.newBuilder(d).setMetadata(ObjectMeta.newBuilder(d.getMetadata()).setNamespace(namespace).build())
                .build();
    }

    @Test
    @DisplayName("every active namespace has a default ServiceAccount, created again when it is deleted")
    void defaultServiceAccount() {
        createNamespace("shop");
        cluster.settle();
        ServiceAccount sa = cluster.get(ServiceAccount.class, "shop", "default");
        assertNotNull(sa);
        CommandOutcome deleted = cluster.submit(new io.eventplane.client.Commands("test", cluster.clock)
                .delete(Kinds.SERVICE_ACCOUNT, "shop", "default", null, null));
        assertTrue(deleted.getAccepted());
        cluster.settle();
        ServiceAccount again = cluster.get(ServiceAccount.class, "shop", "default");
        assertNotNull(again);
        assertFalse(again.getMetadata().getUid().equals(sa.getMetadata().getUid()), "a new one");
    }

    @Test
    @DisplayName("kubectl delete ns: Terminating, its Deployment, ReplicaSet, pods, ServiceAccount and ConfigMap deleted, then the namespace goes")
    void deleteNamespaceWithContent() {
        createNamespace("shop");
        createNamespace("other");
        assertTrue(cluster.create(deploymentIn("shop")).getAccepted());
        assertTrue(cluster.create(deploymentIn("other")).getAccepted());
        assertTrue(cluster.create(ConfigMap.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("settings")
                .setNamespace("shop").build()).build()).getAccepted());
        cluster.settle();
        assertEquals(2, cluster.listIn(Pod.class, "shop").size());

        assertTrue(cluster.deleteNamespace("shop").getAccepted());
        assertEquals("Terminating", namespace("shop").getStatus().getPhase());
        // The writer alone takes a late create (the API's admission refuses it); the controller removes it too.
        assertTrue(cluster.create(ConfigMap.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("late")
                .setNamespace("shop").build()).build()).getAccepted());

        boolean sawRemaining = false;
        for (int i = 0; i < 50 && namespace("shop") != null; i++) {
            cluster.step();
            Namespace ns = namespace("shop");
            if (ns != null && Conditions.isTrue(ns.getStatus().getConditions(), "NamespaceContentRemaining")) {
                sawRemaining = true;
            }
        }
        assertNull(namespace("shop"), "the namespace went once it was empty");
        assertTrue(sawRemaining, "while pods terminated, NamespaceContentRemaining said so");
        for (Class<?> type : new Class<?>[] {Deployment.class, ReplicaSet.class, Pod.class, ServiceAccount.class,
                ConfigMap.class}) {
            assertTrue(cluster.listIn(type, "shop").isEmpty(), type.getSimpleName() + " left in shop");
        }
        assertEquals(2, cluster.listIn(Pod.class, "other").size(), "other namespaces keep theirs");
        assertNotNull(cluster.get(ServiceAccount.class, "other", "default"));
    }

    /** A namespaced kind of a definition only this test uses (custom kinds are process-wide). */
    private static final String GADGETS = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"gadgets.nstest.example.com"},
             "spec":{"group":"nstest.example.com","scope":"Namespaced",
              "names":{"plural":"gadgets","singular":"gadget","kind":"Gadget"},
              "versions":[{"name":"v1","served":true,"storage":true,
               "schema":{"openAPIV3Schema":{"type":"object","properties":{
                "spec":{"type":"object","properties":{"size":{"type":"integer"}}}}}}}]}}""";

    private static CustomObject gadget(String namespace, String name, String... finalizers) {
        ObjectMeta.Builder meta = ObjectMeta.newBuilder().setName(name).setNamespace(namespace);
        if (finalizers.length > 0) {
            meta.setFinalizers(List.of(finalizers));
        }
        return CustomObject.newBuilder().setApiVersion("nstest.example.com/v1").setKind("Gadget")
                .setMetadata(meta.build()).setContent("{\"spec\":{\"size\":1}}").build();
    }

    private CustomObject gadgetIn(String namespace, String name) {
        return cluster.view().get("Gadget.nstest.example.com", namespace, name).map(c -> (CustomObject) c.getObject()).orElse(null);
    }

    private static String condition(Namespace ns, String type) {
        NamespaceCondition c = ns.getStatus().getConditions().stream().filter(x -> x.getType().equals(type))
                .findFirst().orElseThrow();
        return c.getStatus() + " " + c.getReason() + ": " + c.getMessage();
    }

    @Test
    @DisplayName("kubectl delete ns: objects of a namespaced CustomResourceDefinition's kind are deleted too, the "
            + "conditions count what a finalizer holds by resource, and the namespace goes once they are gone")
    void deleteNamespaceWithCustomObjects() {
        assertTrue(cluster.create(KubeJson.get().parseObject(GADGETS.getBytes(StandardCharsets.UTF_8),
                Kinds.CUSTOM_RESOURCE_DEFINITION, FieldValidation.STRICT, null)).getAccepted());
        createNamespace("lab");
        createNamespace("other");
        assertTrue(cluster.create(gadget("lab", "plain")).getAccepted());
        assertTrue(cluster.create(gadget("lab", "held", "example.com/hold")).getAccepted());
        assertTrue(cluster.create(gadget("other", "kept")).getAccepted());
        cluster.settle();

        assertTrue(cluster.deleteNamespace("lab").getAccepted());
        cluster.settle();
        assertNull(gadgetIn("lab", "plain"), "deleted with the namespace");
        assertNotNull(gadgetIn("lab", "held").getMetadata().getDeletionTimestamp(), "deleted, held by its finalizer");
        Namespace ns = namespace("lab");
        assertEquals("Terminating", ns.getStatus().getPhase());
        assertEquals("True SomeResourcesRemain: Some resources are remaining: gadgets.nstest.example.com has 1 "
                + "resource instances", condition(ns, "NamespaceContentRemaining"));
        assertEquals("True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: "
                + "example.com/hold in 1 resource instances", condition(ns, "NamespaceFinalizersRemaining"));
        assertEquals("False ContentDeleted: All content successfully deleted, may be waiting on finalization",
                condition(ns, "NamespaceDeletionContentFailure"));

        CustomObject held = gadgetIn("lab", "held");
        assertTrue(cluster.update(CustomObject.newBuilder(held).setMetadata(ObjectMeta.newBuilder(held.getMetadata())
                .setFinalizers(List.of()).build()).build()).getAccepted());
        cluster.settle();
        assertNull(gadgetIn("lab", "held"));
        assertNull(namespace("lab"), "the namespace went once its custom objects were gone");
        assertNotNull(gadgetIn("other", "kept"), "other namespaces keep theirs");
    }
}
