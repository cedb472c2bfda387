package io.eventplane.nodesim;

import io.eventplane.client.ClusterView;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.Container;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.Volume;
import io.eventplane.model.VolumeMount;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The kubelet's volume manager for persistentVolumeClaim volumes (POD-6.11): before the sandbox, every volume a
 * container mounts must be set up, and one from a claim only once the claim is Bound to a volume that exists (the
 * desired-state populator's getPVCExtractPV). Until then the pod waits in ContainerCreating; a wait longer than
 * podAttachAndMountTimeout is reported as the kubelet reports it, a FailedMount Warning. ConfigMap, Secret and
 * projected volumes are {@link VolumeMounts}'; other volume types are set up at once. Pure.
 */
final class ClaimMounts {
    /** The kubelet's podAttachAndMountTimeout. */
    static final Duration ATTACH_AND_MOUNT_TIMEOUT = Duration.ofSeconds(123);

    /** The volumes that cannot be mounted yet (sorted) and why (one line each, sorted as the kubelet joins them). */
    record Unready(List<String> volumes, List<String> errors) {
        /** The FailedMount message, as WaitForAttachAndMount words it (none of these volumes is attachable). */
        String message() {
            return "Unable to attach or mount volumes: unmounted volumes=" + goList(volumes)
                    + ", unattached volumes=[], failed to process volumes=" + goList(volumes) + ": "
                    + String.join("; ", errors);
        }
    }

    private ClaimMounts() {
    }

    /** The pod's claim volumes that cannot be mounted now; empty when every mounted volume can be. */
    static Optional<Unready> unready(Pod pod, ClusterView view) {
        PodSpec spec = pod.getSpec();
        if (spec == null || spec.getVolumes() == null || PersistentVolumes.claimNames(spec).isEmpty()) {
            return Optional.empty();
        }
        Set<String> mounted = mountedVolumes(spec);
        String namespace = pod.getMetadata().getNamespace();
        TreeSet<String> volumes = new TreeSet<>();
        TreeSet<String> errors = new TreeSet<>();
        for (Volume v : spec.getVolumes()) {
            if (v.getPersistentVolumeClaim() == null || !mounted.contains(v.getName())) {
                continue;
            }
            String claim = v.getPersistentVolumeClaim().getClaimName();
            String error = claimError(namespace, claim, view);
            if (error != null) {
                volumes.add(v.getName());
                errors.add("error processing PVC " + namespace + "/" + claim + ": " + error);
            }
        }
        return volumes.isEmpty() ? Optional.empty() : Optional.of(new Unready(List.copyOf(volumes), List.copyOf(errors)));
    }

    /** getPVCExtractPV and the volume's lookup: why the claim's volume cannot be set up, or null. */
    private static String claimError(String namespace, String name, ClusterView view) {
        Optional<PersistentVolumeClaim> found = view.get(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), namespace, name)
                .map(c -> (PersistentVolumeClaim) c.getObject());
        if (found.isEmpty()) {
            return "failed to fetch PVC from API server: persistentvolumeclaims \"" + name + "\" not found";
        }
        PersistentVolumeClaim claim = found.get();
        if (claim.getMetadata().getDeletionTimestamp() != null) {
            return "PVC is being deleted";
        }
        if (!"Bound".equals(PersistentVolumes.phase(claim))) {
            return "PVC is not bound";
        }
        String volume = PersistentVolumes.volumeName(claim);
        if (volume.isEmpty()) {
            return "PVC has empty pvc.Spec.VolumeName";
        }
        if (view.get(Kinds.PERSISTENT_VOLUME.kind(), "", volume).isEmpty()) {
            return "failed to fetch PV " + volume + " from API server: persistentvolumes \"" + volume + "\" not found";
        }
        return null;
    }

    /** The volumes some container mounts (only those are waited for, as GetPodVolumeNames collects them). */
    private static Set<String> mountedVolumes(PodSpec spec) {
        Set<String> out = new HashSet<>();
        for (List<Container> cs : Arrays.asList(spec.getInitContainers(), spec.getContainers())) {
            for (Container c : cs == null ? List.<Container>of() : cs) {
                for (VolumeMount m : c.getVolumeMounts() == null ? List.<VolumeMount>of() : c.getVolumeMounts()) {
                    out.add(m.getName());
                }
            }
        }
        return out;
    }

    /**
     * How many FailedMount reports are due after waiting since {@code since}: one per timeout passed (the kubelet
     * gives up its wait at each timeout, reports, and tries again).
     */
    static long reportsDue(Instant since, Instant now) {
        long waited = Duration.between(since, now).toMillis();
        return waited < 0 ? 0 : waited / ATTACH_AND_MOUNT_TIMEOUT.toMillis();
    }

    /** When the next report is due after {@code reported} reports. */
    static Instant nextReportAt(Instant since, long reported) {
        return since.plus(ATTACH_AND_MOUNT_TIMEOUT.multipliedBy(reported + 1));
    }

    private static String goList(List<String> items) {
        return "[" + String.join(" ", items) + "]";
    }
}
