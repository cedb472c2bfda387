package io.eventplane.client.events;

import java.util.Objects;

/**
 * Who reports events: the {@code source} of a core/v1 Event and its {@code reportingComponent}/{@code reportingInstance}.
 *
 * @param component         {@code source.component} and {@code reportingComponent}, e.g. {@code default-scheduler}, {@code kubelet}
 * @param host              {@code source.host}: the node name for kubelet events, null otherwise
 * @param reportingInstance {@code reportingInstance}: which replica of the component, e.g. the node name for a kubelet
 */
public record EventOrigin(String component, String host, String reportingInstance) {

    public EventOrigin {
        Objects.requireNonNull(component, "component");
    }

    /** A kubelet on {@code nodeName}: the host and the instance are the node. */
    public static EventOrigin kubelet(String nodeName) {
        return new EventOrigin("kubelet", nodeName, nodeName);
    }
}
