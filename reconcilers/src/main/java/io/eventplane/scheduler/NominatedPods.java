package io.eventplane.scheduler;

import io.eventplane.client.ObjectView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Pod;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.PriorityClass;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scheduler's bookkeeping for preemption: which pending pods are nominated to a node (noted on the view's thread
 * as pods change), and, once per batch, what {@link Preemption} reads from the view (PriorityClasses, budgets, the
 * nominated pods, the current pod objects).
 */
final class NominatedPods {
    private final Set<String> keys = ConcurrentHashMap.newKeySet();

    /** Notes a pod's change; {@code pod} null when it is gone. */
    void observe(String key, Pod pod, String schedulerName) {
        if (pod != null && SchedulerDecider.isPending(pod, schedulerName) && nominatedNode(pod) != null) {
            keys.add(key);
        } else {
            keys.remove(key);
        }
    }

    Preemption.Inputs inputs(ObjectView view, String schedulerName, Instant now) {
        List<PriorityClass> classes = new ArrayList<>();
        view.list(Kinds.PRIORITY_CLASS.kind(), null).forEach(c -> classes.add((PriorityClass) c.getObject()));
        List<PodDisruptionBudget> pdbs = new ArrayList<>();
        view.list(Kinds.POD_DISRUPTION_BUDGET.kind(), null).forEach(c -> pdbs.add((PodDisruptionBudget) c.getObject()));
        List<Pod> nominated = new ArrayList<>();
        for (String key : keys) {
            pod(view, key).filter(p -> SchedulerDecider.isPending(p, schedulerName) && nominatedNode(p) != null)
                    .ifPresent(nominated::add);
        }
        return new Preemption.Inputs(PodPriorities.of(classes), pdbs,
                info -> pod(view, Keys.of(Kinds.POD.kind(), info.namespace(), info.name()))
                        .filter(p -> p.getMetadata().getUid().equals(info.uid())),
                nominated, now);
    }

    private static Optional<Pod> pod(ObjectView view, String key) {
        return view.get(key).map(c -> (Pod) c.getObject());
    }

    static String nominatedNode(Pod pod) {
        String node = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
        return node == null || node.isEmpty() ? null : node;
    }
}
