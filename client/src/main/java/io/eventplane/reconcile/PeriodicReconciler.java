package io.eventplane.reconcile;

import io.eventplane.client.ClusterView;
import java.time.Duration;
import java.time.Instant;

/**
 * A controller that looks at the whole cluster at once, every {@link #period()} or sooner when its last tick asked
 * ({@link Reconciliation#requeueAfter()}): the node lifecycle controller and PodGC. Each tick is judged on a view that
 * has everything the writer decided before {@code now} ({@link WriterBarrier}), so a backlog of commands (node Lease
 * renewals above all) delays the judgement instead of making the cluster look stale. A command about an object at a
 * resourceVersion already on its way is not sent again.
 */
public interface PeriodicReconciler {
    Duration period();

    /** One look at the cluster as of {@code now}. */
    Reconciliation tick(ClusterView view, Instant now);

    /** Adds the indexes this controller reads to its view; called before the controller starts. */
    default void index(ClusterView view) {
    }
}
