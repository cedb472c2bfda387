package io.eventplane.controllers.namespace;

import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.model.Namespace;
import io.eventplane.model.NamespaceSpec;
import io.eventplane.model.NamespaceStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.Action;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;

/**
 * One step of deleting a namespace (Kubernetes' namespacedResourcesDeleter), as a pure decision: every object in it
 * is deleted (Background propagation), the conditions say what is left and why, and once nothing is left the
 * {@code kubernetes} finalizer is removed through the finalize subresource, upon which the writer removes the
 * namespace. Pods are given their grace period; an object held by finalizers is waited for.
 *
 * <p>Deletes are decided on the view, so what is left is judged as the writer will leave it: an object this step
 * deletes stays only when it is a pod with a grace period or carries finalizers. The finalizer goes only once the
 * view shows the namespace empty, one step after the last content went.
 */
public final class NamespaceDeleter {
    static final String KUBERNETES_FINALIZER = "kubernetes";
    /** The finalizer estimate when content is held by finalizers (Kubernetes' finalizerEstimateSeconds). */
    static final long FINALIZER_ESTIMATE_SECONDS = 15;
    /** How long to wait before looking again after content that should have gone did not. */
    static final Duration RETRY_AFTER_ERROR = Duration.ofSeconds(5);
    private static final long DEFAULT_POD_GRACE = 30;

    /** What one step decided: the commands, and when to look again (null: when something changes). */
    public record Step(List<Action> actions, Duration requeueAfter) {
        static final Step NOTHING = new Step(List.of(), null);
    }

    /** What is left in the namespace after this step's deletes, per resource and per finalizer. */
    record Remaining(Map<String, Integer> byResource, Map<String, Integer> byFinalizer, List<String> errors,
                     long estimateSeconds) {
    }

    private NamespaceDeleter() {
    }

    /**
     * @param content every object in the namespace, by kind (namespaced kinds only)
     */
    public static Step decide(Namespace ns, Map<KindInfo, List<SpecificRecord>> content, Instant now) {
        ObjectMeta meta = ns.getMetadata();
        if (meta == null || meta.getDeletionTimestamp() == null || !finalizers(ns).contains(KUBERNETES_FINALIZER)) {
            return Step.NOTHING; // not being deleted, or our part is done
        }
        List<Action> deletes = new ArrayList<>();
        for (Map.Entry<KindInfo, List<SpecificRecord>> e : content.entrySet()) {
            for (SpecificRecord o : e.getValue()) {
                ObjectMeta m = ObjectAccess.meta(o);
                if (m.getDeletionTimestamp() == null) {
                    deletes.add(new Action.Delete(e.getKey(), m.getNamespace(), m.getName(), m.getUid(), null,
                            "Background", null, null, null));
                }
            }
        }
        Remaining left = remaining(meta.getName(), meta.getDeletionTimestamp(), content, now);
        NamespaceStatus status = NamespaceConditions.status(ns.getStatus(), left, now);
        List<Action> actions = new ArrayList<>(deletes);
        boolean statusChanges = !NamespaceConditions.same(ns.getStatus(), status);
        if (statusChanges) {
            actions.add(new Action.UpdateStatus(Namespace.newBuilder(ns).setStatus(status).build()));
        } else if (deletes.isEmpty() && content.values().stream().allMatch(List::isEmpty)) {
            actions.add(new Action.Finalize(withoutKubernetesFinalizer(ns)));
        }
        Duration requeue = null;
        if (!left.errors().isEmpty()) {
            requeue = RETRY_AFTER_ERROR;
        } else if (left.estimateSeconds() > 0) {
            requeue = Duration.ofSeconds(left.estimateSeconds() / 2 + 1); // as the namespace controller requeues
        }
        return new Step(actions, requeue);
    }

