package io.eventplane.scheduler;

import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;

/**
 * The scheduler's bookkeeping for pods with claims: those between their node choice and their binding (kube-scheduler's
 * PreBind, waiting for the binder and provisioner to bind their claims) and the unschedulable ones parked until a
 * claim, a volume or a StorageClass changes (VolumeBinding's cluster events). Claims are watched by key; a change of a
 * volume or a class wakes every pod that waits. Written by the worker, read by the view's thread.
 */
final class VolumeWaits {
    /**
     * A pod assumed on {@code node} whose claims are being bound, with the writes sent for it: the version each object
     * was written on, by object key.
     */
    record Binding(String uid, String node, Map<String, String> written) {
        /** Records a write of {@code object} on its version; false when one was sent on that version already. */
        boolean firstWriteAt(SpecificRecord object) {
            ObjectMeta meta = ObjectAccess.meta(object);
            String key = Keys.of(Kinds.of(object).kind(), meta.getNamespace(), meta.getName());
            return !Objects.equals(written.put(key, String.valueOf(meta.getResourceVersion())),
                    String.valueOf(meta.getResourceVersion()));
        }
    }

    private final Map<String, Binding> binding = new ConcurrentHashMap<>();
    /** The claim keys each waiting or parked pod with claims names, by pod key. */
    private final Map<String, List<String>> claimsByPod = new ConcurrentHashMap<>();
    /** Bumped on every claim, volume or StorageClass change (so a pod parked after one is retried at once). */
    private final AtomicLong generation = new AtomicLong();

    static boolean concerns(String kind) {
        return kind.equals(Kinds.PERSISTENT_VOLUME_CLAIM.kind()) || kind.equals(Kinds.PERSISTENT_VOLUME.kind())
                || kind.equals(Kinds.STORAGE_CLASS.kind());
    }

    long generation() {
        return generation.get();
    }

    /** The pod waits for its claims on {@code node} (after Reserve). */
    Binding bind(String podKey, String uid, String node, String namespace, List<String> claims) {
        Binding b = new Binding(uid, node, new ConcurrentHashMap<>());
        binding.put(podKey, b);
        watch(podKey, namespace, claims);
        return b;
    }

    /** The pod's binding in progress, if it is this pod's (same uid). */
    Binding binding(String podKey, String uid) {
        Binding b = binding.get(podKey);
        return b != null && b.uid().equals(uid) ? b : null;
    }

    /** Wakes the pod when one of its claims changes. */
    void watch(String podKey, String namespace, List<String> claims) {
        List<String> keys = new ArrayList<>(claims.size());
        for (String c : claims) {
            keys.add(Keys.of(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), namespace, c));
        }
        claimsByPod.put(podKey, keys);
    }

    void forget(String podKey) {
        binding.remove(podKey);
        claimsByPod.remove(podKey);
    }

    /** The pods a claim, volume or class change concerns (on the view's thread). */
    List<String> woken(ObjectChanged change) {
        generation.incrementAndGet();
        if (claimsByPod.isEmpty()) {
            return List.of();
        }
        if (!change.getKind().equals(Kinds.PERSISTENT_VOLUME_CLAIM.kind())) {
            return List.copyOf(claimsByPod.keySet());
        }
        String claim = Keys.of(change.getKind(), change.getNamespace(), change.getName());
        List<String> out = new ArrayList<>();
        claimsByPod.forEach((pod, claims) -> {
            if (claims.contains(claim)) {
                out.add(pod);
            }
        });
        return out;
    }

    boolean isBinding(String podKey) {
        return binding.containsKey(podKey);
    }
}
