package io.eventplane.core.customavro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.model.apiextensions.JSONSchemaProps;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CustomAvroSchemasTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    static JSONSchemaProps openApi(String json) {
        try {
            return KubeJson.get().decode(MAPPER.readTree(json.replace('\'', '"')), JSONSchemaProps.class,
                    FieldValidation.STRICT).value();
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static ObjectNode json(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static Schema avro(String openApi) {
        return CustomAvroSchemas.of("stable.example.com", "v1", "CronTab", openApi(openApi));
    }

    /** The type of the root record's field {@code name}, as Avro JSON. */
    private static String field(String openApi, String name) {
        Schema root = avro(openApi);
        return root.getField(name) == null ? "(none)" : root.getField(name).schema().toString();
    }

    static Stream<Arguments> mappings() {
        return Stream.of(
                Arguments.of("string", "{'properties':{'f':{'type':'string'}}}", "[\"null\",\"string\"]"),
                Arguments.of("enum as string", "{'properties':{'f':{'type':'string','enum':['A','B']}}}",
                        "[\"null\",\"string\"]"),
                Arguments.of("integer", "{'properties':{'f':{'type':'integer'}}}", "[\"null\",\"long\"]"),
                Arguments.of("number", "{'properties':{'f':{'type':'number'}}}", "[\"null\",\"double\"]"),
                Arguments.of("boolean", "{'properties':{'f':{'type':'boolean'}}}", "[\"null\",\"boolean\"]"),
                Arguments.of("required: not nullable", "{'required':['f'],'properties':{'f':{'type':'string'}}}",
                        "\"string\""),
                Arguments.of("required with a default: nullable",
                        "{'required':['f'],'properties':{'f':{'type':'string','default':'x'}}}", "[\"null\",\"string\"]"),
                Arguments.of("array", "{'properties':{'f':{'type':'array','items':{'type':'integer'}}}}",
                        "[\"null\",{\"type\":\"array\",\"items\":\"long\"}]"),
                Arguments.of("map from additionalProperties",
                        "{'properties':{'f':{'type':'object','additionalProperties':{'type':'string'}}}}",
                        "[\"null\",{\"type\":\"map\",\"values\":\"string\"}]"),
                Arguments.of("int-or-string: JSON text", "{'properties':{'f':{'x-kubernetes-int-or-string':true}}}",
                        "[\"null\",{\"type\":\"string\",\"eventplane.json\":\"true\"}]"),
                Arguments.of("preserve-unknown without properties: JSON text",
                        "{'properties':{'f':{'type':'object','x-kubernetes-preserve-unknown-fields':true}}}",
                        "[\"null\",{\"type\":\"string\",\"eventplane.json\":\"true\"}]"),
                Arguments.of("nested object: a record named by its path",
                        "{'properties':{'f':{'type':'object','properties':{'g':{'type':'string'}}}}}",
                        "[\"null\",{\"type\":\"record\",\"name\":\"CronTab_f\",\"namespace\":\"eventplane.crd.stable.example.com.v1\",\"fields\":[{\"name\":\"g\",\"type\":"
                                + "[\"null\",\"string\"],\"default\":null}]}]"));
    }

    @ParameterizedTest(name = "CRD-15 {0}")
    @MethodSource("mappings")
    @DisplayName("CRD-15 an OpenAPI v3 schema maps to Avro")
    void mapsOpenApiToAvro(String what, String openApi, String avroField) {
        assertEquals(avroField, field("{'type':'object'," + openApi.substring(1), "f"), what);
    }

    @Test
    @DisplayName("CRD-15 the root is a record named after the kind in a namespace of group and version; apiVersion, "
            + "kind and metadata are not in it; fields are in name order and JSON names Avro cannot spell are kept")
    void rootRecord() {
        Schema root = avro("{'type':'object','properties':{'metadata':{'type':'object'},'kind':{'type':'string'},"
                + "'zeta':{'type':'string'},'alpha-beta':{'type':'string'},'status':{'type':'object',"
                + "'properties':{'ready':{'type':'boolean'}}}}}");
        assertEquals("eventplane.crd.stable.example.com.v1.CronTab", root.getFullName());
        assertEquals("[alpha_beta, status, zeta]", root.getFields().stream().map(Schema.Field::name).toList().toString());
        assertEquals("alpha-beta", root.getField("alpha_beta").getProp(CustomAvroSchemas.JSON_NAME));
        assertEquals(avro("{'type':'object','properties':{'zeta':{'type':'string'},'alpha-beta':{'type':'string'},"
                + "'status':{'type':'object','properties':{'ready':{'type':'boolean'}}}}}"), root,
                "deterministic: the same schema whatever the properties' order and ObjectMeta");
        assertEquals("crd.stable.example.com.v1.CronTab", CustomAvroSchemas.subject("stable.example.com", "v1", "CronTab"));
    }

    @Test
    @DisplayName("CRD-15 an object with properties and x-kubernetes-preserve-unknown-fields is a record plus its "
            + "other fields as JSON text")
    void preserveUnknownWithProperties() {
        Schema root = avro("{'type':'object','x-kubernetes-preserve-unknown-fields':true,"
                + "'properties':{'spec':{'type':'string'}}}");
        assertTrue(root.getField(CustomAvroSchemas.UNKNOWN_FIELDS) != null, root.toString());
    }

    private static final String CRONTAB = "{'type':'object','properties':{"
            + "'spec':{'type':'object','required':['cronSpec'],'properties':{'cronSpec':{'type':'string'},"
            + "'replicas':{'type':'integer'},'ratio':{'type':'number'},'port':{'x-kubernetes-int-or-string':true},"
            + "'tags':{'type':'array','items':{'type':'string'}},"
            + "'labels':{'type':'object','additionalProperties':{'type':'string'}},"
            + "'extra':{'type':'object','x-kubernetes-preserve-unknown-fields':true},"
            + "'open':{'type':'object','x-kubernetes-preserve-unknown-fields':true,'properties':{'known':{'type':'boolean'}}}}},"
            + "'status':{'type':'object','properties':{'replicas':{'type':'integer'}}}}}";

    @Test
    @DisplayName("CRD-16 a custom object's body round-trips through its Avro schema: numbers, int-or-string, arrays, "
            + "maps and preserve-unknown parts (any JSON) come back as they were, keys in name order")
    void roundTrip() {
        Schema schema = avro(CRONTAB);
        ObjectNode body = json("{'spec':{'cronSpec':'* * * * */5','replicas':3,'ratio':0.5,'port':'http',"
                + "'tags':['a','b'],'labels':{'z':'1','a':'2'},'extra':{'deep':[1,{'x':null}],'s':'t'},"
                + "'open':{'known':true,'other':{'k':[true]}}},'status':{'replicas':2}}");
        ObjectNode back = CustomAvroValues.decode(CustomAvroValues.encode(body, schema), 0, schema);
        assertEquals(body, json(back.toString()), "equal as JSON (a long node compares unequal to an int node)");
        java.util.List<String> keys = new java.util.ArrayList<>();
        back.path("spec").path("labels").fieldNames().forEachRemaining(keys::add);
        assertEquals(java.util.List.of("a", "z"), keys);
        ObjectNode intPort = json("{'spec':{'cronSpec':'x','port':8080,'ratio':2}}");
        JsonNode decoded = CustomAvroValues.decode(CustomAvroValues.encode(intPort, schema), 0, schema);
        assertEquals(8080, decoded.path("spec").path("port").intValue());
        assertTrue(decoded.path("spec").path("port").isIntegralNumber(), "int-or-string keeps an int an int");
        assertEquals("2", decoded.path("spec").path("ratio").toString(), "an integral number is written as Kubernetes"
                + " writes a float64");
    }

    @Test
    @DisplayName("CRD-16 a body that does not fit (a wrong type, a required field missing, an explicit null) is "
            + "refused by the encoder, naming the field, so the caller keeps JSON text")
    void misfitsAreRefused() {
        Schema schema = avro(CRONTAB);
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
                () -> CustomAvroValues.encode(json("{'spec':{'cronSpec':'x','replicas':'three'}}"), schema));
        assertTrue(type.getMessage().contains("spec.replicas"), type.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> CustomAvroValues.encode(json("{'spec':{'replicas':1}}"), schema));
        assertTrue(missing.getMessage().contains("spec.cronSpec"), missing.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> CustomAvroValues.encode(json("{'spec':{'cronSpec':'x','image':null}}"), schema));
    }

    @Test
    @DisplayName("CRD-17 evolution: adding optional fields is backward compatible; changing a field's type or adding "
            + "a required field is not, and the problem names the field")
    void compatibility() {
        Schema v1 = avro(CRONTAB);
        assertEquals(Optional.empty(), CustomAvroCompatibility.problem(v1, avro(CRONTAB.replace(
                "'replicas':{'type':'integer'},", "'replicas':{'type':'integer'},'image':{'type':'string'},"))));
        Optional<String> retyped = CustomAvroCompatibility.problem(v1, avro(CRONTAB.replace(
                "'replicas':{'type':'integer'},", "'replicas':{'type':'string'},")));
        assertTrue(retyped.orElseThrow().startsWith("spec.replicas changes type"), retyped.toString());
        Optional<String> required = CustomAvroCompatibility.problem(v1, avro(CRONTAB.replace(
                "'required':['cronSpec']", "'required':['cronSpec','image']").replace(
                "'replicas':{'type':'integer'},", "'replicas':{'type':'integer'},'image':{'type':'string'},")));
        assertTrue(required.orElseThrow().startsWith("spec.image is required"), required.toString());
        Optional<String> deep = CustomAvroCompatibility.problem(v1, avro(CRONTAB.replace(
                "'items':{'type':'string'}", "'items':{'type':'boolean'}")));
        assertTrue(deep.orElseThrow().startsWith("spec.tags[*] changes type"), deep.toString());
    }
}
