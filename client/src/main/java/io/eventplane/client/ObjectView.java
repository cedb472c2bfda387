package io.eventplane.client;

import io.eventplane.core.Keys;
import io.eventplane.core.ResourceVersions;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The current state of every object, rebuilt from the event log and kept up to date: our informer and watch cache.
 * Readers get objects in key order (namespace/name within a kind, as Kubernetes lists them), a consistent snapshot
 * with its position for list+watch, and watches that replay from a position without loss or duplicates.
 */
public final class ObjectView implements ClusterView, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ObjectView.class);

    /** Called on the view's thread after each change is applied; must not block. */
    public interface Listener {
        void onChange(ObjectChanged change);

        /** With the object's change before this one (null when it did not exist): for listeners that need both. */
        default void onChange(ObjectChanged change, ObjectChanged previous) {
            onChange(change);
        }
    }

    /** A list and the position it was taken at (a list's resourceVersion). */
    public record Snapshot(List<ObjectChanged> items, long[] position) {
    }

    private final EventplaneConfig config;
    private final String clientId;
    /** How many recent changes are kept for resuming watches; a shared view keeps what its most demanding user asks. */
    private volatile int retained;
    /**
     * Past {@link #MIN_RETAINED} changes, a change is kept only this long ({@code EVENTPLANE_WATCH_CACHE_SECONDS}, 75,
     * kube-apiserver's watch cache's eventFreshDuration). Bounded by count alone, the 200,000 changes a gateway kept
     * filled ~600 MB of a 1 GB heap in the soak; a watch resumed from an older resourceVersion is 410 Gone and its
     * client lists again, as with Kubernetes.
     */
    static final long FRESH_NANOS = Duration.ofSeconds(Long.parseLong(
            EventplaneConfig.setting("EVENTPLANE_WATCH_CACHE_SECONDS", "75"))).toNanos();
    static final int MIN_RETAINED = 1000;
    private final ObjectStore store = new ObjectStore();
    private final ArrayDeque<Recent> recent = new ArrayDeque<>();

    /** A retained change and when this view applied it. */
    private record Recent(ObjectChanged change, long atNanos) {
    }
    private final long[] positions;
    private final long[] evictedUpTo;
    /**
     * With several partitions: the view's position just after each retained change, by the change's resourceVersion.
     * A watch resumed from one object's resourceVersion (what client-go's reflector sends after a dropped watch) then
     * starts exactly where this view's stream had delivered that change, on every partition.
     */
    private final Map<Long, long[]> positionAfterChange;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final List<Sub> subscribers = new CopyOnWriteArrayList<>();
    private final Map<String, CompletableFuture<ObjectChanged>> pendingRequests = new ConcurrentHashMap<>();
    private final Map<String, List<CompletableFuture<Void>>> positionWaiters = new HashMap<>();
    private final CountDownLatch ready = new CountDownLatch(1);
    private final Object lock = new Object();
    private volatile long consumerPositionTotal;
    /** The consumer's next offset on each partition of the event log (what a quorum read compares with the ends). */
    private final java.util.concurrent.atomic.AtomicLongArray consumerPositions;
    private volatile boolean closed;
    private volatile boolean started;
    private volatile Throwable failure;
    private KafkaConsumer<String, ObjectChanged> consumer;
    private Thread thread;
    private long applied;

    /** A live watcher: what it wants, and the position it started after (it never gets a change at or before it). */
    private record Sub(Subscription subscription, Predicate<ObjectChanged> filter, long[] after) {
        boolean wants(ObjectChanged c) {
            return (after == null || ResourceVersions.after(after, c.getResourceVersion())) && filter.test(c);
        }
    }

    /**
     * @param retained how many recent changes are kept for watches that resume from an older position
     */
    public ObjectView(EventplaneConfig config, String clientId, int retained) {
        this.config = config;
        this.clientId = clientId;
        this.retained = retained;
        this.positions = new long[config.partitions()];
        this.evictedUpTo = new long[config.partitions()];
        this.positionAfterChange = config.partitions() > 1 ? new HashMap<>() : null;
        this.consumerPositions = new java.util.concurrent.atomic.AtomicLongArray(config.partitions());
    }

    public ObjectView(EventplaneConfig config, String clientId) {
        this(config, clientId, 200_000);
    }

    /** The pods-by-node index: what the kubelet (node-sim) and `--field-selector spec.nodeName=` read. */
    public static final String PODS_BY_NODE = "pods-by-node";

    /**
     * Adds a secondary index over objects of {@code kind} (before {@link #start}, or on a running shared view: the
     * index is filled from what the view holds).
     */
    @Override
    public ObjectView addIndex(String name, String kind, java.util.function.Function<ObjectChanged, String> value) {
        synchronized (lock) {
            store.addIndex(name, kind, value);
        }
        return this;
    }

    /** Adds {@link #PODS_BY_NODE}. */
    public ObjectView indexPodsByNode() {
        return addIndex(PODS_BY_NODE, "Pod", c -> {
            io.eventplane.model.Pod pod = (io.eventplane.model.Pod) c.getObject();
            return pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        });
    }

    @Override
    public List<ObjectChanged> indexed(String index, String value) {
        return store.indexed(index, value);
    }

    @Override
    public Collection<ObjectChanged> listByNamePrefix(String kind, String namespace, String namePrefix) {
        return store.listByNamePrefix(kind, namespace, namePrefix);
    }

    @Override
    public boolean hasIndex(String name) {
        return store.hasIndex(name);
    }

    /**
     * Adds a listener. On a view that is already running (a shared one) the listener first gets every current object's
     * latest change, so it has seen everything either way; it may see one change twice around that moment.
     */
    public void addListener(Listener listener) {
        synchronized (lock) {
            listeners.add(listener);
            if (started) {
                for (ObjectChanged c : store.all()) {
                    listener.onChange(c, null);
                }
            }
        }
    }

    public void removeListener(Listener listener) {
        listeners.remove(listener);
    }

    private static final Map<String, ObjectView> SHARED = new HashMap<>();
    private String sharedKey;
    private int users;

    /**
     * The view that services of this process on one cluster share (started on first use): services that run together
     * in one JVM then read and decode the log once instead of once each. Each user calls {@link #close} once; the last
     * one closes it. Users remove their listeners when they stop. Being live, it keeps the process's custom kinds
     * ({@link CustomKindsFeed}) current.
     */
    public static ObjectView shared(EventplaneConfig config, int retained) {
        String key = config.bootstrapServers() + "|" + config.registryUrl() + "|" + config.topics().events();
        synchronized (SHARED) {
            ObjectView v = SHARED.get(key);
            if (v == null || v.closed || v.failure != null) {
                v = new ObjectView(config, "shared-" + config.topics().prefix(), retained);
                v.sharedKey = key;
                SHARED.put(key, v);
                v.addListener(new CustomKindsFeed()); // first listener: custom kinds are known before users react
                v.start();
            }
            v.users++;
            v.retained = Math.max(v.retained, retained);
            return v;
        }
    }

    /** Starts reading the log from its beginning on a thread of its own (a shared view is started already). */
    public synchronized ObjectView start() {
        if (started) {
            return this;
        }
        started = true;
        Map<String, Object> props = config.kafkaConfig();
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, EventplaneConfig.FETCH_WAIT_MS);
        // Replaying the log from its start is bulk reading: big fetches, few round trips.
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024);
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024);
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), LogSerdes.changes(config).deserializer());
        List<TopicPartition> parts = new ArrayList<>();
        for (int p = 0; p < config.partitions(); p++) {
            parts.add(new TopicPartition(config.topics().events(), p));
        }
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        thread = new Thread(() -> run(parts), clientId + "-view");
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void run(List<TopicPartition> parts) {
        try {
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            while (!closed) {
                ConsumerRecords<String, ObjectChanged> records = consumer.poll(Duration.ofMillis(100));
                for (ConsumerRecord<String, ObjectChanged> r : records) {
                    if (r.value() != null) {
                        apply(r.value());
                    }
                }
                if (ready.getCount() > 0 && caughtUp(parts, end)) {
                    LOG.info("{}: view ready with {} objects after {} changes", clientId, store.size(), applied);
                    ready.countDown();
                }
                long total = 0;
                for (TopicPartition tp : parts) {
                    long at = consumer.position(tp);
                    consumerPositions.set(tp.partition(), at);
                    total += at;
                }
                consumerPositionTotal = total;
            }
        } catch (WakeupException e) {
            // closing
        } catch (Throwable t) {
            failure = t;
            LOG.error("{}: view stopped: {}", clientId, t.toString(), t);
        } finally {
            for (Sub s : subscribers) {
                s.subscription().closeWith("the view stopped");
            }
            consumer.close();
        }
    }

    private boolean caughtUp(List<TopicPartition> parts, Map<TopicPartition, Long> end) {
        for (TopicPartition tp : parts) {
            if (consumer.position(tp) < end.get(tp)) {
                return false;
            }
        }
        return true;
    }

    private void apply(ObjectChanged change) {
        String key = Keys.of(change.getKind(), change.getNamespace(), change.getName());
        ObjectChanged previous;
        synchronized (lock) {
            previous = store.apply(change);
            int p = ResourceVersions.partition(change.getResourceVersion(), positions.length);
            positions[p] = Math.max(positions[p], change.getResourceVersion());
            long now = System.nanoTime();
            recent.addLast(new Recent(change, now));
            if (positionAfterChange != null) {
                positionAfterChange.put(change.getResourceVersion(), ResourceVersions.copy(positions));
            }
            while (recent.size() > retained
                    || (recent.size() > MIN_RETAINED && now - recent.peekFirst().atNanos() > FRESH_NANOS)) {
                ObjectChanged old = recent.removeFirst().change();
                int op = ResourceVersions.partition(old.getResourceVersion(), positions.length);
                evictedUpTo[op] = Math.max(evictedUpTo[op], old.getResourceVersion());
                if (positionAfterChange != null) {
                    positionAfterChange.remove(old.getResourceVersion());
                }
            }
            applied++;
            if (!subscribers.isEmpty()) {
                WatchEvent event = WatchEvent.of(change);
                for (Sub s : subscribers) {
                    if (s.wants(change)) {
                        s.subscription().offer(event);
                    }
                }
            }
            List<CompletableFuture<Void>> waiting = positionWaiters.remove(key + "@" + change.getResourceVersion());
            if (waiting != null) {
                waiting.forEach(f -> f.complete(null));
            }
        }
        for (Listener l : listeners) {
            try {
                l.onChange(change, previous);
            } catch (RuntimeException e) {
                LOG.warn("{}: listener failed on {}: {}", clientId, key, e.toString(), e);
            }
        }
        // after the listeners: whoever waits for its request's change (the API answering a write) then reads what
        // they derive (the console's rows, the custom kinds a definition serves) with the change in it
        CompletableFuture<ObjectChanged> pending = pendingRequests.remove(change.getEnvelope().getRequestId());
        if (pending != null) {
            pending.complete(change);
        }
    }

    public boolean isReady() {
        return ready.getCount() == 0 && failure == null && !closed;
    }

    public void awaitReady(Duration timeout) throws TimeoutException, InterruptedException {
        if (!ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new TimeoutException(clientId + ": the view did not catch up with the log within " + timeout);
        }
    }

    @Override
    public Optional<ObjectChanged> get(String key) {
        return store.get(key);
    }

    @Override
    public Collection<ObjectChanged> list(String kind, String namespace) {
        return store.list(kind, namespace);
    }

    public int size() {
        return store.size();
    }

    /** A consistent list and the position it reflects. */
    public Snapshot snapshot(String kind, String namespace, Predicate<ObjectChanged> filter) {
        synchronized (lock) {
            List<ObjectChanged> items = new ArrayList<>();
            for (ObjectChanged c : list(kind, namespace)) {
                if (filter.test(c)) {
                    items.add(c);
                }
            }
            return new Snapshot(items, ResourceVersions.copy(positions));
        }
    }

    /** Like {@link #snapshot(String, String, Predicate)}, reading only the objects an index holds under {@code value}. */
    public Snapshot snapshot(String index, String value, String namespace, Predicate<ObjectChanged> filter) {
        Map.Entry<String, java.util.NavigableSet<String>> idx = store.indexedKeys(index, value);
        if (idx == null) {
            throw new IllegalArgumentException("no index " + index);
        }
        String prefix = Keys.prefix(idx.getKey(), namespace);
        synchronized (lock) {
            List<ObjectChanged> items = new ArrayList<>();
            for (String key : idx.getValue()) {
                ObjectChanged c = store.get(key).orElse(null);
                if (c != null && key.startsWith(prefix) && filter.test(c)) {
                    items.add(c);
                }
            }
            return new Snapshot(items, ResourceVersions.copy(positions));
        }
    }

    /** Every object of every kind in key order, and the position they reflect: what a state digest is taken over. */
    public Snapshot snapshotAll() {
        synchronized (lock) {
            return new Snapshot(new ArrayList<>(store.all()), ResourceVersions.copy(positions));
        }
    }

    public long[] positions() {
        synchronized (lock) {
            return ResourceVersions.copy(positions);
        }
    }

    /**
     * Where a watch from one object's resourceVersion starts: with one partition, that number; with several, this
     * view's whole position just after it applied that change (so nothing it delivered before it comes again and
     * nothing after it is skipped), or empty when the change is no longer retained or not yet seen.
     */
    public Optional<long[]> positionAfter(long resourceVersion) {
        synchronized (lock) {
            if (positionAfterChange == null) {
                return Optional.of(new long[] {resourceVersion});
            }
            long[] at = positionAfterChange.get(resourceVersion);
            return at == null ? Optional.empty() : Optional.of(ResourceVersions.copy(at));
        }
    }

    /**
     * Watches changes after {@code from} (exclusive) that pass {@code filter}.
     *
     * @throws GoneException when changes after {@code from} are no longer retained
     */
    public Subscription watch(long[] from, Predicate<ObjectChanged> filter, int buffer) throws GoneException {
        synchronized (lock) {
            for (int p = 0; p < from.length; p++) {
                if (from[p] < evictedUpTo[p]) {
                    throw new GoneException("too old resource version: " + from[p] + " (" + evictedUpTo[p] + ")");
                }
            }
            Sub[] holder = new Sub[1];
            Subscription s = new Subscription(buffer, () -> subscribers.remove(holder[0]));
            // A watch may start ahead of this view (a list served by another gateway): skip what it has seen.
            holder[0] = new Sub(s, filter, ResourceVersions.copy(from));
            for (Recent r : recent) {
                ObjectChanged c = r.change();
                if (ResourceVersions.after(from, c.getResourceVersion()) && filter.test(c)) {
                    s.offer(WatchEvent.of(c));
                }
            }
            subscribers.add(holder[0]);
            return s;
        }
    }

    /** A watch that starts with a synthetic ADDED for every matching object, then follows changes. */
    public Subscription watchFromNow(String kind, String namespace, Predicate<ObjectChanged> filter, int buffer) {
        synchronized (lock) {
            Sub[] holder = new Sub[1];
            List<ObjectChanged> existing = new ArrayList<>();
            for (ObjectChanged c : list(kind, namespace)) {
                if (filter.test(c)) {
                    existing.add(c);
                }
            }
            // The buffer holds the synthetic ADDED events for what exists, plus {@code buffer} live events.
            Subscription s = new Subscription(existing.size() + buffer, () -> subscribers.remove(holder[0]));
            holder[0] = new Sub(s, filter, null);
            existing.forEach(c -> s.offer(WatchEvent.existing(c)));
            subscribers.add(holder[0]);
            return s;
        }
    }

    /** Completes when the change made by request {@code requestId} is applied. Register before sending. */
    public CompletableFuture<ObjectChanged> awaitRequest(String requestId) {
        return pendingRequests.computeIfAbsent(requestId, id -> new CompletableFuture<>());
    }

    public void forgetRequest(String requestId) {
        pendingRequests.remove(requestId);
    }

    /**
     * Completes when the object {@code key} is at {@code resourceVersion} or later (read-your-writes for a command the
     * writer accepted without change).
     */
    public CompletableFuture<Void> awaitVersion(String key, long resourceVersion) {
        synchronized (lock) {
            ObjectChanged c = store.get(key).orElse(null);
            if (c != null && c.getResourceVersion() >= resourceVersion) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> f = new CompletableFuture<>();
            positionWaiters.computeIfAbsent(key + "@" + resourceVersion, k -> new ArrayList<>()).add(f);
            return f;
        }
    }

    /** Total of the consumer's offsets: grows as the view reads the log (for lag display). */
    public long consumedOffsets() {
        return consumerPositionTotal;
    }

    /** The next offset this view reads on {@code partition} of the event log. */
    public long consumedOffset(int partition) {
        return consumerPositions.get(partition);
    }

    public long appliedChanges() {
        return applied;
    }

    public Throwable failure() {
        return failure;
    }

    @Override
    public void close() {
        if (sharedKey != null) {
            synchronized (SHARED) {
                if (--users > 0) {
                    return;
                }
                SHARED.remove(sharedKey, this);
            }
        }
        closed = true;
        if (consumer != null) {
            consumer.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
