package io.eventplane.schemas.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes Avro records (generated {@link SpecificRecord} classes, or {@link GenericRecord}s) in the Confluent wire
 * format. The schema registered is the record's own schema ({@code SCHEMA$} for a generated class) and is
 * self-contained. Ids are cached: a subject and schema cost one registry call per serializer.
 *
 * <p>Configuration: see {@link SerdeConfig}. A {@code null} record serializes to {@code null} (a tombstone). A
 * refusal (incompatible schema, unknown subject) throws a {@link SerializationException}; an unreachable registry
 * throws a retriable {@link SchemaRegistryException}.
 */
public class AvroSerializer<T extends IndexedRecord> implements Serializer<T> {

    private SchemaRegistryClient client;
    private boolean ownsClient;
    private boolean isKey;
    private boolean autoRegister = true;
    private boolean useLatestVersion;
    private boolean ensureBackward = true;
    private SubjectNameStrategy subjectNameStrategy = new TopicNameStrategy();
    private final Map<SubjectAndSchema, Plan> plans = new ConcurrentHashMap<>();

    /** A serializer whose registry comes from {@link SerdeConfig#SCHEMA_REGISTRY_URL} at configure time. */
    public AvroSerializer() {
    }

    /** A serializer using {@code client}, which it does not close; the URL setting is then optional. */
    public AvroSerializer(SchemaRegistryClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        this.isKey = isKey;
        this.autoRegister = SerdeConfig.flag(configs, SerdeConfig.AUTO_REGISTER_SCHEMAS, true);
        this.useLatestVersion = SerdeConfig.flag(configs, SerdeConfig.USE_LATEST_VERSION, false);
        this.ensureBackward = SerdeConfig.flag(configs, SerdeConfig.ENSURE_BACKWARD_COMPATIBILITY, true);
        this.subjectNameStrategy = SerdeConfig.subjectNameStrategy(configs, isKey);
        if (client == null) {
            client = SchemaRegistryClient.forUrl(SerdeConfig.registryUrl(configs));
            ownsClient = true;
        }
        plans.clear();
    }

    @Override
    public byte[] serialize(String topic, T record) {
        if (record == null) {
            return null;
        }
        if (client == null) {
            throw new IllegalStateException("AvroSerializer is not configured: call configure() or pass a client");
        }
        Schema schema = record.getSchema();
        String subject = subjectNameStrategy.subjectName(topic, isKey, schema);
        Plan plan;
        try {
            plan = plans.computeIfAbsent(new SubjectAndSchema(subject, schema), this::plan);
        } catch (SchemaRegistryException e) {
            if (e.isRetriable()) {
                throw e;
            }
            throw new SerializationException("cannot serialize " + schema.getFullName() + " to topic '" + topic
                    + "' with subject '" + subject + "': " + e.getMessage(), e);
        }
        try {
            Buffers b = BUFFERS.get();
            // Reconfiguring flushes what a failed record left in the encoder's buffer: reset the sink after it.
            b.encoder = EncoderFactory.get().binaryEncoder(b.sink, b.encoder);
            b.sink.reset();
            b.sink.write(WireFormat.header(plan.id()));
            plan.write(record, b.encoder);
            b.encoder.flush();
            return b.sink.toByteArray();
        } catch (IOException | RuntimeException e) {
            throw new SerializationException("cannot serialize " + schema.getFullName() + " to topic '" + topic
                    + "' with schema id " + plan.id() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (ownsClient && client != null) {
            client.close();
        }
    }

    private Plan plan(SubjectAndSchema key) {
        Schema schema = key.schema();
        DatumWriter<Object> own = writerFor(schema);
        if (useLatestVersion) {
            RegisteredSchema latest = client.getLatest(key.subject());
            if (latest.schema().equals(schema)) {
                return new Plan(latest.id(), (record, encoder) -> own.write(record, encoder));
            }
            return projectedPlan(key.subject(), schema, latest);
        }
        int id;
        if (!autoRegister) {
            id = client.lookupId(key.subject(), schema);
        } else if (ensureBackward) {
            id = SchemaRegistration.register(client, key.subject(), schema);
        } else {
            id = client.register(key.subject(), schema);
        }
        return new Plan(id, (record, encoder) -> own.write(record, encoder));
    }

    /**
     * The latest registered schema differs from the record's: the record is written with its own schema, read back
     * into the latest schema (Avro schema resolution) and written with that, so the bytes match the id.
     */
    private Plan projectedPlan(String subject, Schema recordSchema, RegisteredSchema latest) {
        SchemaCompatibility.SchemaPairCompatibility compatibility =
                SchemaCompatibility.checkReaderWriterCompatibility(latest.schema(), recordSchema);
        if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            throw new SchemaRegistryException("the latest schema of subject '" + subject + "' (id " + latest.id()
                    + ") cannot represent " + recordSchema.getFullName() + ": " + compatibility.getDescription(), 409, 0);
        }
        DatumWriter<Object> own = writerFor(recordSchema);
        GenericDatumReader<Object> toLatest = new GenericDatumReader<>(recordSchema, latest.schema());
        GenericDatumWriter<Object> latestWriter = new GenericDatumWriter<>(latest.schema());
        return new Plan(latest.id(), (record, encoder) -> {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream(128);
            BinaryEncoder ownEncoder = EncoderFactory.get().directBinaryEncoder(buffer, null);
            own.write(record, ownEncoder);
            ownEncoder.flush();
            Object projected = toLatest.read(null, DecoderFactory.get().binaryDecoder(buffer.toByteArray(), null));
            latestWriter.write(projected, encoder);
        });
    }

    private static DatumWriter<Object> writerFor(Schema schema) {
        // Compiled once per schema; a generated class's schema brings its conversions, generic data works too.
        return new CompiledDatumWriter(schema);
    }

    /** Each thread's reusable output: a buffered encoder over a sink that keeps its capacity. */
    private static final class Buffers {
        final ByteSink sink = new ByteSink();
        BinaryEncoder encoder;
    }

    private static final ThreadLocal<Buffers> BUFFERS = ThreadLocal.withInitial(Buffers::new);

    private record SubjectAndSchema(String subject, Schema schema) {
    }

    @FunctionalInterface
    private interface RecordWriter {
        void write(Object record, BinaryEncoder encoder) throws IOException;
    }

    private record Plan(int id, RecordWriter writer) {
        void write(Object record, BinaryEncoder encoder) throws IOException {
            writer.write(record, encoder);
        }
    }
}
