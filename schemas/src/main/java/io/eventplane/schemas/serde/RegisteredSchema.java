package io.eventplane.schemas.serde;

import org.apache.avro.Schema;

/** A schema version as the registry knows it. */
public record RegisteredSchema(String subject, int version, int id, Schema schema) {
}
