package io.eventplane.schemas.serde;

import java.util.Map;

import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * An {@link AvroSerializer} and an {@link AvroDeserializer} for one record class, configured together.
 *
 * <pre>{@code
 * Serde<PodEvent> serde = AvroSerde.configured(PodEvent.class,
 *         Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, registryUrl), false);
 * }</pre>
 */
public class AvroSerde<T extends IndexedRecord> implements Serde<T> {

    private final AvroSerializer<T> serializer;
    private final AvroDeserializer<T> deserializer;

    /** Generic records, or the class named by {@link SerdeConfig#VALUE_TYPE} / {@link SerdeConfig#KEY_TYPE}. */
    public AvroSerde() {
        this.serializer = new AvroSerializer<>();
        this.deserializer = new AvroDeserializer<>();
    }

    public AvroSerde(Class<? extends T> type) {
        this.serializer = new AvroSerializer<>();
        this.deserializer = new AvroDeserializer<>(type);
    }

    /** Uses {@code client} (not closed by the serde) instead of {@link SerdeConfig#SCHEMA_REGISTRY_URL}. */
    public AvroSerde(Class<? extends T> type, SchemaRegistryClient client) {
        this.serializer = new AvroSerializer<>(client);
        this.deserializer = new AvroDeserializer<>(type, client);
    }

    /** A serde for {@code type}, already configured. */
    public static <T extends IndexedRecord> AvroSerde<T> configured(Class<T> type, Map<String, ?> configs,
                                                                    boolean isKey) {
        AvroSerde<T> serde = new AvroSerde<>(type);
        serde.configure(configs, isKey);
        return serde;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        serializer.configure(configs, isKey);
        deserializer.configure(configs, isKey);
    }

    @Override
    public void close() {
        serializer.close();
        deserializer.close();
    }

    @Override
    public Serializer<T> serializer() {
        return serializer;
    }

    @Override
    public Deserializer<T> deserializer() {
        return deserializer;
    }
}
