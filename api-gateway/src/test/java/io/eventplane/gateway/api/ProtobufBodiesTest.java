package io.eventplane.gateway.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.wire.ApiException;
import java.util.HexFormat;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProtobufBodiesTest {
    /** The exact body kubectl 1.32 posts for {@code kubectl create namespace demo}. */
    private static final byte[] CREATE_NS_DEMO = HexFormat.of().parseHex(
            "6b3873000a0f0a02763112094e616d657370616365121c0a140a0464656d6f12001a0022002a00320038004200120"
                    + "01a020a001a002200");

    @Test
    @DisplayName("kubectl create namespace's protobuf body reads as the Namespace it describes")
    void kubectlCreateNamespace() {
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"demo\"},\"spec\":{}}",
                ProtobufBodies.decode(CREATE_NS_DEMO, Kinds.NAMESPACE).toString());
    }

    @Test
    @DisplayName("protobuf for other kinds answers 415, garbage answers 400")
    void otherKindsAndGarbage() {
        assertEquals(415, assertThrows(ApiException.class,
                () -> ProtobufBodies.decode(CREATE_NS_DEMO, Kinds.POD)).status().code());
        assertEquals(400, assertThrows(ApiException.class,
                () -> ProtobufBodies.decode(new byte[]{'k', '8', 's', 0, 0x0a, 0x7f}, Kinds.NAMESPACE)).status().code());
        assertEquals(400, assertThrows(ApiException.class,
                () -> ProtobufBodies.decode("{}".getBytes(), Kinds.NAMESPACE)).status().code());
    }
}
