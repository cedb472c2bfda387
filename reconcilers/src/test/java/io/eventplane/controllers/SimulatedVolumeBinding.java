package io.eventplane.controllers;

import io.eventplane.client.Commands;
import io.eventplane.client.ObjectStore;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.log.Command;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.scheduler.NodeState;
import io.eventplane.scheduler.VolumeBinding;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@link SimulatedCluster}'s scheduling of pods with claims, through the scheduler's {@link VolumeBinding}: rejected
 * with its message, or placed on the first node from a preferred one on (in name order) that can serve the claims;
 * bound at once when they are all bound, else once the binder and provisioner have bound them.
 */
final class SimulatedVolumeBinding {
    /** Pods the scheduling could not place, by name: the scheduler's reason. */
    final Map<String, String> unschedulable = new HashMap<>();
    /** Pods placed on a node (by name) and waiting for their claims to be bound. */
    private final Map<String, String> volumeWaits = new HashMap<>();
    private final Commands system;

    SimulatedVolumeBinding(Commands system) {
        this.system = system;
    }

    void place(Pod p, String preferred, List<Node> all, ObjectStore store, Consumer<Command> submit) {
        String name = p.getMetadata().getName();
        String ns = p.getMetadata().getNamespace();
        List<String> claims = PersistentVolumes.claimNames(p.getSpec());
        String waiting = volumeWaits.get(name);
        if (waiting != null) {
            VolumeBinding.Check check = VolumeBinding.check(ns, claims, waiting, store);
            if (check instanceof VolumeBinding.Check.Bound) {
                volumeWaits.remove(name);
                submit.accept(system.bind(ns, name, p.getMetadata().getUid(), waiting));
            } else if (check instanceof VolumeBinding.Check.Failed) {
                volumeWaits.remove(name);
            }
            return;
        }
        VolumeBinding.PodVolumes volumes = VolumeBinding.preFilter(ns, claims, store);
        if (volumes.rejection() != null) {
            unschedulable.put(name, volumes.rejection());
            return;
        }
        List<Node> nodes = new ArrayList<>(all);
        nodes.sort(Comparator.comparing((Node x) -> x.getMetadata().getName().compareTo(preferred) < 0)
                .thenComparing(x -> x.getMetadata().getName()));
        TreeMap<String, Integer> reasons = new TreeMap<>();
        for (Node node : nodes) {
            NodeState state = NodeState.of(node);
            List<String> why = new ArrayList<>();
            if (!volumes.fits(state, why)) {
                why.forEach(r -> reasons.merge(r, 1, Integer::sum));
                continue;
            }
            unschedulable.remove(name);
            if (volumes.allBound()) {
                submit.accept(system.bind(ns, name, p.getMetadata().getUid(), state.name()));
            } else {
                volumes.reserve(state).forEach(w -> submit.accept(system.update(w)));
                volumeWaits.put(name, state.name());
            }
            return;
        }
        List<String> parts = new ArrayList<>();
        reasons.forEach((r, count) -> parts.add(count + " " + r));
        unschedulable.put(name, "0/" + nodes.size() + " nodes are available: " + String.join(", ", parts) + ".");
    }
}
