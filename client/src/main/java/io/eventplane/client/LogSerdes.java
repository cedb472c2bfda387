package io.eventplane.client;

import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import io.eventplane.schemas.serde.AvroSerde;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;

/** Value serdes of the log's records (Confluent wire format, schemas in the registry). */
public final class LogSerdes {
    private LogSerdes() {
    }

    public static Serde<Command> commands(EventplaneConfig config) {
        return serde(config, Command.class);
    }

    public static Serde<ObjectChanged> changes(EventplaneConfig config) {
        return serde(config, ObjectChanged.class);
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
