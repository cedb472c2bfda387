package io.eventplane.schemas.serde;

import org.apache.avro.Schema;

/** The record's full name: one lineage per record type, shared by every topic that carries it. */
public final class RecordNameStrategy implements SubjectNameStrategy {

    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
        return schema.getFullName();
    }
}
