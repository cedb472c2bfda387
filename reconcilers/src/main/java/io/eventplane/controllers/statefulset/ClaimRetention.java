package io.eventplane.controllers.statefulset;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetPersistentVolumeClaimRetentionPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * persistentVolumeClaimRetentionPolicy (STS-X03) as owner references on the claims, the way Kubernetes sets them
 * (isClaimOwnerUpToDate, updateClaimOwnerRefForSetAndPod): Retain/Retain no reference; whenDeleted Delete the set as
 * controller, so the garbage collector deletes the claims with the set; whenScaled Delete the pod as controller once
 * its ordinal is out of range, so the claims go with the condemned pod. A claim referring to a set or pod of the same
 * name but another uid is stale: left alone (and, under whenScaled Delete, it holds back the new pod until the garbage
 * collector has removed it). Pure.
 */
final class ClaimRetention {
    static final String RETAIN = "Retain";
    static final String DELETE = "Delete";

    private ClaimRetention() {
    }

    static boolean deleteWhenDeleted(StatefulSet set) {
        StatefulSetPersistentVolumeClaimRetentionPolicy p = set.getSpec().getPersistentVolumeClaimRetentionPolicy();
        return p != null && DELETE.equals(p.getWhenDeleted());
    }

    static boolean deleteWhenScaled(StatefulSet set) {
        StatefulSetPersistentVolumeClaimRetentionPolicy p = set.getSpec().getPersistentVolumeClaimRetentionPolicy();
        return p != null && DELETE.equals(p.getWhenScaled());
    }

    /** The reference names this object of this kind (apiVersion, kind and name), whatever its uid. */
    private static boolean names(OwnerReference ref, KindInfo kind, ObjectMeta meta) {
        return kind.apiVersion().equals(ref.getApiVersion()) && kind.kind().equals(ref.getKind())
                && Objects.equals(meta.getName(), ref.getName());
    }

    private static List<OwnerReference> refs(PersistentVolumeClaim claim) {
        List<OwnerReference> r = claim.getMetadata().getOwnerReferences();
        return r == null ? List.of() : r;
    }

    private static boolean hasOwnerRef(PersistentVolumeClaim claim, ObjectMeta owner) {
        return owner.getUid() != null && refs(claim).stream().anyMatch(r -> owner.getUid().equals(r.getUid()));
    }

    /** A reference to an object of this name and kind, but another uid (a previous set or pod of that name). */
    static boolean hasStaleOwnerRef(PersistentVolumeClaim claim, KindInfo kind, ObjectMeta owner) {
        for (OwnerReference r : refs(claim)) {
            if (names(r, kind, owner)) {
                return !Objects.equals(r.getUid(), owner.getUid());
            }
        }
        return false;
    }

    /** Another controller than the set or the pod manages the claim (only matters under a Delete policy). */
    static boolean hasUnexpectedController(PersistentVolumeClaim claim, StatefulSet set, Pod pod) {
        if (!deleteWhenDeleted(set) && !deleteWhenScaled(set)) {
            return false;
        }
        for (OwnerReference r : refs(claim)) {
            if (names(r, Kinds.STATEFUL_SET, set.getMetadata())) {
                if (!Objects.equals(r.getUid(), set.getMetadata().getUid())) {
                    return true;
                }
                continue;
            }
            if (names(r, Kinds.POD, pod.getMetadata())) {
                if (!Objects.equals(r.getUid(), pod.getMetadata().getUid())) {
                    return true;
                }
                continue;
            }
            if (Boolean.TRUE.equals(r.getController())) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasNonControllerOwner(PersistentVolumeClaim claim, StatefulSet set, Pod pod) {
        for (OwnerReference r : refs(claim)) {
            boolean ours = Objects.equals(r.getUid(), set.getMetadata().getUid())
                    || pod.getMetadata().getUid() != null && Objects.equals(r.getUid(), pod.getMetadata().getUid());
            if (ours && !Boolean.TRUE.equals(r.getController())) {
                return true;
            }
        }
        return false;
    }

    /** Kubernetes' isClaimOwnerUpToDate: the claim's references are what the policy asks for this pod. */
    static boolean isUpToDate(PersistentVolumeClaim claim, StatefulSet set, Pod pod) {
        if (hasStaleOwnerRef(claim, Kinds.STATEFUL_SET, set.getMetadata())
                || hasStaleOwnerRef(claim, Kinds.POD, pod.getMetadata())) {
            return true; // managed by a previous set or pod of the name: not ours to touch
        }
        boolean setRef = hasOwnerRef(claim, set.getMetadata());
        boolean podRef = hasOwnerRef(claim, pod.getMetadata());
        if (hasUnexpectedController(claim, set, pod)) {
            return !setRef && !podRef;
        }
        if (hasNonControllerOwner(claim, set, pod)) {
            return false;
        }
        boolean scaledDown = !StatefulPods.inOrdinalRange(set, pod);
        boolean wantSet = deleteWhenDeleted(set) && !(deleteWhenScaled(set) && scaledDown);
        boolean wantPod = deleteWhenScaled(set) && scaledDown;
        return setRef == wantSet && podRef == wantPod;
    }

    /**
     * Kubernetes' updateClaimOwnerRefForSetAndPod: the claim's references to the set and the pod replaced by the ones
     * the policy asks for (none when another controller manages it).
     */
    static PersistentVolumeClaim withPolicyRefs(PersistentVolumeClaim claim, StatefulSet set, Pod pod) {
        boolean unexpected = hasUnexpectedController(claim, set, pod);
        List<OwnerReference> refs = new ArrayList<>();
        for (OwnerReference r : refs(claim)) {
            if (!names(r, Kinds.STATEFUL_SET, set.getMetadata()) && !names(r, Kinds.POD, pod.getMetadata())) {
                refs.add(r);
            }
        }
        if (!unexpected) {
            boolean scaledDown = !StatefulPods.inOrdinalRange(set, pod);
            if (deleteWhenScaled(set) && scaledDown) {
                refs.add(Owners.controllerRef(Kinds.POD, pod.getMetadata()));
            } else if (deleteWhenDeleted(set)) {
                refs.add(Owners.controllerRef(Kinds.STATEFUL_SET, set.getMetadata()));
            }
        }
        return PersistentVolumeClaim.newBuilder(claim).setMetadata(ObjectMeta.newBuilder(claim.getMetadata())
                .setOwnerReferences(refs.isEmpty() ? null : refs).build()).build();
    }
}