    /**
     * What stays once this step's deletes are through (deleteAllContent's count of what it could not remove yet): an
     * object already being deleted, a pod given a grace period, an object held by finalizers. Content without
     * finalizers that outlives its grace period is an error, as Kubernetes reports it.
     */
    static Remaining remaining(String namespace, Instant deletedAt, Map<KindInfo, List<SpecificRecord>> content,
                               Instant now) {
        Map<String, Integer> byResource = new TreeMap<>();
        Map<String, Integer> byFinalizer = new TreeMap<>();
        List<String> errors = new ArrayList<>();
        long estimate = 0;
        for (Map.Entry<KindInfo, List<SpecificRecord>> e : content.entrySet()) {
            KindInfo kind = e.getKey();
            long kindEstimate = kind == Kinds.POD ? podEstimate(e.getValue(), deletedAt, now) : 0;
            int left = 0;
            Map<String, Integer> finalizers = new TreeMap<>();
            for (SpecificRecord o : e.getValue()) {
                List<String> held = finalizersAfterDelete(ObjectAccess.meta(o));
                boolean stays = ObjectAccess.meta(o).getDeletionTimestamp() != null || !held.isEmpty()
                        || (o instanceof Pod p && gracefulPod(p));
                if (stays) {
                    left++;
                    held.forEach(f -> finalizers.merge(f, 1, Integer::sum));
                }
            }
            if (left == 0) {
                continue;
            }
            byResource.put(kind.plural() + "." + kind.group(), left);
            finalizers.forEach((f, n) -> byFinalizer.merge(f, n, Integer::sum));
            if (kindEstimate > 0) {
                estimate = Math.max(estimate, kindEstimate);
            } else if (!finalizers.isEmpty()) {
                estimate = Math.max(estimate, FINALIZER_ESTIMATE_SECONDS);
            } else {
                errors.add("unexpected items still remain in namespace: " + namespace + " for gvr: " + kind.group()
                        + "/" + kind.version() + ", Resource=" + kind.plural());
            }
        }
        return new Remaining(byResource, byFinalizer, errors, estimate);
    }

    /**
     * The longest grace period of the namespace's running pods, or 0 once that much time has passed since the
     * namespace's deletion (estimateGracefulTerminationForPods).
     */
    private static long podEstimate(List<SpecificRecord> pods, Instant deletedAt, Instant now) {
        long estimate = 0;
        for (SpecificRecord o : pods) {
            Pod p = (Pod) o;
            String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase) || p.getSpec() == null) {
                continue;
            }
            Long grace = p.getSpec().getTerminationGracePeriodSeconds();
            estimate = Math.max(estimate, grace == null ? DEFAULT_POD_GRACE : grace);
        }
        return Duration.between(deletedAt, now).getSeconds() >= estimate ? 0 : estimate;
    }

    /** A pod the writer deletes gracefully: bound, not finished, with a grace period (PodRules' rule). */
    private static boolean gracefulPod(Pod p) {
        if (p.getSpec() == null || p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty()) {
            return false;
        }
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return false;
        }
        Long grace = p.getSpec().getTerminationGracePeriodSeconds();
        return (grace == null ? DEFAULT_POD_GRACE : grace) > 0;
    }

    /** The finalizers an object keeps after a Background delete (which drops orphan and foregroundDeletion). */
    private static List<String> finalizersAfterDelete(ObjectMeta meta) {
        List<String> out = new ArrayList<>();
        for (String f : meta.getFinalizers() == null ? List.<String>of() : meta.getFinalizers()) {
            if (meta.getDeletionTimestamp() != null
                    || (!f.equals(ObjectDecider.ORPHAN_FINALIZER) && !f.equals(ObjectDecider.FOREGROUND_FINALIZER))) {
                out.add(f);
            }
        }
        return out;
    }

    private static List<String> finalizers(Namespace ns) {
        return ns.getSpec() == null || ns.getSpec().getFinalizers() == null ? List.of() : ns.getSpec().getFinalizers();
    }

    /** spec.finalizers without ours, sorted as Kubernetes' finalizeNamespace leaves them. */
    static Namespace withoutKubernetesFinalizer(Namespace ns) {
        TreeSet<String> rest = new TreeSet<>(finalizers(ns));
        rest.remove(KUBERNETES_FINALIZER);
        NamespaceSpec spec = NamespaceSpec.newBuilder(ns.getSpec()).setFinalizers(new ArrayList<>(rest)).build();
        return Namespace.newBuilder(ns).setSpec(spec).build();
    }
}
