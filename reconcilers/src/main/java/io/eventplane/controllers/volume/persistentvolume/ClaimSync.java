package io.eventplane.controllers.volume.persistentvolume;

import static io.eventplane.core.meta.PersistentVolumes.BETA_STORAGE_CLASS;
import static io.eventplane.core.meta.PersistentVolumes.BETA_STORAGE_PROVISIONER;
import static io.eventplane.core.meta.PersistentVolumes.BIND_COMPLETED;
import static io.eventplane.core.meta.PersistentVolumes.BOUND_BY_CONTROLLER;
import static io.eventplane.core.meta.PersistentVolumes.SELECTED_NODE;
import static io.eventplane.core.meta.PersistentVolumes.STORAGE_PROVISIONER;
import static io.eventplane.core.meta.PersistentVolumes.hasAnnotation;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.controllers.volume.StorageState;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeClaimSpec;
import io.eventplane.model.PersistentVolumeClaimStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.StorageClass;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The binder's step for one claim (Kubernetes' syncClaim: syncUnboundClaim and syncBoundClaim). An unbound claim is
 * bound to the volume pre-bound to it or the smallest matching Available one; without one it gets the default class
 * (retroactive assignment), waits for its first consumer (WaitForFirstConsumer classes until the scheduler picked a
 * node), or is handed to its class's provisioner (the storage-provisioner annotations); a bound claim whose volume
 * went away or was taken is Lost. Binding writes the volume first (claimRef), then its Bound phase and the claim's
 * volumeName and annotations, then the claim's Bound status: one write per object and step, the next step once the
 * view shows it. Pure.
 */
final class ClaimSync {
    static final String EXTERNAL_PROVISIONING = "Waiting for a volume to be created either by the external "
            + "provisioner '%s' or manually by the system administrator. If volume creation is delayed, please verify "
            + "that the provisioner is running and correctly registered.";

    private ClaimSync() {
    }

    static Reconciliation sync(PersistentVolumeClaim claim, StorageState state, Instant now) {
        if (!hasAnnotation(claim.getMetadata(), BIND_COMPLETED)) {
            return unbound(claim, state, now);
        }
        return bound(claim, state, now);
    }

    private static Reconciliation unbound(PersistentVolumeClaim claim, StorageState state, Instant now) {
        String volumeName = PersistentVolumes.volumeName(claim);
        if (volumeName.isEmpty()) {
            if (claim.getMetadata().getDeletionTimestamp() != null) {
                return Reconciliation.NOTHING; // going away: nothing to bind or provision for it
            }
            StorageClass sc = state.storageClass(PersistentVolumes.claimClass(claim)).orElse(null);
            boolean delay = PersistentVolumes.isDelayBinding(sc);
            Optional<PersistentVolume> match = PersistentVolumes.findMatching(claim, state.volumes(), null, Set.of(), delay);
            if (match.isPresent()) {
                return bind(match.get(), claim, now);
            }
            Optional<StorageClass> byDefault = claimWithoutClass(claim)
                    ? PersistentVolumes.defaultClass(state.storageClasses()) : Optional.empty();
            if (byDefault.isPresent()) {
                // Retroactive default StorageClass assignment: the claim is looked at again with its class.
                PersistentVolumeClaimSpec spec = PersistentVolumeClaimSpec.newBuilder(claim.getSpec())
                        .setStorageClassName(byDefault.get().getMetadata().getName()).build();
                return Reconciliation.of(List.of(new Action.Update(PersistentVolumeClaim.newBuilder(claim)
                        .setSpec(spec).build())));
            }
            List<Action> actions = new ArrayList<>();
            List<EventNotice> events = new ArrayList<>();
            if (delay && !hasAnnotation(claim.getMetadata(), SELECTED_NODE)) {
                events.add(waitingForConsumer(claim, state));
            } else if (!PersistentVolumes.claimClass(claim).isEmpty()) {
                Optional<Action> annotate = provision(claim, sc, events);
                if (annotate.isPresent()) {
                    return new Reconciliation(List.of(annotate.get()), events, null);
                }
            } else {
                events.add(EventNotice.normal(ObjectReferences.of(claim), "FailedBinding",
                        "no persistent volumes available for this claim and no storage class is set"));
            }
            pending(claim).ifPresent(actions::add);
            return new Reconciliation(actions, events, null);
        }
        Optional<PersistentVolume> requested = state.volume(volumeName);
        if (requested.isEmpty()) {
            return Reconciliation.of(pending(claim).stream().toList()); // asked for a volume that does not exist (yet)
        }
        PersistentVolume volume = requested.get();
        if (PersistentVolumes.claimRef(volume) == null) {
            String mismatch = unsatisfied(volume, claim);
            if (mismatch != null) {
                EventNotice e = EventNotice.warning(ObjectReferences.of(claim), "VolumeMismatch",
                        "Cannot bind to requested volume \"" + volumeName + "\": " + mismatch);
                return new Reconciliation(pending(claim).stream().toList(), List.of(e), null);
            }
            return bind(volume, claim, now);
        }
        if (PersistentVolumes.isBoundToClaim(volume, claim)) {
            return bind(volume, claim, now);
        }
        EventNotice taken = EventNotice.warning(ObjectReferences.of(claim), "FailedBinding",
                "volume \"" + volumeName + "\" already bound to a different claim.");
        return new Reconciliation(pending(claim).stream().toList(), List.of(taken), null);
    }

