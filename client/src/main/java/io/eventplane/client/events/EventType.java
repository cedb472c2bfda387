package io.eventplane.client.events;

/** The two event types Kubernetes knows: {@code Normal} (things went as planned) and {@code Warning}. */
public enum EventType {
    Normal,
    Warning
}
