package io.eventplane.topology;

import io.eventplane.client.CommandSigning;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.TopicSetup;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs the writer topology as a Kafka Streams application (exactly_once_v2). */
public final class WriterService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WriterService.class);
    private final KafkaStreams streams;
    private final EventplaneConfig config;
    private final RestoreProgress restores = new RestoreProgress();

    /** How fresh a command must be to commit early ({@code EVENTPLANE_WRITER_FRESH_MS}, default 100 ms). */
    public static final long FRESH_MS = Long.parseLong(EventplaneConfig.setting("EVENTPLANE_WRITER_FRESH_MS", "100"));

    /**
     * Commits adapt to the load. Under read_committed a change is visible only once its transaction commits, and a
     * commit costs a few round trips to the broker. A writer that keeps up (the command it just decided was sent at
     * most {@link #FRESH_MS} ago) commits at once, or at the end of a tick when it committed less than a tick ago (5 ms
     * after a commit that carried one command, 20 ms after one that carried more: {@link CommitPacing}), so a lone
     * write waits for no timer. A writer that lags lets transactions grow for up to {@code commitIntervalMs}, so
     * hundreds of commands share one commit.
     *
     * @param stateDir         where RocksDB keeps the store (rebuilt from its changelog when lost)
     * @param commitIntervalMs the longest a transaction stays open while the writer works through a backlog
     */
    public WriterService(EventplaneConfig config, Path stateDir, long commitIntervalMs) {
        this(config, stateDir, commitIntervalMs, new ObjectDecider(RulesRegistry.standard()));
    }

    /** A writer deciding with {@code decider} (the fault suite's writer has rules that throw on purpose). */
    public WriterService(EventplaneConfig config, Path stateDir, long commitIntervalMs, ObjectDecider decider) {
        TopicSetup.ensureTopics(config);
        this.config = config;
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.writerGroup());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, commitIntervalMs);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, Integer.parseInt(
                EventplaneConfig.setting("EVENTPLANE_REPLICATION_FACTOR", "1")));
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, WriterDeserializationHandler.class);
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueProcessingExceptionHandler.class);
        p.put("processing.exception.handler.global.enabled", true);
        p.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, config.topics().deadLetters());
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        // The thread blocks this long in poll before it checks whether a commit is due: it bounds the latency.
        p.put(StreamsConfig.POLL_MS_CONFIG, Math.max(1, Math.min(commitIntervalMs, 10)));
        // A task reads one partition (its commands), so there is nothing to wait for to order its input by time; and
        // waiting (the default, 0) makes every idle poll loop format log messages for the empty partition.
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG), EventplaneConfig.FETCH_WAIT_MS);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 2000);
        // A writer killed without a goodbye holds its partitions until its session expires: keep that short.
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 2_000);
        // Nothing the writer sends is read before its transaction commits, and a commit sends whatever waits (the
        // producer flushes), so lingering costs no latency: it only makes fewer, fuller produce requests between
        // commits. 10 ms instead of 1, measured: `bench writer --commands 100000` 8,599 and 9,515 events/s against
        // 6,891 and 8,313; the 20,000-pod burst 0.81 and 0.79 ms of CPU per change against 0.91 and 0.85.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), 10);
        // One produce request at a time: with transactions V2 a transaction's first batch to a partition is verified
        // with the coordinator, and a second request sent meanwhile was rejected (OUT_OF_ORDER_SEQUENCE_NUMBER, "expected
        // sequence 0", KAFKA-18202) and retried after a back-off, which stalled the commit under load. Measured with
        // `bench writer`: 1,800-2,174 commands/s with 5 in flight, 1,886-2,481 with 1.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION), 1);
        // ... and so one request must carry what a commit accumulated while the previous one was in flight: a request
        // takes one batch per partition, and with the default 16 KiB batches a 5,000-node load test's writer appended
        // fewer than 300 changes/s, each commit waiting for dozens of round trips.
        p.put(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 512 * 1024); // under the broker's 1 MiB limit
        p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG), 8 * 1024 * 1024);
        // No compression: a commit's batches are small, and lz4's per-batch setup cost more CPU than it saved.
        // Tuning hook: -Deventplane.streams.<any Kafka Streams/consumer/producer setting>=value overrides the above.
        System.getProperties().forEach((k, v) -> {
            if (k.toString().startsWith("eventplane.streams.")) {
                p.put(k.toString().substring("eventplane.streams.".length()), v);
            }
        });
        WriterTopology.Serdes3 serdes = new WriterTopology.Serdes3(LogSerdes.commands(config),
                LogSerdes.changes(config), LogSerdes.outcomes(config));
        streams = new KafkaStreams(
                WriterTopology.build(config.topics(), serdes, decider, config.partitions(), FRESH_MS,
                        CommandSigning.secret()), p);
        streams.setGlobalStateRestoreListener(restores);
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("writer stream thread failed; replacing it", e);
            return org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    }

    /** Starts the writer, once transactions a broker crash left open on its offsets are finished. */
    public WriterService start() {
        HangingTransactions.repair(config.kafkaConfig(), config.writerGroup(), outputTopics(config),
                new org.apache.kafka.common.TopicPartition(config.topics().commands(), 0));
        streams.start();
        return this;
    }

    /** Every topic the writer's transactions write to: its sinks and its store's changelog. */
    static java.util.List<String> outputTopics(EventplaneConfig config) {
        return java.util.List.of(config.topics().events(), config.topics().outcomes(), config.topics().deadLetters(),
                config.topics().definitions(), config.writerGroup() + "-" + WriterTopology.STORE + "-changelog");
    }

    public boolean isReady() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    /** Store partitions this writer is restoring from their changelog (a restart after kill -9 restores them whole). */
    public int restoring() {
        return restores.inProgress();
    }

    /** The command partitions this instance decides now (its active tasks'). */
    public java.util.Set<Integer> activePartitions() {
        java.util.Set<Integer> out = new java.util.TreeSet<>();
        streams.metadataForLocalThreads().forEach(t -> t.activeTasks().forEach(task -> task.topicPartitions()
                .forEach(tp -> out.add(tp.partition()))));
        return out;
    }

    public KafkaStreams.State state() {
        return streams.state();
    }

    /** Thread-level Kafka Streams metrics by name (commit-latency-avg, process-rate, poll-records-avg, ...). */
    public java.util.Map<String, Double> threadMetrics() {
        java.util.Map<String, Double> out = new java.util.TreeMap<>();
        streams.metrics().forEach((name, metric) -> {
            if (name.group().equals("stream-thread-metrics") && metric.metricValue() instanceof Double d && !d.isNaN()) {
                out.put(name.name(), d);
            }
        });
        return out;
    }

    @Override
    public void close() {
        streams.close(Duration.ofSeconds(20));
    }
}
