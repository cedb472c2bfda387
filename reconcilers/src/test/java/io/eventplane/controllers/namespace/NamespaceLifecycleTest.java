package io.eventplane.controllers.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.Workloads;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Conditions;
import io.eventplane.log.CommandOutcome;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.Deployment;
import io.eventplane.model.Namespace;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ServiceAccount;
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
}
