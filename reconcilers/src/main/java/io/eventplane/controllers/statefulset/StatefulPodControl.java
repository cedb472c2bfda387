package io.eventplane.controllers.statefulset;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.StatefulSet;
import io.eventplane.reconcile.Action;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a step asks of pods and claims, as {@link Action}s with Kubernetes' Events (stateful_pod_control.go): a pod is
 * created after its missing claims (a chain: the pod only once every claim is in), its identity fixed by an update,
 * deleted by uid; a claim's owner references follow the retention policy. It remembers what this step already asked,
 * so that a pod is never created or deleted twice in one step. Pure.
 */
final class StatefulPodControl {
    private final StatefulSet set;
    private final ObjectReference involved;
    /** The set's claims in the view, by name. */
    private final Map<String, PersistentVolumeClaim> claims;
    final List<Action> actions = new ArrayList<>();
    final List<EventNotice> events = new ArrayList<>();
    private final Set<String> creatingClaims = new HashSet<>();
    private final Set<String> touchedPods = new HashSet<>();
    private final Set<String> updatedClaims = new HashSet<>();

    StatefulPodControl(StatefulSet set, Map<String, PersistentVolumeClaim> claims) {
        this.set = set;
        this.involved = ObjectReferences.of(set);
        this.claims = claims;
    }

    private String setName() {
        return set.getMetadata().getName();
    }

    /** Whether this step already deletes or creates the pod of this name. */
    boolean touched(Pod pod) {
        return touchedPods.contains(pod.getMetadata().getName());
    }

    /**
     * Kubernetes' CreateStatefulPod: the pod's missing claims first (with the references the retention policy asks
     * for), then the pod. A claim being deleted holds the pod back (FailedCreate) until it is gone.
     */
    void createPod(Pod pod) {
        if (!touchedPods.add(pod.getMetadata().getName())) {
            return;
        }
        List<Action> chain = new ArrayList<>();
        for (PersistentVolumeClaim claim : StatefulPods.claimsFor(set, StatefulPods.ordinal(pod)).values()) {
            String name = claim.getMetadata().getName();
            PersistentVolumeClaim existing = claims.get(name);
            if (existing != null && existing.getMetadata().getDeletionTimestamp() != null) {
                events.add(EventNotice.warning(involved, "FailedCreate", "create Pod " + pod.getMetadata().getName()
                        + " in StatefulSet " + setName() + " failed error: pvc " + name + " is being deleted"));
                return;
            }
            if (existing == null && creatingClaims.add(name)) {
                chain.add(createClaim(ClaimRetention.withPolicyRefs(claim, set, pod), pod));
            }
        }
        chain.add(new Action.Create(pod, EventNotice.normal(involved, "SuccessfulCreate", "create Pod "
                + pod.getMetadata().getName() + " in StatefulSet " + setName() + " successful"), "FailedCreate"));
        actions.add(chained(chain));
    }

    private Action createClaim(PersistentVolumeClaim claim, Pod pod) {
        return new Action.Create(claim, EventNotice.normal(involved, "SuccessfulCreate", "create Claim "
                + claim.getMetadata().getName() + " Pod " + pod.getMetadata().getName() + " in StatefulSet "
                + setName() + " success"), "FailedCreate");
    }

    private static Action chained(List<Action> chain) {
        Action out = chain.get(chain.size() - 1);
        for (int i = chain.size() - 2; i >= 0; i--) {
            out = new Action.Then(chain.get(i), out);
        }
        return out;
    }

    /** Kubernetes' DeleteStatefulPod: the pod with its uid (never a namesake created since); its claims stay. */
    void deletePod(Pod pod) {
        ObjectMeta m = pod.getMetadata();
        if (!touchedPods.add(m.getName())) {
            return;
        }
        actions.add(new Action.Delete(Kinds.POD, m.getNamespace(), m.getName(), m.getUid(), EventNotice.normal(involved,
                "SuccessfulDelete", "delete Pod " + m.getName() + " in StatefulSet " + setName() + " successful"),
                "FailedDelete"));
    }

