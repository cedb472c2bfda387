package io.eventplane.schemas.serde;

import java.util.Map;

import org.apache.avro.Schema;

/** How a topic and a record schema map to a registry subject. */
public interface SubjectNameStrategy {

    String subjectName(String topic, boolean isKey, Schema schema);

    /**
     * The strategy with this class name. Confluent's class names ({@code io.confluent.kafka.serializers.subject.*})
     * and the short names are aliases of ours; any other name must be a class implementing this interface.
     */
    static SubjectNameStrategy named(String name) {
        Map<String, Class<? extends SubjectNameStrategy>> known = Map.of(
                "TopicNameStrategy", TopicNameStrategy.class,
                "RecordNameStrategy", RecordNameStrategy.class,
                "TopicRecordNameStrategy", TopicRecordNameStrategy.class);
        String simpleName = name.substring(name.lastIndexOf('.') + 1);
        Class<? extends SubjectNameStrategy> type = known.get(simpleName);
        boolean alias = type != null && (name.equals(simpleName)
                || name.startsWith("io.confluent.kafka.serializers.subject.")
                || name.equals(type.getName()));
        try {
            Class<?> resolved = alias ? type : Class.forName(name);
            if (!SubjectNameStrategy.class.isAssignableFrom(resolved)) {
                throw new IllegalArgumentException(name + " does not implement " + SubjectNameStrategy.class.getName());
            }
            return (SubjectNameStrategy) resolved.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("unknown subject name strategy " + name
                    + " (known: TopicNameStrategy, RecordNameStrategy, TopicRecordNameStrategy)", e);
        }
    }
}
