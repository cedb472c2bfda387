package io.eventplane.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.customavro.CustomAvroSchemas;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.schemas.serde.AvroSerde;
import io.eventplane.schemas.serde.MockSchemaRegistry;
import io.eventplane.schemas.serde.SchemaRegistryClient;
import io.eventplane.schemas.serde.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The changes serde with custom objects typed on the log, against the in-JVM registry. */
class CustomObjectStorageTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String SCOPE = "crdavro-" + UUID.randomUUID();
    private static final String CRD = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"gizmos.storage.example.com","resourceVersion":"7"},
             "spec":{"group":"storage.example.com","scope":"Namespaced",
              "names":{"plural":"gizmos","singular":"gizmo","kind":"Gizmo"},
              "versions":[{"name":"v1","served":true,"storage":true,
               "schema":{"openAPIV3Schema":{"type":"object","properties":{
                "spec":{"type":"object","properties":{"size":{"type":"integer"},
                 "port":{"x-kubernetes-int-or-string":true},
                 "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
                "status":{"type":"object","properties":{"ready":{"type":"boolean"}}}}}}}]},
             "status":{"conditions":[{"type":"Established","status":"True"}]}}""";

    private static final EventplaneConfig CONFIG = new EventplaneConfig("localhost:1", "mock://" + SCOPE);

    @BeforeAll
    static void define() {
        CustomKinds.define(crd());
    }

    @AfterAll
    static void forget() {
        CustomKinds.forget("gizmos.storage.example.com", Long.MAX_VALUE);
    }

    private static CustomResourceDefinition crd() {
        return (CustomResourceDefinition) KubeJson.get().parseObject(CRD.getBytes(StandardCharsets.UTF_8),
                Kinds.CUSTOM_RESOURCE_DEFINITION, FieldValidation.STRICT, null);
    }

    private static ObjectChanged change(Object object) {
        return ObjectChanged.newBuilder().setEnvelope(Envelope.newBuilder().setActor("test").setRequestId("r")
                        .setTime(java.time.Instant.EPOCH).build())
                .setType(ChangeType.CREATED).setKind("Gizmo").setNamespace("default").setName("g").setUid("u")
                .setResourceVersion(8).setObject(object).build();
    }

    private static CustomObject gizmo(String apiVersion, String content, String status) {
        return CustomObject.newBuilder().setApiVersion(apiVersion).setKind("Gizmo")
                .setMetadata(ObjectMeta.newBuilder().setName("g").setNamespace("default").build())
                .setContent(content).setStatus(status).build();
    }

    /** The log's record as a reader without the custom storage sees it. */
    private static CustomObject raw(byte[] bytes) {
        try (AvroSerde<ObjectChanged> plain = new AvroSerde<>(ObjectChanged.class, MockSchemaRegistry.forScope(SCOPE))) {
            return (CustomObject) plain.deserializer().deserialize("events", bytes).getObject();
        }
    }

    @Test
    @DisplayName("CRD-16 a custom object is stored as typed Avro (wire format with the subject's schema id) and read "
            + "back as the same JSON, preserve-unknown and int-or-string parts included")
    void typedRoundTrip() throws Exception {
        Serde<ObjectChanged> serde = LogSerdes.changes(CONFIG);
        serde.serializer().serialize("events", change(crd()));
        SchemaRegistryClient registry = MockSchemaRegistry.forScope(SCOPE);
        String subject = CustomAvroSchemas.subject("storage.example.com", "v1", "Gizmo");
        assertNotNull(registry.getLatest(subject), "the definition's change registered its version's schema");

        String content = "{\"spec\":{\"size\":3,\"port\":\"http\",\"extra\":{\"any\":[1,\"two\",{\"three\":null}]}}}";
        byte[] bytes = serde.serializer().serialize("events",
                change(gizmo("storage.example.com/v1", content, "{\"ready\":true}")));
        CustomObject stored = raw(bytes);
        assertNull(stored.getContent());
        assertNull(stored.getStatus());
        byte[] typed = new byte[stored.getTyped().remaining()];
        stored.getTyped().duplicate().get(typed);
        assertEquals(registry.getLatest(subject).id(), WireFormat.schemaId(typed));

        CustomObject back = (CustomObject) serde.deserializer().deserialize("events", bytes).getObject();
        assertNull(back.getTyped());
        assertEquals(MAPPER.readTree(content), MAPPER.readTree(back.getContent()));
        assertEquals("{\"ready\":true}", back.getStatus());
    }

    @Test
    @DisplayName("CRD-16 records of JSON text (written before typed storage, or of an unknown kind) still read as "
            + "they were")
    void jsonTextStillReads() {
        Serde<ObjectChanged> serde = LogSerdes.changes(CONFIG);
        try (AvroSerde<ObjectChanged> plain = new AvroSerde<>(ObjectChanged.class, MockSchemaRegistry.forScope(SCOPE))) {
            byte[] old = plain.serializer().serialize("events",
                    change(gizmo("storage.example.com/v1", "{\"spec\":{\"size\":1}}", null)));
            CustomObject read = (CustomObject) serde.deserializer().deserialize("events", old).getObject();
            assertEquals("{\"spec\":{\"size\":1}}", read.getContent());
        }
        byte[] unknown = serde.serializer().serialize("events",
                change(gizmo("other.example.com/v1", "{\"spec\":{}}", null)));
        assertEquals("{\"spec\":{}}", raw(unknown).getContent(), "no definition known: JSON text");
        byte[] misfit = serde.serializer().serialize("events",
                change(gizmo("storage.example.com/v1", "{\"spec\":{\"size\":\"big\"}}", null)));
        assertEquals("{\"spec\":{\"size\":\"big\"}}", raw(misfit).getContent(), "does not fit its schema: JSON text");
    }
}
