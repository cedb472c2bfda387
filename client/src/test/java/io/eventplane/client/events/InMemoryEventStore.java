package io.eventplane.client.events;

import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.Verb;
import io.eventplane.model.Event;
import io.eventplane.model.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The writer and a view of Events, in memory: a CREATE of an existing name is AlreadyExists, an UPDATE needs the
 * stored resourceVersion (Conflict otherwise, NotFound when absent). Verdicts can be held back to keep writes in flight.
 */
final class InMemoryEventStore implements EventStore {
    private final Map<String, Stored> events = new ConcurrentHashMap<>();
    private final AtomicLong position = new AtomicLong(100);
    final List<Command> commands = new CopyOnWriteArrayList<>();
    private final List<Runnable> held = new ArrayList<>();
    private volatile boolean holding;
    /** UPDATEs rejected with Conflict regardless of their precondition. */
    private volatile int conflictsToForce;

    /** What a lagging view still shows instead of the stored Event, until the recorder waits for it to catch up. */
    private final Map<String, Stored> lagging = new ConcurrentHashMap<>();

    @Override
    public Optional<Stored> find(String namespace, String name) {
        String key = namespace + "/" + name;
        Stored behind = lagging.get(key);
        return Optional.ofNullable(behind != null ? behind : events.get(key));
    }

    @Override
    public CompletableFuture<CommandOutcome> submit(Command command) {
        commands.add(command);
        CompletableFuture<CommandOutcome> f = new CompletableFuture<>();
        Runnable decide = () -> f.complete(decide(command));
        synchronized (held) {
            if (holding) {
                held.add(decide);
                held.notifyAll();
                return f;
            }
        }
        decide.run();
        return f;
    }

    @Override
    public CompletableFuture<Void> awaitNewer(String namespace, String name, long resourceVersion) {
        lagging.remove(namespace + "/" + name);
        return CompletableFuture.completedFuture(null);
    }

    private synchronized CommandOutcome decide(Command c) {
        String key = c.getNamespace() + "/" + c.getName();
        Stored current = events.get(key);
        Event in = (Event) c.getObject();
        if (c.getVerb() == Verb.CREATE) {
            if (current != null) {
                return rejected(c, 409, "AlreadyExists");
            }
            return accepted(c, key, in);
        }
        if (c.getVerb() != Verb.UPDATE) {
            return rejected(c, 400, "BadRequest");
        }
        if (current == null) {
            return rejected(c, 404, "NotFound");
        }
        if (conflictsToForce > 0) {
            conflictsToForce--;
            return rejected(c, 409, "Conflict");
        }
        if (!Long.toString(current.resourceVersion()).equals(in.getMetadata().getResourceVersion())) {
            return rejected(c, 409, "Conflict");
        }
        return accepted(c, key, in);
    }

    private CommandOutcome accepted(Command c, String key, Event in) {
        long rv = position.incrementAndGet();
        put(key, in, rv);
        return outcome(c).setAccepted(true).setChanged(true).setResourceVersion(rv).build();
    }

    private void put(String key, Event e, long rv) {
        ObjectMeta meta = ObjectMeta.newBuilder(e.getMetadata()).setResourceVersion(Long.toString(rv)).build();
        events.put(key, new Stored(ObjectAccess.withMeta(e, meta), rv));
    }

    private static CommandOutcome rejected(Command c, int code, String reason) {
        return outcome(c).setAccepted(false).setCode(code).setReason(reason).setMessage(reason).build();
    }

    private static CommandOutcome.Builder outcome(Command c) {
        return CommandOutcome.newBuilder().setEnvelope(c.getEnvelope()).setKind(c.getKind())
                .setNamespace(c.getNamespace()).setName(c.getName());
    }

    /**
     * Someone else writes the Event (another recorder, a user): its resourceVersion moves on, and the view does not
     * show it yet.
     */
    synchronized void writeBehindTheRecordersBack(String namespace, String name, Event e) {
        String key = namespace + "/" + name;
        Stored before = events.get(key);
        put(key, e, position.incrementAndGet());
        if (before != null) {
            lagging.put(key, before);
        }
    }

    synchronized void delete(String namespace, String name) {
        events.remove(namespace + "/" + name);
    }

    void forceConflicts(int n) {
        conflictsToForce = n;
    }

    void hold() {
        synchronized (held) {
            holding = true;
        }
    }

    /** Waits until {@code n} verdicts are held back. */
    void awaitHeld(int n) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        synchronized (held) {
            while (held.size() < n) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    throw new AssertionError(held.size() + " verdict(s) held, expected " + n);
                }
                held.wait(left);
            }
        }
    }

    void release() {
        List<Runnable> now;
        synchronized (held) {
            holding = false;
            now = new ArrayList<>(held);
            held.clear();
        }
        now.forEach(Runnable::run);
    }

    List<Event> all() {
        List<Event> out = new ArrayList<>();
        events.values().forEach(s -> out.add(s.event()));
        return out;
    }

    Event get(String namespace, String name) {
        return find(namespace, name).map(Stored::event).orElse(null);
    }
}
