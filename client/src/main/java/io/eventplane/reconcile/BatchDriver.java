package io.eventplane.reconcile;

import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Drives a {@link BatchReconciler}: batches of keys from the queue, handed back to the queue after each batch. */
final class BatchDriver implements Driver {
    private static final Logger LOG = LoggerFactory.getLogger(BatchDriver.class);

    private final BatchReconciler reconciler;
    private final AtomicLong steps = new AtomicLong();
    private WorkQueue<String> queue;
    private Controller.Shell shell;

    BatchDriver(BatchReconciler reconciler) {
        this.reconciler = reconciler;
    }

    WorkQueue<String> queue() {
        return queue;
    }

    @Override
    public void init(Controller.Shell shell) {
        this.shell = shell;
        this.queue = new WorkQueue<>(shell.actor() + "-queue");
        reconciler.index(shell.view());
        reconciler.init(shell);
    }

    @Override
    public void onChange(ObjectChanged change, ObjectChanged previous) {
        reconciler.observe(change, previous);
    }

    @Override
    public void startActing() {
        int n = 0;
        for (String key : reconciler.initialKeys(shell.view())) {
            queue.add(key);
            n++;
        }
        LOG.info("{}: acting; {} key(s) queued", shell.actor(), n);
    }

    @Override
    public void turn() throws InterruptedException {
        List<String> batch = queue.take(reconciler.batch(), Duration.ofSeconds(1));
        reconciler.idle();
        if (batch.isEmpty()) {
            return;
        }
        steps.incrementAndGet();
        try {
            reconciler.process(batch);
        } finally {
            batch.forEach(queue::done);
        }
    }

    @Override
    public long steps() {
        return steps.get();
    }

    @Override
    public int inFlight() {
        return 0;
    }

    @Override
    public int queued() {
        return queue == null ? 0 : queue.size() + queue.delayed();
    }

    @Override
    public ActionSender sender() {
        return null;
    }

    @Override
    public void close() {
        if (queue != null) {
            queue.close();
        }
    }
}
