package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.schemas.serde.AvroBinary;
import io.eventplane.schemas.serde.CompiledDatumReader;
import io.eventplane.schemas.serde.CompiledDatumWriter;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The serde's compiled Avro writer and reader on the example objects")
class AvroCompiledCodersExamplesTest {
    private final KubeJson codec = KubeJson.get();

    @Test
    @DisplayName("writes the same bytes as Avro's SpecificDatumWriter and reads back records equal, class by class, to "
            + "SpecificDatumReader's, for every example object, bare and as a change")
    void sameBytesForEveryExample() throws IOException, URISyntaxException {
        List<String> compared = new ArrayList<>();
        Path root = Path.of(Fixtures.class.getResource("/examples").toURI());
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        for (Path file : files) {
            String name = root.relativize(file).toString();
            for (String doc : Fixtures.documents(name)) {
                JsonNode tree = doc.isBlank() ? null : Fixtures.yamlTree(doc);
                if (tree == null || !tree.isObject()) {
                    continue;
                }
                Optional<KindInfo> kind = Kinds.all().stream()
                        .filter(k -> k.kind().equals(tree.path("kind").asText())
                                && k.apiVersion().equals(tree.path("apiVersion").asText()))
                        .findFirst();
                if (kind.isEmpty()) {
                    continue;
                }
                SpecificRecord object;
                try {
                    object = codec.parseObject(Fixtures.utf8(doc), kind.get(),
                            FieldValidation.IGNORE, null);
                } catch (RuntimeException invalidOnPurpose) {
                    continue;
                }
                assertSameBytes(object);
                assertSameBytes(change(kind.get(), object));
                assertSameRecords(object);
                assertSameRecords(change(kind.get(), object));
                compared.add(name + " " + tree.path("kind").asText());
            }
        }
        assertTrue(compared.size() >= 30, () -> "compared only " + compared);
    }

    private static ObjectChanged change(KindInfo kind, SpecificRecord object) {
        return ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("kubectl").setRequestId("r-1")
                        .setTime(Instant.parse("2026-11-26T05:00:00.123Z")).setGroups(List.of("system:masters"))
                        .build())
                .setType(ChangeType.CREATED).setKind(kind.kind()).setNamespace("default").setName("x")
                .setUid("u-1").setResourceVersion(12).setObject(object)
                .build();
    }

    private static void assertSameBytes(SpecificRecord record) throws IOException {
        Schema schema = record.getSchema();
        assertArrayEquals(AvroBinary.bytes(new SpecificDatumWriter<>(schema), record),
                AvroBinary.bytes(new CompiledDatumWriter(schema), record), schema.getFullName());
    }

    /** Decoded by Avro's reader and by the compiled one: equal records, and the same class at every node. */
    private static void assertSameRecords(SpecificRecord record) throws IOException {
        Schema schema = record.getSchema();
        byte[] bytes = AvroBinary.bytes(new SpecificDatumWriter<>(schema), record);
        SpecificData model = SpecificData.getForSchema(schema);
        Object avro = new SpecificDatumReader<>(schema, schema, model)
                .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
        Object compiled = new CompiledDatumReader<>(schema, model)
                .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
        assertEquals(avro, compiled, schema.getFullName());
        assertEquals(record, compiled, schema.getFullName());
        assertSameClasses(avro, compiled, schema.getFullName());
    }

    private static void assertSameClasses(Object a, Object b, String path) {
        assertEquals(a == null ? null : a.getClass(), b == null ? null : b.getClass(), path);
        if (a instanceof IndexedRecord ra) {
            IndexedRecord rb = (IndexedRecord) b;
            for (Schema.Field f : ra.getSchema().getFields()) {
                assertSameClasses(ra.get(f.pos()), rb.get(f.pos()), path + "." + f.name());
            }
        } else if (a instanceof List<?> la) {
            List<?> lb = (List<?>) b;
            for (int i = 0; i < la.size(); i++) {
                assertSameClasses(la.get(i), lb.get(i), path + "[" + i + "]");
            }
        } else if (a instanceof Map<?, ?> ma) {
            Map<?, ?> mb = (Map<?, ?>) b;
            for (Map.Entry<?, ?> e : ma.entrySet()) {
                assertSameClasses(e.getKey(), mb.keySet().stream().filter(e.getKey()::equals).findFirst().orElse(null),
                        path + "{key}");
                assertSameClasses(e.getValue(), mb.get(e.getKey()), path + "{" + e.getKey() + "}");
            }
        }
    }
}
