package io.eventplane.reconcile;

import io.eventplane.client.ClusterView;
import io.eventplane.log.ObjectChanged;
import java.util.Collection;
import java.util.List;

/**
 * A keyed controller that decides a batch of keys together, against state it keeps itself, and sends through the
 * {@link ControllerContext} (the scheduler: one snapshot of the cluster per batch, bindings it assumes until the view
 * shows them, unschedulable pods parked until the cluster changes). The runtime still owns the clients, the view,
 * the queue, leader election, readiness and shutdown. Prefer {@link Reconciler}: this shape is for hot paths whose
 * bookkeeping cannot be rebuilt from the view at every key.
 */
public interface BatchReconciler {
    /** Adds the indexes this controller reads; called before the controller starts. */
    default void index(ClusterView view) {
    }

    /** Binds the controller to its context, before the view starts. */
    void init(ControllerContext context);

    /** Every change from the log's start, on the view's thread (queue keys only once {@code context.synced()}). */
    void observe(ObjectChanged change, ObjectChanged previous);

    /** The keys to look at when this instance starts acting (on start, and on becoming leader). */
    Collection<String> initialKeys(ClusterView view);

    /** One batch of keys from the queue, on the worker thread. Every key is given back to the queue by the runtime. */
    void process(List<String> keys);

    /** Every turn of the worker, also without keys (at least once a second): timeouts, expiries. */
    default void idle() {
    }

    /** Keys taken from the queue at a time. */
    default int batch() {
        return 512;
    }
}
