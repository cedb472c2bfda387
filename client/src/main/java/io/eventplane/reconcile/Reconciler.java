package io.eventplane.reconcile;

import io.eventplane.client.ClusterView;
import io.eventplane.log.ObjectChanged;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A keyed, level-triggered controller as the runtime ({@link Controller}) runs it: which objects a change concerns,
 * and one step for one object. The step reads the view (the whole current state) and returns a decision made by a
 * pure function; it sends nothing itself. The runtime owns the rest: the queue with per-key backoff, in-flight
 * expectations (a key is not decided again while its commands are on their way), verdicts, Events, leader election.
 */
public interface Reconciler {
    /** The kind this controller owns ({@code ReplicaSet}, {@code Deployment}, ...). */
    String kind();

    /**
     * The keys of owned objects a change may concern (the object itself, the owner of a pod, ...). Called on the
     * view's thread, in log order, once the view has caught up with the log; must not block.
     *
     * @param previous the object's change before this one, or null when it did not exist (or is not known)
     */
    Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view);

    /**
     * @param key         the owned object's key
     * @param lastFailure the message of the last rejected command for this key since its last successful step, or null
     */
    Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure);

    /** Adds the indexes this controller reads to its view; called before the controller starts. */
    default void index(ClusterView view) {
    }

    /**
     * Every change from the log's start, before {@link #keysFor}, on the view's thread: for a controller that keeps
     * an index of its own (the garbage collector's owner graph). Most controllers keep nothing.
     */
    default void observe(ObjectChanged change, ObjectChanged previous) {
    }

    /** The keys to look at when the controller starts acting (on start, and on becoming leader): all it owns. */
    default Collection<String> initialKeys(ClusterView view) {
        List<String> keys = new ArrayList<>();
        for (ObjectChanged c : view.list(kind(), null)) {
            keys.add(io.eventplane.core.Keys.of(c.getKind(), c.getNamespace(), c.getName()));
        }
        return keys;
    }

    default Options options() {
        return Options.DEFAULTS;
    }

    /**
     * How the runtime drives a reconciler.
     *
     * @param batch          keys taken from the queue at a time
     * @param verdictTimeout how long a command may wait for the writer's verdict before the key is decided again
     *                       (Kubernetes' expectations last 5 minutes: the command is in the log and will be decided)
     * @param quorumReads    before each batch, catch up with the log's end: an object missing from the view is
     *                       really gone (the garbage collector deletes only on such positive evidence)
     * @param baseDelay      first retry delay of a failing key (doubling up to {@code maxDelay})
     */
    record Options(int batch, java.time.Duration verdictTimeout, boolean quorumReads, java.time.Duration baseDelay,
                   java.time.Duration maxDelay) {
        public static final Options DEFAULTS = new Options(64, java.time.Duration.ofMinutes(5), false,
                java.time.Duration.ofMillis(100), java.time.Duration.ofSeconds(30));

        public Options withBatch(int n) {
            return new Options(n, verdictTimeout, quorumReads, baseDelay, maxDelay);
        }

        public Options withVerdictTimeout(java.time.Duration d) {
            return new Options(batch, d, quorumReads, baseDelay, maxDelay);
        }

        public Options withQuorumReads() {
            return new Options(batch, verdictTimeout, true, baseDelay, maxDelay);
        }

        public Options withBackoff(java.time.Duration base, java.time.Duration max) {
            return new Options(batch, verdictTimeout, quorumReads, base, max);
        }
    }
}
