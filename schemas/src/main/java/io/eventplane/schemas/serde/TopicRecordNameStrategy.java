package io.eventplane.schemas.serde;

import org.apache.avro.Schema;

/** {@code <topic>-<record full name>}: several record types per topic, one lineage per topic and type. */
public final class TopicRecordNameStrategy implements SubjectNameStrategy {

    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
        return topic + "-" + schema.getFullName();
    }
}
