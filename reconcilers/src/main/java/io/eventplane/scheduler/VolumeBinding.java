package io.eventplane.scheduler;

import static io.eventplane.core.meta.PersistentVolumes.SELECTED_NODE;

import io.eventplane.client.ClusterView;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.Node;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.StorageClass;
import io.eventplane.model.TopologySelectorLabelRequirement;
import io.eventplane.model.TopologySelectorTerm;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * kube-scheduler's VolumeBinding plugin, for pods with persistentVolumeClaim volumes (others never get here).
 * PreFilter ({@link #preFilter}): every claim exists, is not Lost or being deleted, and is bound unless its class waits
 * for the first consumer. Filter ({@link PodVolumes#fits}): a bound claim's volume allows the node (node affinity); a
 * waiting claim either finds an Available volume the node may use (static binding) or can be provisioned there (its
 * class has a provisioner and allows the node's topology; a node already selected for it is the only one). Reserve
 * ({@link PodVolumes#reserve}): the writes that start the binding (a volume's claimRef, a claim's selected-node
 * annotation). PreBind ({@link #check}): the pod is bound once every claim is. Messages are Kubernetes'. Pure.
 */
public final class VolumeBinding {
    static final String BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
    static final String NODE_CONFLICT = "node(s) had volume node affinity conflict";
    static final String PV_NOT_EXIST = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";
    static final String UNBOUND_IMMEDIATE = "pod has unbound immediate PersistentVolumeClaims";

    private VolumeBinding() {
    }

    /** PreFilter for the pod's claims (non-empty), in the pod's namespace. */
    public static PodVolumes preFilter(String namespace, List<String> claims, ClusterView view) {
        List<PersistentVolumeClaim> bound = new ArrayList<>();
        List<PersistentVolumeClaim> delayed = new ArrayList<>();
        boolean unboundImmediate = false;
        for (String name : claims) {
            Optional<PersistentVolumeClaim> found = view.get(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), namespace, name)
                    .map(c -> (PersistentVolumeClaim) c.getObject());
            if (found.isEmpty()) {
                return PodVolumes.rejected("persistentvolumeclaim \"" + name + "\" not found");
            }
            PersistentVolumeClaim claim = found.get();
            if ("Lost".equals(PersistentVolumes.phase(claim))) {
                return PodVolumes.rejected("persistentvolumeclaim \"" + name + "\" bound to non-existent persistentvolume \""
                        + PersistentVolumes.volumeName(claim) + "\"");
            }
            if (claim.getMetadata().getDeletionTimestamp() != null) {
                return PodVolumes.rejected("persistentvolumeclaim \"" + name + "\" is being deleted");
            }
            if (PersistentVolumes.isFullyBound(claim)) {
                bound.add(claim);
            } else if (PersistentVolumes.volumeName(claim).isEmpty() && PersistentVolumes.isDelayBinding(
                    storageClass(view, PersistentVolumes.claimClass(claim)))) {
                delayed.add(claim);
            } else {
                unboundImmediate = true; // bound by the binder, not by scheduling (pre-bound ones too)
            }
        }
        if (unboundImmediate) {
            return PodVolumes.rejected(UNBOUND_IMMEDIATE);
        }
        List<PersistentVolume> boundVolumes = new ArrayList<>();
        for (PersistentVolumeClaim c : bound) {
            boundVolumes.add(view.get(Kinds.PERSISTENT_VOLUME.kind(), "", PersistentVolumes.volumeName(c))
                    .map(v -> (PersistentVolume) v.getObject()).orElse(null));
        }
        List<Delayed> waiting = new ArrayList<>();
        for (PersistentVolumeClaim c : delayed) {
            String className = PersistentVolumes.claimClass(c);
            List<PersistentVolume> candidates = new ArrayList<>();
            for (PersistentVolume v : view.<PersistentVolume>objects(Kinds.PERSISTENT_VOLUME.kind(), null)) {
                boolean free = PersistentVolumes.claimRef(v) == null || PersistentVolumes.isBoundToClaim(v, c);
                if (free && className.equals(PersistentVolumes.volumeClass(v))) {
                    candidates.add(v);
                }
            }
            waiting.add(new Delayed(c, storageClass(view, className), candidates));
        }
        return new PodVolumes(null, boundVolumes, waiting);
    }

    private static StorageClass storageClass(ClusterView view, String name) {
        return name.isEmpty() ? null : view.get(Kinds.STORAGE_CLASS.kind(), "", name)
                .map(c -> (StorageClass) c.getObject()).orElse(null);
    }

    /** A claim bound at the first consumer: its class and the volumes it could take. */
    record Delayed(PersistentVolumeClaim claim, StorageClass storageClass, List<PersistentVolume> candidates) {
    }

    /** What PreFilter found: a rejection, or the bound volumes (null: missing) and the claims still to bind. */
    public static final class PodVolumes {
        private final String rejection;
        private final List<PersistentVolume> bound;
        private final List<Delayed> delayed;

        PodVolumes(String rejection, List<PersistentVolume> bound, List<Delayed> delayed) {
            this.rejection = rejection;
            this.bound = bound;
            this.delayed = delayed;
        }

        static PodVolumes rejected(String message) {
            return new PodVolumes(message, List.of(), List.of());
        }

        /** Why no node can do (the scheduler's PreFilter message), or null. */
        public String rejection() {
            return rejection;
        }

        /** Every claim is bound: nothing to do between choosing the node and binding the pod. */
        public boolean allBound() {
            return delayed.isEmpty();
        }

        /** Filter: whether the node can serve every claim; the reasons it cannot are added. */
        public boolean fits(NodeState node, List<String> reasons) {
            Map<String, String> labels = node.offer.labels();
            String name = node.name();
            boolean missing = false;
            boolean conflict = false;
            for (PersistentVolume v : bound) {
                if (v == null) {
                    missing = true;
                } else if (!PersistentVolumes.nodeAffinityAllows(v, labels, name)) {
                    conflict = true;
                }
            }
            boolean unsatisfied = !delayed.isEmpty() && plan(labels, name) == null;
            if (conflict) {
                reasons.add(NODE_CONFLICT);
            }
            if (unsatisfied) {
                reasons.add(BIND_CONFLICT);
            }
            if (missing) {
                reasons.add(PV_NOT_EXIST);
            }
            return !conflict && !unsatisfied && !missing;
        }

        /**
         * Reserve on the chosen node: the writes that start binding the waiting claims, volumes pre-bound to their
         * claims (static binding) and claims annotated with the node (provisioning); none when already written.
         */
        public List<SpecificRecord> reserve(NodeState node) {
            List<SpecificRecord> writes = new ArrayList<>();
            List<Object> plan = plan(node.offer.labels(), node.name());
            if (plan == null) {
                return writes;
            }
            for (int i = 0; i < plan.size(); i++) {
                PersistentVolumeClaim claim = delayed.get(i).claim();
                if (plan.get(i) instanceof PersistentVolume v) {
                    PersistentVolumes.boundTo(v, claim).ifPresent(writes::add);
                } else if (!node.name().equals(PersistentVolumes.annotation(claim.getMetadata(), SELECTED_NODE))) {
                    writes.add(PersistentVolumeClaim.newBuilder(claim).setMetadata(PersistentVolumes.withAnnotation(
                            claim.getMetadata(), SELECTED_NODE, node.name())).build());
                }
            }
            return writes;
        }

        /**
         * For each waiting claim on this node, the volume it would take or its StorageClass (to provision); null when
         * one of them can do neither (FindPodVolumes).
         */
        private List<Object> plan(Map<String, String> labels, String name) {
            List<Object> out = new ArrayList<>(delayed.size());
            Set<String> chosen = new HashSet<>();
            PersistentVolumes.Node node = new PersistentVolumes.Node(labels, name);
            for (Delayed d : delayed) {
                String selected = PersistentVolumes.annotation(d.claim().getMetadata(), SELECTED_NODE);
                if (selected != null) {
                    if (!selected.equals(name) || !provisionable(d.storageClass(), labels)) {
                        return null;
                    }
                    out.add(d.storageClass());
                    continue;
                }
                Optional<PersistentVolume> v = PersistentVolumes.findMatching(d.claim(), d.candidates(), node, chosen, true);
                if (v.isPresent()) {
                    chosen.add(v.get().getMetadata().getName());
                    out.add(v.get());
                } else if (provisionable(d.storageClass(), labels)) {
                    out.add(d.storageClass());
                } else {
                    return null;
                }
            }
            return out;
        }

        /** checkVolumeProvisions: a provisioner, and the class's allowedTopologies (if any) include the node. */
        private static boolean provisionable(StorageClass sc, Map<String, String> labels) {
            if (sc == null || PersistentVolumes.NO_PROVISIONER.equals(sc.getProvisioner())) {
                return false;
            }
            List<TopologySelectorTerm> terms = sc.getAllowedTopologies();
            if (terms == null || terms.isEmpty()) {
                return true;
            }
            for (TopologySelectorTerm t : terms) {
                boolean all = true;
                for (TopologySelectorLabelRequirement r : t.getMatchLabelExpressions() == null
                        ? List.<TopologySelectorLabelRequirement>of() : t.getMatchLabelExpressions()) {
                    String value = labels.get(r.getKey());
                    all &= value != null && r.getValues() != null && r.getValues().contains(value);
                }
                if (all) {
                    return true;
                }
            }
            return false;
        }
    }

    /** How a pod waiting between its node choice and its binding stands (PreBind's checkBindings). */
    public sealed interface Check {
        record Bound() implements Check {
        }

        record Waiting() implements Check {
        }

        /** The binding cannot complete on this node: the pod is scheduled again. */
        record Failed(String message) implements Check {
        }
    }

    /**
     * Whether every claim of the pod is bound, to a volume the node may use. A binding that never completes (a
     * provisioner that is not running, a selected node that went away) ends with the scheduler's assumption.
     */
    public static Check check(String namespace, List<String> claims, String nodeName, ClusterView view) {
        Node node = view.get(Kinds.NODE.kind(), "", nodeName).map(c -> (Node) c.getObject()).orElse(null);
        Map<String, String> labels = node == null || node.getMetadata().getLabels() == null ? Map.of()
                : node.getMetadata().getLabels();
        boolean waiting = false;
        for (String name : claims) {
            PersistentVolumeClaim claim = view.get(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), namespace, name)
                    .map(c -> (PersistentVolumeClaim) c.getObject()).orElse(null);
            if (claim == null) {
                return new Check.Failed("persistentvolumeclaim \"" + name + "\" not found");
            }
            if (!PersistentVolumes.isFullyBound(claim)) {
                waiting = true;
                continue;
            }
            PersistentVolume volume = view.get(Kinds.PERSISTENT_VOLUME.kind(), "", PersistentVolumes.volumeName(claim))
                    .map(c -> (PersistentVolume) c.getObject()).orElse(null);
            if (volume == null) {
                waiting = true;
            } else if (!PersistentVolumes.nodeAffinityAllows(volume, labels, nodeName)) {
                return new Check.Failed("pv \"" + volume.getMetadata().getName() + "\" node affinity doesn't match node \""
                        + nodeName + "\"");
            }
        }
        return waiting ? new Check.Waiting() : new Check.Bound();
    }
}
