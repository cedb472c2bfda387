package io.eventplane.gateway.fields;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Deployment;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Server-side apply and update field ownership as pure functions, on the Deployment schema. */
class ManagedFieldsTest {
    private static final ObjectMapper M = new ObjectMapper();
    private static final ObjectShape SHAPE = new ObjectShape(Deployment.getClassSchema(), Optional.empty());
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant T1 = Instant.parse("2026-01-01T00:01:00Z");

    private static ObjectNode json(String s) {
        try {
            return (ObjectNode) M.readTree(s.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static final String APPLIED = """
            {'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web','labels':{'app':'web'}},
             'spec':{'replicas':3,'selector':{'matchLabels':{'app':'web'}},'template':{'metadata':{'labels':{'app':'web'}},
             'spec':{'containers':[{'name':'nginx','image':'nginx:1.27','ports':[{'containerPort':80}]}]}}}}""";

    private static ManagedFields.Applied apply(ObjectNode live, String config, String manager, boolean force, Instant t) {
        List<ManagedFields.Entry> entries = live == null ? List.of() : ManagedFields.read(live);
        ManagedFields.Applied a = ManagedFields.apply(SHAPE, live, json(config), entries, manager, "", "apps/v1", force, t);
        ManagedFields.write(a.object(), a.entries());
        return a;
    }

    @Test
    @DisplayName("an apply records FieldsV1 as Kubernetes does: f: fields, k: keyed elements with '.', maps with '.'")
    void fieldsV1Shape() {
        ManagedFields.Applied a = apply(null, APPLIED, "kubectl", false, T0);
        assertEquals(1, a.entries().size());
        ManagedFields.Entry e = a.entries().get(0);
        assertEquals("Apply", e.operation());
        JsonNode f = e.fields().toJson();
        assertTrue(f.path("f:metadata").path("f:labels").has("."), f.toString());
        assertTrue(f.path("f:metadata").path("f:labels").has("f:app"), f.toString());
        assertFalse(f.path("f:metadata").has("f:name"), "name is the server's");
        JsonNode container = f.path("f:spec").path("f:template").path("f:spec").path("f:containers")
                .path("k:{\"name\":\"nginx\"}");
        assertTrue(container.has(".") && container.has("f:image") && container.has("f:name"), f.toString());
        assertTrue(container.path("f:ports").has("k:{\"containerPort\":80,\"protocol\":\"TCP\"}"), f.toString());
        assertTrue(f.path("f:spec").path("f:selector").isObject() && f.path("f:spec").path("f:selector").isEmpty(),
                "a LabelSelector is atomic: " + f);
    }

    @Test
    @DisplayName("a field another manager changed by update conflicts with a different applied value; force takes it")
    void conflictAndForce() {
        ObjectNode live = apply(null, APPLIED, "kubectl", false, T0).object();
        ObjectNode scaled = live.deepCopy();
        ((ObjectNode) scaled.get("spec")).put("replicas", 5);
        List<ManagedFields.Entry> afterScale = ManagedFields.update(SHAPE, live, scaled, ManagedFields.read(live),
                "kubectl-scale", "scale", "apps/v1", T1);
        ManagedFields.write(scaled, afterScale);
        assertEquals(2, afterScale.size());
        assertFalse(afterScale.get(0).fields().contains(List.of("f:spec", "f:replicas")), "the applier lost replicas");

        ManagedFields.ConflictException e = assertThrows(ManagedFields.ConflictException.class,
                () -> apply(scaled, APPLIED, "kubectl", false, T1));
        assertEquals("Apply failed with 1 conflict: conflict with \"kubectl-scale\" with subresource \"scale\" "
                + "using apps/v1: .spec.replicas", e.getMessage());

        ManagedFields.Applied forced = apply(scaled, APPLIED, "kubectl", true, T1);
        assertEquals(3, forced.object().path("spec").path("replicas").asInt());
        assertEquals(1, forced.entries().size(), "the scaler owned nothing else: " + forced.entries());

        // Applying the value the other manager set is no conflict: both now own it (shared ownership).
        ManagedFields.Applied same = apply(scaled, APPLIED.replace("'replicas':3", "'replicas':5"), "kubectl", false, T1);
        assertEquals(2, same.entries().size());
        assertTrue(same.entries().get(0).fields().contains(List.of("f:spec", "f:replicas")));
        assertTrue(same.entries().get(1).fields().contains(List.of("f:spec", "f:replicas")));
    }

    @Test
    @DisplayName("fields this manager applied before and no longer applies are removed, unless another manager owns them")
    void removal() {
        ObjectNode live = apply(null, APPLIED.replace("'labels':{'app':'web'}},", "'labels':{'app':'web','tier':'fe'}},"),
                "kubectl", false, T0).object();
        assertEquals("fe", live.path("metadata").path("labels").path("tier").asText());
        ObjectNode labelled = live.deepCopy();
        ((ObjectNode) labelled.path("metadata").path("labels")).put("team", "a");
        ManagedFields.write(labelled, ManagedFields.update(SHAPE, live, labelled, ManagedFields.read(live),
                "kubectl-label", "", "apps/v1", T1));

        ObjectNode next = apply(labelled, APPLIED, "kubectl", false, T1).object();
        JsonNode labels = next.path("metadata").path("labels");
        assertFalse(labels.has("tier"), "dropped from the configuration: " + labels);
        assertEquals("a", labels.path("team").asText(), "owned by kubectl-label, kept");
        assertEquals("web", labels.path("app").asText());

        ObjectNode sidecar = apply(next, APPLIED.replace("'ports':[{'containerPort':80}]}]",
                "'ports':[{'containerPort':80}]},{'name':'log','image':'busybox'}]"), "kubectl", false, T1).object();
        assertEquals(2, sidecar.path("spec").path("template").path("spec").path("containers").size());
        ObjectNode without = apply(sidecar, APPLIED, "kubectl", false, T1).object();
        assertEquals(1, without.path("spec").path("template").path("spec").path("containers").size(),
                "the keyed element went away with the configuration");
    }

    @Test
    @DisplayName("a second manager applying other fields merges without conflict; an unchanged apply keeps the entry time")
    void twoAppliers() {
        ObjectNode live = apply(null, APPLIED, "kubectl", false, T0).object();
        ManagedFields.Applied other = apply(live, """
                {'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'web','annotations':{'team':'x'}}}""",
                "ops", false, T1);
        assertEquals("x", other.object().path("metadata").path("annotations").path("team").asText());
        assertEquals(3, other.object().path("spec").path("replicas").asInt());
        ManagedFields.Applied again = apply(other.object(), APPLIED, "kubectl", false, T1);
        assertEquals(T0.toString(), again.entries().get(0).time(), "an unchanged apply does not touch the time");
        assertEquals(Kinds.DEPLOYMENT.apiVersion(), again.entries().get(0).apiVersion());
    }
}
