package io.eventplane.reconcile;

import io.eventplane.client.CommandSender;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.Requests;
import io.eventplane.client.events.EventOrigin;
import io.eventplane.client.events.KafkaEventRecorder;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What a controller needs to join the log: a view, a command sender, the writer's verdicts (requests), an event
 * recorder, and {@link #catchUp}, the controller's quorum read: the view has applied every change committed before the
 * call, so an object missing from it is really gone (positive evidence, not a lagging cache).
 */
public final class ControllerClients implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ControllerClients.class);
    private final EventplaneConfig config;
    private final String actor;
    private final ObjectView view;
    private final CommandSender sender;
    private final Outcomes outcomes;
    private final Requests requests;
    private final KafkaEventRecorder recorder;
    private final KafkaConsumer<byte[], byte[]> offsets;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final List<ObjectView.Listener> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    private ControllerClients(EventplaneConfig config, String actor, ObjectView view, CommandSender sender,
                              Outcomes outcomes, KafkaEventRecorder recorder, KafkaConsumer<byte[], byte[]> offsets) {
        this.config = config;
        this.actor = actor;
        this.view = view;
        this.sender = sender;
        this.outcomes = outcomes;
        this.requests = new Requests(sender, outcomes, view);
        this.recorder = recorder;
        this.offsets = offsets;
        for (int p = 0; p < config.partitions(); p++) {
            partitions.add(new TopicPartition(config.topics().events(), p));
        }
        offsets.assign(partitions); // never polled: only asked for the log's end (read_committed: the stable offset)
    }

    /** Creates the clients; the view is not started (add listeners and indexes first, then {@link #start}). */
    public static ControllerClients create(EventplaneConfig config, String actor, Clock clock, EventOrigin origin) {
        CommandSender sender = new CommandSender(config, actor);
        // Controllers in one process share one view: the log is read and decoded once for all of them.
        ObjectView view = ObjectView.shared(config, 1000);
        Outcomes outcomes = new Outcomes(config, actor + "-outcomes");
        KafkaEventRecorder recorder = KafkaEventRecorder.start(config, sender, view, actor, clock, origin);
        Map<String, Object> props = config.kafkaConfig();
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, actor + "-offsets");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        KafkaConsumer<byte[], byte[]> offsets = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        return new ControllerClients(config, actor, view, sender, outcomes, recorder, offsets);
    }

    /** Follows the view's changes until {@link #close} (the view may be shared and go on without this service). */
    public void listen(ObjectView.Listener listener) {
        listeners.add(listener);
        view.addListener(listener);
    }

    public ControllerClients start() {
        view.start();
        return this;
    }

    public ObjectView view() {
        return view;
    }

    public CommandSender sender() {
        return sender;
    }

    public Requests requests() {
        return requests;
    }

    public KafkaEventRecorder recorder() {
        return recorder;
    }

    /**
     * Waits until the view has read the log to its end, saying so every 30 s, as long as {@code running} holds: what a
     * controller does before its first decision.
     */
    public void awaitViewReady(java.util.function.BooleanSupplier running) throws InterruptedException {
        while (running.getAsBoolean()) {
            try {
                view.awaitReady(Duration.ofSeconds(30));
                return;
            } catch (TimeoutException e) {
                LOG.info("{}: waiting for the view to catch up with the log", actor);
            }
        }
    }

    /** Waits until the view has applied everything committed to the log before this call. */
    public synchronized void catchUp(Duration timeout) throws InterruptedException, TimeoutException {
        long target = 0;
        for (long end : offsets.endOffsets(partitions).values()) {
            target += end;
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (view.consumedOffsets() < target) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("the view did not reach the log's end within " + timeout);
            }
            Thread.sleep(2);
        }
    }

    @Override
    public void close() {
        listeners.forEach(view::removeListener);
        recorder.close();
        view.close();
        outcomes.close();
        sender.close();
        synchronized (this) {
            offsets.close();
        }
    }
}
