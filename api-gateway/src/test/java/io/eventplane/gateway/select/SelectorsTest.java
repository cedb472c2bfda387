package io.eventplane.gateway.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SelectorsTest {

    @Test
    @DisplayName("label selectors: equality, inequality, sets, existence and numeric comparison")
    void labels() {
        Map<String, String> l = Map.of("app", "web", "tier", "front", "n", "5");
        assertTrue(LabelSelector.parse("app=web,tier==front").matches(l));
        assertTrue(LabelSelector.parse("app in (db, web),!missing,n>3").matches(l));
        assertFalse(LabelSelector.parse("app notin (web)").matches(l));
        assertTrue(LabelSelector.parse("missing!=x").matches(l));
        assertFalse(LabelSelector.parse("missing").matches(l));
        assertTrue(LabelSelector.parse("").matches(null));
        assertThrows(ApiException.class, () -> LabelSelector.parse("app in (x"));
        assertThrows(ApiException.class, () -> LabelSelector.parse("a b c"));
    }

    @Test
    @DisplayName("field selectors read the object's fields, absent fields read as empty, unknown fields are refused")
    void fields() {
        Pod pod = Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("p").setNamespace("ns").build())
                .setSpec(PodSpec.newBuilder().setNodeName("n1").build())
                .setStatus(PodStatus.newBuilder().setPhase("Running").build()).build();
        assertTrue(FieldSelector.parse("metadata.name=p,spec.nodeName==n1", Kinds.POD).matches(pod));
        assertTrue(FieldSelector.parse("status.phase!=Pending,status.podIP=", Kinds.POD).matches(pod));
        assertTrue(FieldSelector.parse("spec.hostNetwork=false", Kinds.POD).matches(pod));
        assertFalse(FieldSelector.parse("metadata.namespace=other", Kinds.POD).matches(pod));
        assertEquals("p", FieldSelector.parse("metadata.name=p", Kinds.POD).exactName());
        ApiException e = assertThrows(ApiException.class, () -> FieldSelector.parse("spec.nodeName=x", Kinds.NODE));
        assertEquals(400, e.status().code());
    }
}
