package io.eventplane.client;

import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import io.eventplane.schemas.serde.AvroSerde;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/** Value serdes of the log's records (Confluent wire format, schemas in the registry). */
public final class LogSerdes {
    private LogSerdes() {
    }

    public static Serde<Command> commands(EventplaneConfig config) {
        return serde(config, Command.class);
    }

    /** Changes, with custom objects typed on the log ({@link CustomObjectStorage}). */
    public static Serde<ObjectChanged> changes(EventplaneConfig config) {
        Serde<ObjectChanged> plain = serde(config, ObjectChanged.class);
        CustomObjectStorage storage = CustomObjectStorage.forRegistry(config.registryUrl());
        Serializer<ObjectChanged> serializer = (topic, change) -> plain.serializer()
                .serialize(topic, change == null ? null : storage.stored(change));
        Deserializer<ObjectChanged> deserializer = (topic, bytes) -> {
            ObjectChanged change = plain.deserializer().deserialize(topic, bytes);
            return change == null ? null : storage.read(change);
        };
        return Serdes.serdeFrom(serializer, deserializer);
    }

    public static Serde<CommandOutcome> outcomes(EventplaneConfig config) {
        return serde(config, CommandOutcome.class);
    }

    public static <T extends SpecificRecord> Serde<T> serde(EventplaneConfig config, Class<T> type) {
        AvroSerde<T> serde = new AvroSerde<>(type);
        serde.configure(config.serdeConfig(), false);
        return serde;
    }
}
