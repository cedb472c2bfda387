package io.eventplane.controllers.volume.persistentvolume;

import static io.eventplane.core.meta.PersistentVolumes.BOUND_BY_CONTROLLER;
import static io.eventplane.core.meta.PersistentVolumes.PROVISIONED_BY;
import static io.eventplane.core.meta.PersistentVolumes.hasAnnotation;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.controllers.volume.StorageState;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeSpec;
import io.eventplane.model.PersistentVolumeStatus;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The binder's step for one volume (Kubernetes' syncVolume): unclaimed or pre-bound volumes are Available, a volume
 * whose claim is bound to it is Bound; once its claim is gone it is Released and its reclaim policy applies (Retain:
 * it stays; Delete: its provisioner deletes it, and a volume nobody provisioned cannot be deleted and Fails; Recycle
 * is not supported and Fails); a volume this controller bound to a claim that went elsewhere is unbound. Pure.
 */
final class VolumeSync {
    private VolumeSync() {
    }

    static Reconciliation sync(PersistentVolume volume, StorageState state, Instant now) {
        ObjectReference ref = PersistentVolumes.claimRef(volume);
        if (ref == null || ref.getUid() == null || ref.getUid().isEmpty()) {
            return Reconciliation.of(phase(volume, "Available", null, now).stream().toList());
        }
        PersistentVolumeClaim claim = state.claim(ref.getNamespace(), ref.getName())
                .filter(c -> Objects.equals(c.getMetadata().getUid(), ref.getUid())).orElse(null);
        String phase = PersistentVolumes.phase(volume);
        String name = volume.getMetadata().getName();
        if (claim == null) {
            return release(volume, now);
        }
        String claimed = PersistentVolumes.volumeName(claim);
        if (claimed.isEmpty()) {
            if (PersistentVolumes.volumeModeMismatch(claim.getSpec(), volume.getSpec())) {
                return new Reconciliation(List.of(), List.of(
                        EventNotice.warning(ObjectReferences.of(volume), "VolumeMismatch", "Cannot bind PersistentVolume "
                                + "to requested PersistentVolumeClaim \"" + claim.getMetadata().getName()
                                + "\" due to incompatible volumeMode."),
                        EventNotice.warning(ObjectReferences.of(claim), "VolumeMismatch", "Cannot bind PersistentVolume \""
                                + name + "\" to requested PersistentVolumeClaim due to incompatible volumeMode.")), null);
            }
            return Reconciliation.NOTHING; // the claim's step binds it
        }
        if (claimed.equals(name)) {
            return Reconciliation.of(phase(volume, "Bound", null, now).stream().toList());
        }
        // The claim is bound to another volume.
        if (hasAnnotation(volume.getMetadata(), PROVISIONED_BY)
                && "Delete".equals(volume.getSpec().getPersistentVolumeReclaimPolicy())) {
            return release(volume, now); // provisioned for this claim and not needed: deleted
        }
        if (!"Released".equals(phase) && !"Failed".equals(phase)) {
            return Reconciliation.of(List.of(new Action.Update(unbound(volume))));
        }
        return Reconciliation.NOTHING;
    }

    /** The claim is gone: Released first, then the reclaim policy, one step each. */
    private static Reconciliation release(PersistentVolume volume, Instant now) {
        String phase = PersistentVolumes.phase(volume);
        if (!"Released".equals(phase) && !"Failed".equals(phase)) {
            return Reconciliation.of(phase(volume, "Released", null, now).stream().toList());
        }
        String policy = volume.getSpec().getPersistentVolumeReclaimPolicy();
        String name = volume.getMetadata().getName();
        if ("Retain".equals(policy) || "Failed".equals(phase)) {
            return Reconciliation.NOTHING;
        }
        if ("Delete".equals(policy)) {
            if (hasAnnotation(volume.getMetadata(), PROVISIONED_BY)) {
                return Reconciliation.NOTHING; // its provisioner deletes it
            }
            return failed(volume, "VolumeFailedDelete", "error getting deleter volume plugin for volume \"" + name
                    + "\": no deletable volume plugin matched", now);
        }
        if ("Recycle".equals(policy)) {
            return failed(volume, "VolumeFailedRecycle", "No recycler plugin found for the volume!", now);
        }
        return failed(volume, "VolumeUnknownReclaimPolicy", "Volume has unrecognized PersistentVolumeReclaimPolicy", now);
    }

    private static Reconciliation failed(PersistentVolume volume, String reason, String message, Instant now) {
        return new Reconciliation(phase(volume, "Failed", message, now).stream().toList(),
                List.of(EventNotice.warning(ObjectReferences.of(volume), reason, message)), null);
    }

    /** unbindVolume: a binding this controller made is undone; a user's pre-binding keeps its claim name. */
    private static PersistentVolume unbound(PersistentVolume volume) {
        ObjectMeta meta = volume.getMetadata();
        PersistentVolumeSpec.Builder spec = PersistentVolumeSpec.newBuilder(volume.getSpec());
        if (hasAnnotation(meta, BOUND_BY_CONTROLLER)) {
            spec.setClaimRef(null);
            Map<String, String> annotations = new LinkedHashMap<>(meta.getAnnotations());
            annotations.remove(BOUND_BY_CONTROLLER);
            meta = ObjectMeta.newBuilder(meta).setAnnotations(annotations.isEmpty() ? null : annotations).build();
        } else {
            spec.setClaimRef(ObjectReference.newBuilder(volume.getSpec().getClaimRef()).setUid("").build());
        }
        return PersistentVolume.newBuilder(volume).setMetadata(meta).setSpec(spec.build()).build();
    }

    /** updateVolumePhase: the phase and its message, with the time of the transition; nothing when already there. */
    static Optional<Action> phase(PersistentVolume volume, String phase, String message, Instant now) {
        if (phase.equals(PersistentVolumes.phase(volume))) {
            return Optional.empty();
        }
        PersistentVolumeStatus status = PersistentVolumeStatus.newBuilder().setPhase(phase).setMessage(message)
                .setLastPhaseTransitionTime(now.truncatedTo(ChronoUnit.SECONDS)).build();
        return Optional.of(new Action.UpdateStatus(PersistentVolume.newBuilder(volume).setStatus(status).build()));
    }
}
