package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.customavro.CustomAvroSchemas;
import io.eventplane.core.customavro.CustomAvroValues;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.schemas.serde.AvroSerde;
import io.eventplane.schemas.serde.RegisteredSchema;
import io.eventplane.schemas.serde.RestSchemaRegistryClient;
import io.eventplane.schemas.serde.WireFormat;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Custom objects on the log as typed Avro, through the real registry (Apicurio's Confluent API): the definition's
 * version is registered as a subject, a custom object's stored bytes decode with it, and a definition update that
 * would break the subject's compatibility is refused.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CustomObjectRegistryTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String GROUP = "avro" + UUID.randomUUID().toString().substring(0, 6) + ".example.com";
    private static final String CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/sprockets." + GROUP;
    private static final String SPEC_PROPERTIES = """
            "size":{"type":"integer"},"port":{"x-kubernetes-int-or-string":true},
            "extra":{"type":"object","x-kubernetes-preserve-unknown-fields":true}""";

    private static String crd(String specProperties, String resourceVersion) {
        return """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"sprockets.%s"%s},
                 "spec":{"group":"%s","scope":"Namespaced",
                  "names":{"plural":"sprockets","singular":"sprocket","kind":"Sprocket"},
                  "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
                   "schema":{"openAPIV3Schema":{"type":"object","properties":{
                    "spec":{"type":"object","properties":{%s}},
                    "status":{"type":"object","properties":{"ready":{"type":"boolean"}}}}}}}]}}"""
                .formatted(GROUP, resourceVersion == null ? "" : ",\"resourceVersion\":\"" + resourceVersion + "\"",
                        GROUP, specProperties);
    }

    private static RestSchemaRegistryClient registry() {
        return new RestSchemaRegistryClient(f.config.registryUrl());
    }

    @Test
    @Order(1)
    @DisplayName("CRD-18 creating a definition registers each served version's Avro schema under its subject; a custom "
            + "object's stored bytes are the Confluent wire format with that subject's id and decode with its schema")
    void storedAsTypedAvro() throws Exception {
        assertEquals(201, f.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd(SPEC_PROPERTIES, null))
                .statusCode());
        String objects = "/apis/" + GROUP + "/v1/namespaces/default/sprockets";
        GatewayFixture.awaitTrue("the kind is served", () -> f.get(objects).statusCode() == 200, Duration.ofSeconds(30));
        String subject = CustomAvroSchemas.subject(GROUP, "v1", "Sprocket");
        RegisteredSchema registered = registry().getLatest(subject);
        assertEquals("Sprocket", registered.schema().getName());

        HttpResponse<String> created = f.post(objects, """
                {"apiVersion":"%s/v1","kind":"Sprocket","metadata":{"name":"s1"},
                 "spec":{"size":3,"port":"http","extra":{"any":[1,"two",{"three":true}]}}}""".formatted(GROUP));
        assertEquals(201, created.statusCode(), created.body());

        CustomObject stored = storedObject("s1");
        assertNull(stored.getContent(), "content is not JSON text on the log");
        byte[] typed = new byte[stored.getTyped().remaining()];
        stored.getTyped().duplicate().get(typed);
        int id = WireFormat.schemaId(typed);
        assertEquals(registered.id(), id);
        ObjectNode body = CustomAvroValues.decode(typed, WireFormat.HEADER_SIZE, registry().getById(id));
        assertEquals(MAPPER.readTree("{\"spec\":{\"extra\":{\"any\":[1,\"two\",{\"three\":true}]},\"port\":\"http\","
                + "\"size\":3}}"), body);

        JsonNode served = json(f.get(objects + "/s1"));
        assertEquals(body.get("spec"), served.get("spec"), "the API answers what the typed bytes hold");
        JsonNode audit = json(f.get("/apis/eventplane.io/v1/audit?kind=sprockets&namespace=default&name=s1"));
        assertTrue(audit.toString().contains("\"size\":3"), audit.toString());
    }

    @Test
    @Order(2)
    @DisplayName("CRD-17 a definition update whose storage schema is not backward compatible with the registered one "
            + "is refused 422 naming the field; adding an optional field passes and registers a new schema version")
    void compatibleEvolution() {
        String rv = json(f.get(CRD_PATH)).path("metadata").path("resourceVersion").asText();
        HttpResponse<String> retyped = f.put(CRD_PATH, crd(SPEC_PROPERTIES.replace(
                "\"size\":{\"type\":\"integer\"}", "\"size\":{\"type\":\"string\"}"), rv));
        assertEquals(422, retyped.statusCode(), retyped.body());
        assertTrue(retyped.body().contains("spec.size changes type"), retyped.body());
        assertTrue(retyped.body().contains("spec.versions[0].schema.openAPIV3Schema"), retyped.body());

        HttpResponse<String> added = f.put(CRD_PATH, crd(SPEC_PROPERTIES + ",\"color\":{\"type\":\"string\"}", rv));
        assertEquals(200, added.statusCode(), added.body());
        String subject = CustomAvroSchemas.subject(GROUP, "v1", "Sprocket");
        GatewayFixture.awaitTrue("a new schema version", () -> registry().getLatest(subject).schema().toString()
                .contains("\"color\""), Duration.ofSeconds(30));
        HttpResponse<String> colored = f.post("/apis/" + GROUP + "/v1/namespaces/default/sprockets", """
                {"apiVersion":"%s/v1","kind":"Sprocket","metadata":{"name":"s2"},"spec":{"color":"red"}}"""
                .formatted(GROUP));
        assertEquals(201, colored.statusCode(), colored.body());
        assertEquals("red", json(f.get("/apis/" + GROUP + "/v1/namespaces/default/sprockets/s2"))
                .path("spec").path("color").asText());
        assertNotNull(storedObject("s2").getTyped());
    }

    /** The last change of custom object {@code name} as the log holds it (no custom storage on the reading side). */
    private static CustomObject storedObject(String name) {
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, f.config.bootstrapServers(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.GROUP_ID_CONFIG, "crdavro-" + UUID.randomUUID());
        CustomObject found = null;
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new ByteArrayDeserializer());
             AvroSerde<ObjectChanged> plain = new AvroSerde<>(ObjectChanged.class, registry())) {
            consumer.subscribe(List.of(f.config.topics().events()));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (found == null && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    ObjectChanged change = plain.deserializer().deserialize(r.topic(), r.value());
                    if (change.getObject() instanceof CustomObject c && name.equals(change.getName())) {
                        found = c;
                    }
                }
            }
        }
        assertNotNull(found, "no change of " + name + " on the log");
        return found;
    }
}
