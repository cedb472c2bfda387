package io.eventplane.controllers.crdnaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.Keys;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionCondition;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The naming controller's requeue: names a deleted definition held go to the one that asked for them. */
class CrdNamingControllerTest {
    final SimulatedCluster cluster = new SimulatedCluster();
    final String group = "r" + UUID.randomUUID().toString().substring(0, 8) + ".example.com";

    @Test
    @DisplayName("CRD-39 a definition refused for a kind another definition of its group held is Established once "
            + "that one is deleted; the definition's change wakes the group's refused definitions")
    void freedNamesAreTaken() {
        assertTrue(cluster.create(crd("widgets", "Widget")).getAccepted());
        assertTrue(cluster.create(crd("gizmos", "Widget")).getAccepted());
        cluster.settle();
        assertEquals("False ListKindConflict \"WidgetList\" is already in use", namesAccepted(get("gizmos")),
                "singular, kind and list kind are taken: the last conflict found is reported, as upstream does");
        assertFalse(CustomKinds.established(get("gizmos")));

        var widgets = cluster.view().get(Keys.of(Kinds.CUSTOM_RESOURCE_DEFINITION.kind(), "", "widgets." + group))
                .orElseThrow();
        assertEquals(List.of(Keys.of(Kinds.CUSTOM_RESOURCE_DEFINITION.kind(), "", "gizmos." + group)),
                List.copyOf(new CrdNamingReconciler().keysFor(widgets, null, cluster.view())));

        assertTrue(cluster.deleteClusterScoped(Kinds.CUSTOM_RESOURCE_DEFINITION, "widgets." + group).getAccepted());
        cluster.settle();
        assertNull(get("widgets"), "the crd-finalizer released it");
        assertEquals("True NoConflicts no conflicts found", namesAccepted(get("gizmos")));
        assertTrue(CustomKinds.established(get("gizmos")));
        assertTrue(CustomKinds.byKind("Widget." + group).isPresent(), "gizmos serves Widget now");
    }

    private CustomResourceDefinition get(String plural) {
        return cluster.get(CustomResourceDefinition.class, "", plural + "." + group);
    }

    private static String namesAccepted(CustomResourceDefinition crd) {
        for (CustomResourceDefinitionCondition c : crd.getStatus().getConditions()) {
            if (c.getType().equals("NamesAccepted")) {
                return c.getStatus() + " " + c.getReason() + " " + c.getMessage();
            }
        }
        return "none";
    }

    private CustomResourceDefinition crd(String plural, String kind) {
        String json = """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"%s.%s"},
                 "spec":{"group":"%s","scope":"Namespaced","names":{"plural":"%s","kind":"%s"},
                  "versions":[{"name":"v1","served":true,"storage":true,
                   "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}"""
                .formatted(plural, group, group, plural, kind);
        return (CustomResourceDefinition) KubeJson.get().parseObject(json.getBytes(StandardCharsets.UTF_8),
                Kinds.CUSTOM_RESOURCE_DEFINITION, FieldValidation.STRICT, null);
    }
}
