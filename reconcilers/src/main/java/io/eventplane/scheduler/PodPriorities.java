package io.eventplane.scheduler;

import io.eventplane.model.PriorityClass;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * A pod's priority and preemption policy as preemption compares them. The API's Priority admission copies a
 * PriorityClass's value and policy into the pod; pods the controllers create reach the writer without that admission,
 * so a pod naming a class that exists is read through the class (both fields of a class are immutable, so this is what
 * admission would have written), and any other pod by its own {@code spec.priority} and {@code preemptionPolicy}.
 */
public final class PodPriorities {
    public static final PodPriorities NONE = new PodPriorities(Map.of());

    private final Map<String, PriorityClass> classes;

    private PodPriorities(Map<String, PriorityClass> classes) {
        this.classes = classes;
    }

    public static PodPriorities of(Collection<PriorityClass> classes) {
        Map<String, PriorityClass> byName = new HashMap<>();
        for (PriorityClass pc : classes) {
            byName.put(pc.getMetadata().getName(), pc);
        }
        return new PodPriorities(byName);
    }

    public int priority(PodInfo pod) {
        PriorityClass pc = pod.priorityClassName == null ? null : classes.get(pod.priorityClassName);
        return pc == null || pc.getValue() == null ? pod.priority : pc.getValue();
    }

    /** preemptionPolicy Never: the pod is placed ahead of lower ones but never evicts them. */
    public boolean neverPreempts(PodInfo pod) {
        PriorityClass pc = pod.priorityClassName == null ? null : classes.get(pod.priorityClassName);
        return pc == null || pc.getPreemptionPolicy() == null ? pod.preemptNever : "Never".equals(pc.getPreemptionPolicy());
    }
}
