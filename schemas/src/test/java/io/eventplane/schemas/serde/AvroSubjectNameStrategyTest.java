package io.eventplane.schemas.serde;

import static io.eventplane.schemas.serde.TestRecords.widget;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import io.eventplane.schemas.serde.testing.Gadget;
import io.eventplane.schemas.serde.testing.Widget;
import org.apache.avro.generic.IndexedRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class AvroSubjectNameStrategyTest {

    @ParameterizedTest(name = "{0} names the {1} subject of topic pods \"{2}\"")
    @CsvSource({
            "TopicNameStrategy,       value, pods-value",
            "TopicNameStrategy,       key,   pods-key",
            "RecordNameStrategy,      value, io.eventplane.schemas.serde.testing.Widget",
            "RecordNameStrategy,      key,   io.eventplane.schemas.serde.testing.Widget",
            "TopicRecordNameStrategy, value, pods-io.eventplane.schemas.serde.testing.Widget",
            "TopicRecordNameStrategy, key,   pods-io.eventplane.schemas.serde.testing.Widget",
    })
    void eachStrategyNamesTheSubjectLikeConfluent(String strategy, String part, String expected) {
        assertEquals(expected, SubjectNameStrategy.named(strategy)
                .subjectName("pods", part.equals("key"), Widget.getClassSchema()));
    }

    @ParameterizedTest(name = "{0} is an alias of {1}")
    @CsvSource({
            "io.confluent.kafka.serializers.subject.TopicNameStrategy,       TopicNameStrategy",
            "io.confluent.kafka.serializers.subject.RecordNameStrategy,      RecordNameStrategy",
            "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy, TopicRecordNameStrategy",
            "io.eventplane.schemas.serde.RecordNameStrategy,                 RecordNameStrategy",
    })
    void confluentClassNamesAreAliasesOfOurs(String name, String ours) {
        assertEquals(ours, SubjectNameStrategy.named(name).getClass().getSimpleName());
    }

    @Test
    void anUnknownStrategyIsAClearConfigurationError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SubjectNameStrategy.named("com.example.NoSuchStrategy"));
        assertEquals(true, e.getMessage().contains("unknown subject name strategy"));
    }

    @Test
    void twoRecordTypesOnOneTopicRegisterUnderTheirOwnSubjectsWithTopicRecordNameStrategy() {
        String url = TestRecords.mockUrl();
        MockSchemaRegistry registry = TestRecords.registryOf(url);
        try (AvroSerializer<IndexedRecord> serializer = new AvroSerializer<>()) {
            serializer.configure(Map.of(
                    SerdeConfig.SCHEMA_REGISTRY_URL, url,
                    SerdeConfig.VALUE_SUBJECT_NAME_STRATEGY,
                    "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy"), false);
            serializer.serialize("mixed", widget("w", 1));
            serializer.serialize("mixed", Gadget.newBuilder().setId("g").build());
        }
        assertEquals(Widget.getClassSchema(), registry.getLatest("mixed-" + Widget.getClassSchema().getFullName()).schema());
        assertEquals(Gadget.getClassSchema(), registry.getLatest("mixed-" + Gadget.getClassSchema().getFullName()).schema());
    }

    @Test
    void aKeySerializerUsesTheKeyStrategy() {
        String url = TestRecords.mockUrl();
        MockSchemaRegistry registry = TestRecords.registryOf(url);
        try (AvroSerializer<Gadget> serializer = new AvroSerializer<>()) {
            serializer.configure(Map.of(
                    SerdeConfig.SCHEMA_REGISTRY_URL, url,
                    SerdeConfig.KEY_SUBJECT_NAME_STRATEGY, RecordNameStrategy.class,
                    SerdeConfig.VALUE_SUBJECT_NAME_STRATEGY, "TopicRecordNameStrategy"), true);
            serializer.serialize("keyed", Gadget.newBuilder().setId("k").build());
        }
        assertInstanceOf(RegisteredSchema.class, registry.getLatest(Gadget.getClassSchema().getFullName()));
    }
}