    private static Reconciliation bound(PersistentVolumeClaim claim, StorageState state, Instant now) {
        String volumeName = PersistentVolumes.volumeName(claim);
        if (volumeName.isEmpty()) {
            return lost(claim, "ClaimLost", "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!");
        }
        Optional<PersistentVolume> volume = state.volume(volumeName);
        if (volume.isEmpty()) {
            return lost(claim, "ClaimLost", "Bound claim has lost its PersistentVolume. Data on the volume is lost!");
        }
        ObjectReference ref = PersistentVolumes.claimRef(volume.get());
        if (ref == null || Objects.equals(ref.getUid(), claim.getMetadata().getUid())) {
            return bind(volume.get(), claim, now);
        }
        return lost(claim, "ClaimMisbound", "Two claims are bound to the same volume, this one is bound incorrectly");
    }

    /**
     * The next writes of a binding: the volume's claimRef; then its Bound phase and the claim's volumeName and
     * annotations; then the claim's Bound status.
     */
    static Reconciliation bind(PersistentVolume volume, PersistentVolumeClaim claim, Instant now) {
        Optional<PersistentVolume> claimed = PersistentVolumes.boundTo(volume, claim);
        if (claimed.isPresent()) {
            return Reconciliation.of(List.of(new Action.Update(claimed.get())));
        }
        ObjectMeta claimMeta = claim.getMetadata();
        List<Action> actions = new ArrayList<>();
        VolumeSync.phase(volume, "Bound", null, now).ifPresent(actions::add);
        String volumeName = volume.getMetadata().getName();
        ObjectMeta meta = claimMeta;
        if (!volumeName.equals(PersistentVolumes.volumeName(claim))) {
            meta = withAnnotation(meta, BOUND_BY_CONTROLLER, "yes");
        }
        if (!hasAnnotation(meta, BIND_COMPLETED)) {
            meta = withAnnotation(meta, BIND_COMPLETED, "yes");
        }
        if (meta != claimMeta || !volumeName.equals(PersistentVolumes.volumeName(claim))) {
            PersistentVolumeClaimSpec spec = PersistentVolumeClaimSpec.newBuilder(claim.getSpec())
                    .setVolumeName(volumeName).build();
            actions.add(new Action.Update(PersistentVolumeClaim.newBuilder(claim).setMetadata(meta).setSpec(spec).build()));
            return Reconciliation.of(actions);
        }
        claimStatus(claim, "Bound", volume).ifPresent(actions::add);
        return Reconciliation.of(actions);
    }

    /** The claim has no class at all: neither the field nor the beta annotation (an empty class is a class). */
    private static boolean claimWithoutClass(PersistentVolumeClaim claim) {
        return (claim.getSpec() == null || claim.getSpec().getStorageClassName() == null)
                && !hasAnnotation(claim.getMetadata(), BETA_STORAGE_CLASS);
    }

    /**
     * provisionClaim: a missing class or one without provisioner fails (a Warning at each step); otherwise the claim
     * is annotated for the class's provisioner (returned) and waits for it (ExternalProvisioning, each step).
     */
    private static Optional<Action> provision(PersistentVolumeClaim claim, StorageClass sc, List<EventNotice> events) {
        ObjectReference ref = ObjectReferences.of(claim);
        if (sc == null) {
            events.add(EventNotice.warning(ref, "ProvisioningFailed", "storageclass.storage.k8s.io \""
                    + PersistentVolumes.claimClass(claim) + "\" not found"));
            return Optional.empty();
        }
        String provisioner = sc.getProvisioner();
        if (PersistentVolumes.NO_PROVISIONER.equals(provisioner)) {
            events.add(EventNotice.warning(ref, "ProvisioningFailed", "no volume plugin matched name: " + provisioner));
            return Optional.empty();
        }
        events.add(EventNotice.normal(ref, "ExternalProvisioning", String.format(EXTERNAL_PROVISIONING, provisioner)));
        ObjectMeta meta = claim.getMetadata();
        if (provisioner.equals(PersistentVolumes.annotation(meta, STORAGE_PROVISIONER))
                && provisioner.equals(PersistentVolumes.annotation(meta, BETA_STORAGE_PROVISIONER))) {
            return Optional.empty();
        }
        meta = withAnnotation(withAnnotation(meta, BETA_STORAGE_PROVISIONER, provisioner), STORAGE_PROVISIONER, provisioner);
        return Optional.of(new Action.Update(PersistentVolumeClaim.newBuilder(claim).setMetadata(meta).build()));
    }