    /**
     * Kubernetes' UpdateStatefulPod: the identity labels put back, missing claims created, the claims' references
     * brought in line with the retention policy. The pod's volumes are not rewritten: a running pod's spec is
     * immutable, and the writer refuses it as kube-apiserver does.
     */
    void updatePod(Pod pod) {
        int ordinal = StatefulPods.ordinal(pod);
        if (!StatefulPods.identityMatches(set, pod)) {
            ObjectMeta m = pod.getMetadata();
            Pod fixed = Pod.newBuilder(pod).setMetadata(ObjectMeta.newBuilder(m)
                    .setLabels(StatefulPods.identityLabels(m.getLabels(), m.getName(), ordinal)).build()).build();
            actions.add(new Action.Update(fixed, EventNotice.normal(involved, "SuccessfulUpdate", "update Pod "
                    + m.getName() + " in StatefulSet " + setName() + " successful"), "FailedUpdate"));
        }
        if (!StatefulPods.storageMatches(set, pod)) {
            createMissingClaims(pod);
        }
        updateClaimsForRetention(pod);
    }

    /** Kubernetes' createMissingPersistentVolumeClaims, for a pending pod whose claims went missing. */
    void createMissingClaims(Pod pod) {
        for (PersistentVolumeClaim claim : StatefulPods.claimsFor(set, StatefulPods.ordinal(pod)).values()) {
            String name = claim.getMetadata().getName();
            if (!claims.containsKey(name) && creatingClaims.add(name)) {
                actions.add(createClaim(ClaimRetention.withPolicyRefs(claim, set, pod), pod));
            }
        }
        updateClaimsForRetention(pod);
    }

    /** Kubernetes' ClaimsMatchRetentionPolicy: every existing claim of the pod has the references the policy asks. */
    boolean claimsMatchRetention(Pod pod) {
        for (PersistentVolumeClaim t : StatefulPods.claimTemplates(set)) {
            PersistentVolumeClaim claim = claims.get(StatefulPods.claimName(set, t, StatefulPods.ordinal(pod)));
            if (claim != null && !ClaimRetention.isUpToDate(claim, set, pod)) {
                return false;
            }
        }
        return true;
    }

    /** Kubernetes' UpdatePodClaimForRetentionPolicy; answers whether it asked for any update. */
    boolean updateClaimsForRetention(Pod pod) {
        boolean any = false;
        for (PersistentVolumeClaim t : StatefulPods.claimTemplates(set)) {
            String name = StatefulPods.claimName(set, t, StatefulPods.ordinal(pod));
            PersistentVolumeClaim claim = claims.get(name);
            if (claim == null || ClaimRetention.isUpToDate(claim, set, pod) || !updatedClaims.add(name)) {
                continue;
            }
            if (ClaimRetention.hasUnexpectedController(claim, set, pod)) {
                events.add(EventNotice.warning(involved, "ConflictingController", "PersistentVolumeClaim " + name
                        + " has a conflicting OwnerReference that acts as a manging controller, the retention policy "
                        + "is ignored for this claim"));
            }
            actions.add(new Action.Update(ClaimRetention.withPolicyRefs(claim, set, pod)));
            any = true;
        }
        return any;
    }

    /**
     * Kubernetes' PodClaimIsStale: under whenScaled Delete, a claim still referring to a previous pod of this name is
     * about to be garbage collected; the new pod waits rather than mount it.
     */
    boolean claimIsStale(Pod planned) {
        if (!ClaimRetention.deleteWhenScaled(set)) {
            return false;
        }
        for (PersistentVolumeClaim claim : StatefulPods.claimsFor(set, StatefulPods.ordinal(planned)).values()) {
            PersistentVolumeClaim existing = claims.get(claim.getMetadata().getName());
            if (existing != null && ClaimRetention.hasStaleOwnerRef(existing, Kinds.POD, planned.getMetadata())) {
                return true;
            }
        }
        return false;
    }
}
