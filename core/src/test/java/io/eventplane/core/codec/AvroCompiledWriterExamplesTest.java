package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.schemas.serde.AvroBinary;
import io.eventplane.schemas.serde.CompiledDatumWriter;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The serializer's compiled Avro writer on the example objects")
class AvroCompiledWriterExamplesTest {
    private final KubeJson codec = KubeJson.get();

    @Test
    @DisplayName("writes the same bytes as Avro's SpecificDatumWriter for every example object, bare and as a change")
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
}
