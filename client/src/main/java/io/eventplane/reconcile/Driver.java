package io.eventplane.reconcile;

import io.eventplane.log.ObjectChanged;

/** How a {@link Controller} drives one shape of controller; the shell owns threads, leadership and shutdown. */
interface Driver {
    /** Before the view starts (or, on a shared view, before the controller listens): indexes. */
    void init(Controller.Shell shell);

    /** Every change from the log's start, on the view's thread. */
    void onChange(ObjectChanged change, ObjectChanged previous);

    /** This instance starts acting: after the view caught up, and again on every leadership gained. */
    void startActing();

    /** One turn of work while acting; returns within about a second so leadership is checked again. */
    void turn() throws InterruptedException;

    /** Steps, in flight, queue depth for {@link ControllerMetrics}. */
    long steps();

    int inFlight();

    int queued();

    /** Stops handing out work (the worker is interrupted next). */
    void close();

    /** The verdicts of the commands this driver sent, or null when it sends without waiting. */
    ActionSender sender();
}
