package io.eventplane.client.events;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.events.EventAggregation.Occurrence;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.model.Event;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records Events on the log through the single writer, without ever blocking the caller.
 *
 * <p>{@link #record} stamps the occurrence with the injected clock and puts it on a bounded queue; when the queue is
 * full the occurrence is dropped, logged and counted ({@link #dropped()}). One sender thread takes occurrences and
 * owns everything else: it names each occurrence's Event ({@link EventAggregation#name}), finds the Event as last
 * written by this recorder or as the view shows it (whichever is newer), and sends a CREATE for a new Event or an
 * UPDATE with the stored resourceVersion for a repeat ({@link EventAggregation#next}). Writes of different Events are
 * pipelined (at most {@code maxInFlight} await the writer's verdict); writes of one Event are serial, and repeats that
 * come while one is in flight are merged into the next write (count + n). A write rejected because someone else
 * changed the Event (Conflict, AlreadyExists, NotFound) is tried once more after re-reading it once the view has seen
 * the change; then it is given up, logged and counted ({@link #failed()}).
 */
public final class KafkaEventRecorder implements EventRecorder, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaEventRecorder.class);
    /** client-go's broadcaster queues as many. */
    public static final int DEFAULT_CAPACITY = 1000;
    public static final int DEFAULT_IN_FLIGHT = 100;
    /** Events remembered as last written (beyond it, the view answers). */
    static final int CACHE_SIZE = 4096;
    private static final Duration VERDICT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DRAIN_ON_CLOSE = Duration.ofSeconds(2);

    /** The sender thread's state for one Event name. */
    private static final class Slot {
        /** What this recorder last stored under the name; null when unknown (then the view answers). */
        EventStore.Stored written;
        /** A write in flight (or waiting for its retry): for which occurrence, how many occurrences it counts. */
        boolean busy;
        Occurrence sending;
        Event sent;
        int sendingCount;
        int attempt;
        long basedOn;
        /** Repeats that came while busy, merged into the next write. */
        Occurrence waiting;
        int waitingCount;
    }

    private final EventStore store;
    private final Commands commands;
    private final Clock clock;
    private final EventOrigin origin;
    private final int maxInFlight;
    private final ArrayBlockingQueue<Occurrence> queue;
    /** Verdicts and retries handed back to the sender thread. */
    private final ConcurrentLinkedQueue<Runnable> posted = new ConcurrentLinkedQueue<>();
    private final Map<String, Slot> slots = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Slot> eldest) {
            return size() > CACHE_SIZE && !eldest.getValue().busy && eldest.getValue().waiting == null;
        }
    };
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    /** Occurrences accepted and not yet written or given up (for {@link #awaitIdle}). */
    private final AtomicInteger unfinished = new AtomicInteger();
    private final Object idle = new Object();
    private final Thread thread;
    private final AutoCloseable resources;
    private volatile boolean closed;
    private volatile boolean stopping;
    private int inFlight;

    /**
     * @param commands    builds the commands (their actor is who wrote the Events)
     * @param clock       stamps every occurrence (firstTimestamp, lastTimestamp)
     * @param origin      the source of what {@link #record} records; {@link #from} gives recorders for other sources
     * @param capacity    occurrences that may wait for the sender thread; more are dropped
     * @param maxInFlight writes that may await the writer's verdict at once
     */
    public KafkaEventRecorder(EventStore store, Commands commands, Clock clock, EventOrigin origin, int capacity,
                              int maxInFlight) {
        this(store, commands, clock, origin, capacity, maxInFlight, () -> {
        });
    }

    private KafkaEventRecorder(EventStore store, Commands commands, Clock clock, EventOrigin origin, int capacity,
                               int maxInFlight, AutoCloseable resources) {
        if (capacity < 1 || maxInFlight < 1) {
            throw new IllegalArgumentException("capacity and maxInFlight must be positive");
        }
        this.store = store;
        this.commands = commands;
        this.clock = clock;
        this.origin = origin;
        this.maxInFlight = maxInFlight;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.resources = resources;
        this.thread = new Thread(this::run, "event-recorder-" + origin.component());
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * A recorder on the log for a service that already has a command sender and a view (it adds a consumer of the
     * writer's verdicts, closed with the recorder).
     *
     * @param actor who the Event commands come from
     */
    public static KafkaEventRecorder start(EventplaneConfig config, CommandSender sender, ObjectView view, String actor,
                                           Clock clock, EventOrigin origin) {
        return start(config, sender, view, actor, Commands.Actor.of(actor), clock, origin);
    }

    /**
     * As above, the Event commands stamped with {@code identity} (a service's Kubernetes identity).
     *
     * @param id the clients' id
     */
    public static KafkaEventRecorder start(EventplaneConfig config, CommandSender sender, ObjectView view, String id,
                                           Commands.Actor identity, Clock clock, EventOrigin origin) {
        Outcomes outcomes = new Outcomes(config, id + "-event-outcomes");
        KafkaEventStore store = new KafkaEventStore(sender, outcomes, view, VERDICT_TIMEOUT);
        return new KafkaEventRecorder(store, new Commands(identity, clock), clock, origin, DEFAULT_CAPACITY,
                DEFAULT_IN_FLIGHT, () -> {
                    store.close();
                    outcomes.close();
                });
    }

    @Override
    public void record(ObjectReference involvedObject, EventType type, String reason, String message) {
        enqueue(involvedObject, type, reason, message, origin);
    }

    /** A recorder for another source (a kubelet per simulated node) sharing this one's queue and sender thread. */
    public EventRecorder from(EventOrigin other) {
        return (involvedObject, type, reason, message) -> enqueue(involvedObject, type, reason, message, other);
    }

    /** Occurrences dropped because the queue was full. */
    public long dropped() {
        return dropped.get();
    }

    /** Writes the writer accepted. */
    public long written() {
        return written.get();
    }

    /** Occurrences given up after a rejection or without a verdict. */
    public long failed() {
        return failed.get();
    }

    /** Waits until everything recorded so far is written or given up; answers whether it was within the timeout. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (idle) {
            while (unfinished.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                idle.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
        return true;
    }

    private void enqueue(ObjectReference involvedObject, EventType type, String reason, String message, EventOrigin from) {
        if (closed) {
            return;
        }
        Occurrence o;
        try {
            o = new Occurrence(new EventNotice(involvedObject, type, reason, message), from, clock.instant());
        } catch (RuntimeException e) {
            LOG.warn("event not recorded, it is incomplete: {} {} {}: {}", type, reason, message, e.toString());
            return;
        }
        unfinished.incrementAndGet();
        if (!queue.offer(o)) {
            finished(1);
            long n = dropped.incrementAndGet();
            if (n == 1 || n % 1000 == 0) {
                LOG.warn("event queue full ({} waiting): dropped {} {} of {}/{} ({} dropped so far)", queue.size(),
                        type, reason, involvedObject.getNamespace(), involvedObject.getName(), n);
            } else {
                LOG.debug("event queue full: dropped {} {} of {}/{}", type, reason, involvedObject.getNamespace(),
                        involvedObject.getName());
            }
            return;
        }
        LockSupport.unpark(thread);
    }

    // ---- the sender thread

    private void run() {
        while (!stopping) {
            try {
                boolean worked = false;
                // Occurrences first, then completions: what was recorded before a write completed is merged into the
                // slot's waiting occurrence and goes out as one update when the write completes.
                while (inFlight < maxInFlight) {
                    Occurrence o = queue.poll();
                    if (o == null) {
                        break;
                    }
                    take(o);
                    worked = true;
                }
                for (Runnable r = posted.poll(); r != null; r = posted.poll()) {
                    r.run();
                    worked = true;
                }
                if (!worked) {
                    // Whatever gives this thread work (an occurrence, a completion, close) unparks it.
                    LockSupport.park(this);
                }
            } catch (RuntimeException e) {
                LOG.warn("event recorder: {}", e.toString(), e);
            }
        }
    }

    private void post(Runnable r) {
        posted.add(r);
        LockSupport.unpark(thread);
    }

    private void take(Occurrence o) {
        String name = o.name();
        Slot s = slots.get(name);
        if (s == null) {
            s = new Slot();
            slots.put(name, s);
        }
        if (s.busy) {
            s.waiting = o;
            s.waitingCount++;
            return;
        }
        write(name, s, o, 1, 1);
    }

    private void write(String name, Slot s, Occurrence o, int count, int attempt) {
        EventStore.Stored current = newest(s.written, store.find(o.namespace(), name).orElse(null));
        Event next = EventAggregation.next(current == null ? null : current.event(), o, count);
        s.busy = true;
        s.sending = o;
        s.sendingCount = count;
        s.attempt = attempt;
        s.basedOn = current == null ? 0 : current.resourceVersion();
        Command command;
        if (current == null) {
            s.sent = next;
            command = commands.create(next);
        } else {
            s.sent = withResourceVersion(next, current.resourceVersion());
            command = commands.update(s.sent);
        }
        inFlight++;
        CompletableFuture<CommandOutcome> verdict;
        try {
            verdict = store.submit(command);
        } catch (RuntimeException e) {
            verdict = CompletableFuture.failedFuture(e);
        }
        verdict.whenComplete((outcome, e) -> post(() -> completed(name, s, outcome, e)));
    }

    private void completed(String name, Slot s, CommandOutcome outcome, Throwable error) {
        inFlight--;
        Occurrence o = s.sending;
        if (error != null) {
            s.written = null;
            giveUp(o, s.sendingCount, "no verdict from the writer: " + error);
        } else if (outcome.getAccepted()) {
            long rv = outcome.getResourceVersion() == null ? 0 : outcome.getResourceVersion();
            s.written = new EventStore.Stored(withResourceVersion(s.sent, rv), rv);
            written.incrementAndGet();
            finished(s.sendingCount);
        } else if (s.attempt == 1 && someoneElseWrote(outcome)) {
            // Our idea of the Event is stale: re-read it once the view shows what won, and try once more.
            s.written = null;
            LOG.debug("event {}/{}: {} ({}); retrying", o.namespace(), name, outcome.getReason(), outcome.getMessage());
            store.awaitNewer(o.namespace(), name, s.basedOn)
                    .whenComplete((v, e) -> post(() -> write(name, s, s.sending, s.sendingCount, 2)));
            return;
        } else {
            s.written = null;
            giveUp(o, s.sendingCount, outcome.getCode() + " " + outcome.getReason() + ": " + outcome.getMessage());
        }
        s.busy = false;
        s.sending = null;
        s.sent = null;
        if (s.waiting != null) {
            Occurrence w = s.waiting;
            int n = s.waitingCount;
            s.waiting = null;
            s.waitingCount = 0;
            write(name, s, w, n, 1);
        }
    }

    private static boolean someoneElseWrote(CommandOutcome outcome) {
        return outcome.getCode() == 409 || outcome.getCode() == 404;
    }

    private void giveUp(Occurrence o, int count, String why) {
        failed.addAndGet(count);
        finished(count);
        ObjectReference ref = o.notice().involvedObject();
        LOG.warn("event {} {} of {} {}/{} not recorded: {}", o.notice().type(), o.notice().reason(), ref.getKind(),
                ref.getNamespace(), ref.getName(), why);
    }

    private void finished(int count) {
        if (unfinished.addAndGet(-count) == 0) {
            synchronized (idle) {
                idle.notifyAll();
            }
        }
    }

    private static EventStore.Stored newest(EventStore.Stored a, EventStore.Stored b) {
        if (a == null) {
            return b;
        }
        return b == null || a.resourceVersion() >= b.resourceVersion() ? a : b;
    }

    private static Event withResourceVersion(Event e, long rv) {
        ObjectMeta meta = e.getMetadata() == null ? new ObjectMeta() : e.getMetadata();
        return Event.newBuilder(e).setMetadata(ObjectMeta.newBuilder(meta).setResourceVersion(Long.toString(rv)).build())
                .build();
    }

    /** Stops taking events, writes what is queued (for up to 2 s), then stops the sender thread. */
    @Override
    public void close() {
        closed = true;
        try {
            if (!awaitIdle(DRAIN_ON_CLOSE)) {
                LOG.info("event recorder closed with {} event(s) not yet written", unfinished.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            resources.close();
        } catch (Exception e) {
            LOG.debug("closing the event recorder's resources: {}", e.toString());
        }
    }
}
