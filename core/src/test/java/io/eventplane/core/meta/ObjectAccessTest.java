package io.eventplane.core.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.model.ObjectMeta;
import io.eventplane.model.apiextensions.CustomObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ObjectAccessTest {
    @Test
    @DisplayName("CRD-42 a custom object's status update keeps its apiVersion and kind (what names its kind), its "
            + "identity and status, and leaves the content out")
    void statusOnlyCustomObject() {
        CustomObject shop = CustomObject.newBuilder().setApiVersion("shop.example.com/v1").setKind("WebApp")
                .setMetadata(ObjectMeta.newBuilder().setName("shop").setNamespace("default").setUid("u1")
                        .setResourceVersion("7").setLabels(java.util.Map.of("a", "b")).build())
                .setContent("{\"spec\":{\"replicas\":3}}").setStatus("{\"replicas\":3}").build();
        CustomObject slim = ObjectAccess.statusOnly(shop);
        assertEquals("shop.example.com/v1", slim.getApiVersion());
        assertEquals("WebApp", slim.getKind());
        assertEquals("{\"replicas\":3}", slim.getStatus());
        assertNull(slim.getContent());
        ObjectMeta meta = slim.getMetadata();
        assertEquals("shop default u1 7", meta.getName() + " " + meta.getNamespace() + " " + meta.getUid() + " "
                + meta.getResourceVersion());
        assertNull(meta.getLabels());
    }
}
