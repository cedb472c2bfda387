package io.eventplane.nodesim;

import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.core.meta.Owners;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;

/**
 * The load a workload's traffic puts on its pods, shared by the ones that are Ready as a load balancer shares it: with
 * N Ready pods each gets 1/N of it, so scaling the workload up lowers each pod's use, which is what a horizontal pod
 * autoscaler counts on. Declared by {@code sim.eventplane.io/cpu-load} and {@code memory-load}
 * ({@link UsageExpression}s of the total) on the workload object (a Deployment, ReplicaSet, StatefulSet,
 * ReplicationController ..., so {@code kubectl annotate} changes it at once without a rollout) or on its pod
 * template; the object highest in the pod's chain of controllers that declares one wins. Its time counts from the
 * creation of the top of that chain (the workload), the same for every pod of it.
 *
 * @param group  the workload (the uid of the top of the pod's chain of controllers; the pod's own uid without one)
 * @param origin when the workload was created: the load's time 0
 * @param cpu    the total CPU load in cores, or null
 * @param memory the total memory load in bytes, or null
 */
record WorkloadLoad(String group, Instant origin, UsageExpression cpu, UsageExpression memory) {
    static final String CPU = "cpu-load";
    static final String MEMORY = "memory-load";
    private static final int MAX_DEPTH = 5;

    /** Finds an object by key ({@code Kind/namespace/name}) in the view. */
    interface Objects extends Function<String, Optional<SpecificRecord>> {
    }

    /**
     * The pod's workload load, if the pod's chain declares one; throws {@link IllegalArgumentException} naming the
     * object and annotation when a declared value cannot be read.
     */
    static Optional<WorkloadLoad> of(Pod pod, Objects objects) {
        List<SpecificRecord> chain = chain(pod, objects);
        UsageExpression cpu = null;
        UsageExpression memory = null;
        for (int i = chain.size() - 1; i >= 0 && (cpu == null || memory == null); i--) {
            ObjectMeta meta = ObjectAccess.meta(chain.get(i));
            Map<String, String> a = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
            cpu = cpu != null ? cpu : expression(a, CPU, chain.get(i));
            memory = memory != null ? memory : expression(a, MEMORY, chain.get(i));
        }
        if (cpu == null && memory == null) {
            return Optional.empty();
        }
        ObjectMeta top = ObjectAccess.meta(chain.get(chain.size() - 1));
        Instant origin = top.getCreationTimestamp() == null ? Instant.EPOCH : top.getCreationTimestamp();
        return Optional.of(new WorkloadLoad(top.getUid(), origin, cpu, memory));
    }

    /** The workload a pod belongs to: the uid of the top of its chain of controllers (its own uid without one). */
    static String groupOf(Pod pod, Objects objects) {
        List<SpecificRecord> chain = chain(pod, objects);
        return ObjectAccess.meta(chain.get(chain.size() - 1)).getUid();
    }

    /** The pod and its controllers, up the owner references that the view confirms (uid and all). */
    static List<SpecificRecord> chain(Pod pod, Objects objects) {
        List<SpecificRecord> out = new ArrayList<>();
        out.add(pod);
        ObjectMeta meta = pod.getMetadata();
        for (int i = 0; i < MAX_DEPTH; i++) {
            Optional<OwnerReference> ref = Owners.controllerOf(meta);
            if (ref.isEmpty()) {
                break;
            }
            String uid = ref.get().getUid();
            String kind = Kinds.logKind(ref.get().getApiVersion(), ref.get().getKind());
            Optional<SpecificRecord> owner = objects.apply(Keys.of(kind, meta.getNamespace(),
                    ref.get().getName())).filter(o -> uid == null || uid.equals(ObjectAccess.meta(o).getUid()));
            if (owner.isEmpty()) {
                break;
            }
            out.add(owner.get());
            meta = ObjectAccess.meta(owner.get());
        }
        return out;
    }

    private static UsageExpression expression(Map<String, String> annotations, String key, SpecificRecord on) {
        String v = annotations.get(PodBehavior.PREFIX + key);
        if (v == null) {
            return null;
        }
        try {
            return UsageExpression.parse(v);
        } catch (IllegalArgumentException e) {
            ObjectMeta m = ObjectAccess.meta(on);
            throw new IllegalArgumentException(on.getClass().getSimpleName() + " " + m.getNamespace() + "/" + m.getName()
                    + ": annotation " + PodBehavior.PREFIX + key + ": " + e.getMessage());
        }
    }
}
