package io.eventplane.scheduler;

import static io.eventplane.scheduler.TestObjects.container;
import static io.eventplane.scheduler.TestObjects.node;
import static io.eventplane.scheduler.TestObjects.pod;
import static io.eventplane.scheduler.TestObjects.states;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A pod is placed as one unit: its containers' requests together, init containers by the larger of the two. */
class PodResourceFitTest {
    private final SchedulerDecider decider = new SchedulerDecider(new SchedulerDecider.Profile(0, 100, null));

    @Test
    @DisplayName("POD-1.1 a pod's containers are co-scheduled on one node: two 600m containers do not fit 1-cpu nodes "
            + "one each, and go together to a 2-cpu node")
    void coScheduled() {
        Pod pod = pod("web", container("app", "600m", null), container("helper", "600m", null));
        Placement.Unschedulable none = assertInstanceOf(Placement.Unschedulable.class,
                decider.decide(pod, states(node("n1", "1", "4Gi", "110"), node("n2", "1", "4Gi", "110"))));
        assertEquals("0/2 nodes are available: 2 Insufficient cpu.", none.message());
        Placement.Bind bind = assertInstanceOf(Placement.Bind.class, decider.decide(pod,
                states(node("n1", "1", "4Gi", "110"), node("n2", "1", "4Gi", "110"), node("big", "2", "4Gi", "110"))));
        assertEquals("big", bind.node());
    }

    @Test
    @DisplayName("POD-10.4 the scheduler takes the larger of the biggest init container and the sum of the app "
            + "containers, not the sum of all: a 2-cpu init with two 500m apps fits a 2-cpu node")
    void initContainersByMaximum() {
        Pod base = pod("job", container("a", "500m", null), container("b", "500m", null));
        Pod pod = TestObjects.withSpec(base, PodSpec.newBuilder(base.getSpec())
                .setInitContainers(List.of(container("migrate", "2", null))).build());
        assertEquals("n1", assertInstanceOf(Placement.Bind.class,
                decider.decide(pod, states(node("n1", "2", "4Gi", "110")))).node());
        Pod bigger = TestObjects.withSpec(base, PodSpec.newBuilder(base.getSpec())
                .setInitContainers(List.of(container("migrate", "2500m", null))).build());
        assertInstanceOf(Placement.Unschedulable.class, decider.decide(bigger, states(node("n1", "2", "4Gi", "110"))));
    }
}
