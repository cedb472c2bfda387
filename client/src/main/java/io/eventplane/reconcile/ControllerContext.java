package io.eventplane.reconcile;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.ObjectView;
import io.eventplane.client.events.EventRecorder;
import java.time.Clock;

/** What the runtime hands a {@link BatchReconciler}: its clients, its queue, and whether the view has caught up. */
public interface ControllerContext {
    String actor();

    Clock clock();

    ObjectView view();

    WorkQueue<String> queue();

    /** Sends without waiting for a verdict (the controller follows the effect in its view). */
    CommandSender sender();

    /** Commands stamped with the controller's actor and clock. */
    Commands commands();

    EventRecorder events();

    /** The view has caught up with the log once: changes from now on are news, not the replay of history. */
    boolean synced();
}
