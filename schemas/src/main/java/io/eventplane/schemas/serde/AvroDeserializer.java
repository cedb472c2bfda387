package io.eventplane.schemas.serde;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads the Confluent wire format into a generated {@link SpecificRecord} class (the reader schema is its
 * {@code SCHEMA$}; the writer schema comes from the registry by id, cached, and Avro resolves the two when they
 * differ) or, without a target class, into a {@link GenericRecord} in the writer's schema. Strings of generated
 * classes are {@link SharedStrings shared} between the records decoded, so objects kept decoded do not each hold a copy.
 *
 * <p>Bytes that cannot be decoded (wrong magic byte, unknown schema id, truncated or left-over bytes, a writer schema
 * the reader cannot resolve) throw a {@link SerializationException} saying what is wrong: a poison record. A registry
 * that cannot be reached throws a retriable {@link SchemaRegistryException} instead, so that callers do not
 * dead-letter good records during an outage.
 */
public class AvroDeserializer<T extends IndexedRecord> implements Deserializer<T> {

    private SchemaRegistryClient client;
    private boolean ownsClient;
    private Class<? extends T> type;
    private boolean specificReader;
    private final Map<Integer, DatumReader<T>> readersById = new ConcurrentHashMap<>();

    /** The target class and registry come from the configuration ({@link SerdeConfig#VALUE_TYPE}, URL). */
    public AvroDeserializer() {
    }

    /** Reads into {@code type}; the registry comes from {@link SerdeConfig#SCHEMA_REGISTRY_URL}. */
    public AvroDeserializer(Class<? extends T> type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    /** Reads into {@code type} (null: generic records) using {@code client}, which it does not close. */
    public AvroDeserializer(Class<? extends T> type, SchemaRegistryClient client) {
        this.type = type;
        this.client = Objects.requireNonNull(client, "client");
    }

    @Override
    @SuppressWarnings("unchecked")
    public void configure(Map<String, ?> configs, boolean isKey) {
        if (type == null) {
            Class<?> configured = SerdeConfig.recordType(configs, isKey);
            if (configured != null) {
                if (!IndexedRecord.class.isAssignableFrom(configured)) {
                    throw new IllegalArgumentException(configured.getName() + " is not an Avro record class");
                }
                type = (Class<? extends T>) configured;
            }
        }
        specificReader = SerdeConfig.flag(configs, SerdeConfig.SPECIFIC_AVRO_READER, false);
        if (client == null) {
            client = SchemaRegistryClient.forUrl(SerdeConfig.registryUrl(configs));
            ownsClient = true;
        }
        readersById.clear();
    }

    @Override
    public T deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (client == null) {
            throw new IllegalStateException("AvroDeserializer is not configured: call configure() or pass a client");
        }
        int id;
        try {
            id = WireFormat.schemaId(data);
        } catch (SerializationException e) {
            throw new SerializationException("cannot deserialize a record from topic '" + topic + "': "
                    + e.getMessage());
        }
        DatumReader<T> reader = readerFor(topic, id);
        try {
            BinaryDecoder decoder = DecoderFactory.get()
                    .binaryDecoder(data, WireFormat.HEADER_SIZE, data.length - WireFormat.HEADER_SIZE, null);
            T record = reader.read(null, new SharedStringsDecoder(decoder));
            if (!decoder.isEnd()) {
                throw new SerializationException("cannot deserialize a record from topic '" + topic
                        + "' with schema id " + id + ": bytes left over after the record (" + data.length
                        + " bytes in all); the payload does not match its schema");
            }
            return record;
        } catch (IOException | RuntimeException e) {
            if (e instanceof SerializationException serializationException) {
                throw serializationException;
            }
            throw new SerializationException("cannot deserialize a record from topic '" + topic + "' with schema id "
                    + id + " (" + data.length + " bytes): the Avro payload is truncated or corrupt: " + e, e);
        }
    }

    @Override
    public void close() {
        if (ownsClient && client != null) {
            client.close();
        }
    }

    private DatumReader<T> readerFor(String topic, int id) {
        DatumReader<T> cached = readersById.get(id);
        if (cached != null) {
            return cached;
        }
        Schema writer;
        try {
            writer = client.getById(id);
        } catch (SchemaRegistryException e) {
            if (e.isRetriable()) {
                throw e;
            }
            throw new SerializationException("cannot deserialize a record from topic '" + topic + "': schema id " + id
                    + " is not known to the schema registry (" + e.getMessage() + ")", e);
        }
        DatumReader<T> reader = newReader(topic, id, writer);
        DatumReader<T> raced = readersById.putIfAbsent(id, reader);
        return raced != null ? raced : reader;
    }

    @SuppressWarnings("unchecked")
    private DatumReader<T> newReader(String topic, int id, Schema writer) {
        Class<?> target = type;
        if (target == null && specificReader) {
            target = SpecificData.get().getClass(writer);
            if (target == null) {
                throw new SerializationException("cannot deserialize a record from topic '" + topic + "': "
                        + SerdeConfig.SPECIFIC_AVRO_READER + " is set but no generated class is named "
                        + writer.getFullName() + " (schema id " + id + ")");
            }
        }
        if (target == null || target == GenericRecord.class || !SpecificRecord.class.isAssignableFrom(target)) {
            return (DatumReader<T>) new GenericDatumReader<GenericRecord>(writer);
        }
        SpecificData model = SpecificData.getForClass(target);
        Schema reader = model.getSchema(target);
        if (reader.equals(writer)) {
            return new CompiledDatumReader<>(reader, model);
        }
        SchemaCompatibility.SchemaPairCompatibility compatibility =
                SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            throw new SerializationException("cannot deserialize a record from topic '" + topic + "' into "
                    + target.getName() + ": its writer schema (id " + id + ", " + writer.getFullName()
                    + ") cannot be resolved to the class's schema: " + compatibility.getDescription());
        }
        // The reader resolves writer to reader schema (ResolvingDecoder) field by field.
        return new SpecificDatumReader<>(writer, reader, model);
    }
}
