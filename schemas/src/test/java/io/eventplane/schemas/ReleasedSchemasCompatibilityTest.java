package io.eventplane.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Schemas evolve by rule: today's record schemas must read everything written with every released copy
 * (BACKWARD_TRANSITIVE), so the log written by older versions stays readable forever. A release adds its copies to
 * src/test/resources/released/&lt;version&gt;/.
 */
class ReleasedSchemasCompatibilityTest {

    static Stream<Arguments> releasedCopies() throws IOException, URISyntaxException {
        Path released = Path.of(ReleasedSchemasCompatibilityTest.class.getResource("/released").toURI());
        List<Arguments> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(released)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".avsc")).sorted().toList()) {
                out.add(Arguments.of(released.relativize(f).toString(), f));
            }
        }
        assertFalse(out.isEmpty(), "no released schema copies found");
        return out.stream();
    }

    @ParameterizedTest(name = "{0} is readable by today''s schema")
    @MethodSource("releasedCopies")
    void currentSchemaReadsReleasedData(String name, Path file) throws IOException {
        Schema old;
        try (InputStream in = Files.newInputStream(file)) {
            old = new Schema.Parser().parse(in);
        }
        Schema current = switch (old.getName()) {
            case "Command" -> Command.SCHEMA$;
            case "ObjectChanged" -> ObjectChanged.SCHEMA$;
            case "CommandOutcome" -> CommandOutcome.SCHEMA$;
            default -> throw new AssertionError("no current schema for released " + old.getFullName());
        };
        SchemaCompatibility.SchemaPairCompatibility result =
                SchemaCompatibility.checkReaderWriterCompatibility(current, old);
        assertEquals(SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE, result.getType(), result.getDescription());
    }
}
