package io.eventplane.scheduler;

import io.eventplane.model.Pod;
import java.util.List;

/** One filter of the scheduling cycle: why {@code node} cannot take {@code pod}; empty when it can. */
@FunctionalInterface
public interface NodeFilter {
    List<String> reasons(Pod pod, PodDemand demand, NodeState node);
}
