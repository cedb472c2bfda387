package io.eventplane.topology;

import io.eventplane.client.CustomKindsFeed;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.log.ObjectChanged;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Keeps {@link CustomKinds} in step with every CustomResourceDefinition of the cluster, whichever writer partition
 * decided it (apiextensions-apiserver's CRD informer): the global store {@value WriterTopology#DEFINITIONS_STORE}
 * follows the definitions topic whole in every writer instance. Kafka Streams restores it before any task decides a
 * command, so a writer starting up knows every definition first.
 */
final class DefinitionsProcessor implements Processor<String, byte[], Void, Void> {
    private final String eventsTopic;
    private final Deserializer<ObjectChanged> changes;
    private KeyValueStore<String, byte[]> store;

    DefinitionsProcessor(String eventsTopic, Deserializer<ObjectChanged> changes) {
        this.eventsTopic = eventsTopic;
        this.changes = changes;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(WriterTopology.DEFINITIONS_STORE);
        try (KeyValueIterator<String, byte[]> it = store.all()) {
            while (it.hasNext()) {
                feed(it.next().value);
            }
        }
    }

    @Override
    public void process(Record<String, byte[]> record) {
        if (record.value() == null) {
            store.delete(record.key());
            return;
        }
        store.put(record.key(), record.value());
        feed(record.value());
    }

    private void feed(byte[] change) {
        // A definition's deletion is a change like any other: CustomKinds forgets it (and ignores older news).
        CustomKindsFeed.apply(changes.deserialize(eventsTopic, change));
    }
}