    /** WaitForFirstConsumer, or WaitForPodScheduled naming the unscheduled pods that use the claim. */
    private static EventNotice waitingForConsumer(PersistentVolumeClaim claim, StorageState state) {
        List<String> pods = new ArrayList<>();
        for (Pod p : state.pods(claim.getMetadata().getNamespace())) {
            boolean unscheduled = p.getSpec() != null && (p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty());
            if (unscheduled && !PodStates.isTerminal(p)
                    && PersistentVolumes.claimNames(p.getSpec()).contains(claim.getMetadata().getName())) {
                pods.add(p.getMetadata().getName());
            }
        }
        ObjectReference ref = ObjectReferences.of(claim);
        if (pods.isEmpty()) {
            return EventNotice.normal(ref, "WaitForFirstConsumer", "waiting for first consumer to be created before binding");
        }
        return EventNotice.normal(ref, "WaitForPodScheduled", pods.size() == 1 ? "waiting for pod " + pods.get(0)
                + " to be scheduled" : "waiting for pods " + String.join(",", pods) + " to be scheduled");
    }

    /** checkVolumeSatisfyClaim: why a volume asked for by name cannot serve the claim, or null. */
    static String unsatisfied(PersistentVolume volume, PersistentVolumeClaim claim) {
        if (volume.getMetadata().getDeletionTimestamp() != null) {
            return "the volume is marked for deletion \"" + volume.getMetadata().getName() + "\"";
        }
        if (PersistentVolumes.capacity(volume).compareTo(PersistentVolumes.requested(claim)) < 0) {
            return "requested PV is too small";
        }
        if (!PersistentVolumes.volumeClass(volume).equals(PersistentVolumes.claimClass(claim))) {
            return "storageClassName does not match";
        }
        if (PersistentVolumes.volumeModeMismatch(claim.getSpec(), volume.getSpec())) {
            return "incompatible volumeMode";
        }
        if (!PersistentVolumes.accessModesSatisfied(claim, volume)) {
            return "incompatible accessMode";
        }
        return null;
    }

    /** updateClaimStatus(Pending): no access modes or capacity until bound. */
    private static Optional<Action> pending(PersistentVolumeClaim claim) {
        return claimStatus(claim, "Pending", null);
    }

    /** updateClaimStatusWithEvent: the phase and its Warning only when the phase changes. */
    private static Reconciliation lost(PersistentVolumeClaim claim, String reason, String message) {
        if ("Lost".equals(PersistentVolumes.phase(claim))) {
            return Reconciliation.NOTHING;
        }
        return new Reconciliation(claimStatus(claim, "Lost", null).stream().toList(),
                List.of(EventNotice.warning(ObjectReferences.of(claim), reason, message)), null);
    }

    /**
     * updateClaimStatus: the phase, the volume's access modes, and its capacity when the claim becomes Bound (a later
     * difference may mean a resize in progress); without a volume, neither.
     */
    static Optional<Action> claimStatus(PersistentVolumeClaim claim, String phase, PersistentVolume volume) {
        PersistentVolumeClaimStatus status = claim.getStatus() == null ? new PersistentVolumeClaimStatus() : claim.getStatus();
        PersistentVolumeClaimStatus.Builder next = PersistentVolumeClaimStatus.newBuilder(status).setPhase(phase);
        if (volume == null) {
            next.setAccessModes(null).setCapacity(null);
        } else {
            List<String> modes = volume.getSpec().getAccessModes();
            next.setAccessModes(modes == null ? null : new ArrayList<>(modes));
            if (!phase.equals(status.getPhase())) {
                Map<String, String> capacity = volume.getSpec().getCapacity();
                next.setCapacity(capacity == null ? null : new LinkedHashMap<>(capacity));
            }
        }
        PersistentVolumeClaimStatus built = next.build();
        if (built.equals(status)) {
            return Optional.empty();
        }
        return Optional.of(new Action.UpdateStatus(PersistentVolumeClaim.newBuilder(claim).setStatus(built).build()));
    }

    private static ObjectMeta withAnnotation(ObjectMeta meta, String key, String value) {
        return PersistentVolumes.withAnnotation(meta, key, value);
    }
}
