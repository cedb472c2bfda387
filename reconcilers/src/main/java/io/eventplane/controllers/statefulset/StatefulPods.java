package io.eventplane.controllers.statefulset;

import io.eventplane.controllers.history.Revisions;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.IntOrPercent;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeClaimVolumeSource;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.RollingUpdateStatefulSetStrategy;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetSpec;
import io.eventplane.model.StatefulSetUpdateStrategy;
import io.eventplane.model.Volume;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A StatefulSet's pods and claims as Kubernetes' stateful_set_utils.go makes and reads them: the ordinal in a pod's
 * name ({@code <set>-<ordinal>}, STS-08, STS-09, STS-X02), the identity a pod carries (the labels
 * {@code statefulset.kubernetes.io/pod-name} and {@code apps.kubernetes.io/pod-index}, hostname and subdomain; STS-11,
 * STS-X05), one claim per volumeClaimTemplate named {@code <template>-<pod>} mounted under the template's name (STS-12),
 * the revision label (STS-X01), and the pod states the orderings wait on. Pure.
 */
final class StatefulPods {
    static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
    static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
    static final String ROLLING_UPDATE = "RollingUpdate";
    static final String ON_DELETE = "OnDelete";
    static final String PARALLEL = "Parallel";
    private static final Pattern STATEFUL_POD = Pattern.compile("(.*)-([0-9]+)$");

    private StatefulPods() {
    }

    /** Kubernetes' getParentNameAndOrdinal: the set a pod's name says it belongs to, or null. */
    static String parentName(String podName) {
        Matcher m = STATEFUL_POD.matcher(podName);
        return m.matches() && ordinalOf(m.group(2)) >= 0 ? m.group(1) : null;
    }

    /** The ordinal a pod's name ends with, or -1 (not a set's pod, or beyond int32). */
    static int ordinal(String podName) {
        Matcher m = STATEFUL_POD.matcher(podName);
        return m.matches() ? ordinalOf(m.group(2)) : -1;
    }

    private static int ordinalOf(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    static int ordinal(Pod pod) {
        return ordinal(pod.getMetadata().getName());
    }

    static boolean isMemberOf(StatefulSet set, Pod pod) {
        return set.getMetadata().getName().equals(parentName(pod.getMetadata().getName()));
    }

    static int replicas(StatefulSet set) {
        Integer r = set.getSpec().getReplicas();
        return r == null ? 1 : r;
    }

    /** The first ordinal (STS-X02): spec.ordinals.start, else 0. */
    static int startOrdinal(StatefulSet set) {
        StatefulSetSpec s = set.getSpec();
        return s.getOrdinals() == null || s.getOrdinals().getStart() == null ? 0 : s.getOrdinals().getStart();
    }

    /** The last ordinal, inclusive. */
    static int endOrdinal(StatefulSet set) {
        return startOrdinal(set) + replicas(set) - 1;
    }

    static boolean inOrdinalRange(StatefulSet set, Pod pod) {
        int o = ordinal(pod);
        return o >= startOrdinal(set) && o <= endOrdinal(set);
    }

    static String podName(StatefulSet set, int ordinal) {
        return set.getMetadata().getName() + "-" + ordinal;
    }

    /** {@code <template>-<set>-<ordinal>}, e.g. {@code www-web-0} (STS-12). */
    static String claimName(StatefulSet set, PersistentVolumeClaim template, int ordinal) {
        return template.getMetadata().getName() + "-" + set.getMetadata().getName() + "-" + ordinal;
    }

    static List<PersistentVolumeClaim> claimTemplates(StatefulSet set) {
        List<PersistentVolumeClaim> t = set.getSpec().getVolumeClaimTemplates();
        return t == null ? List.of() : t;
    }

    static int minReadySeconds(StatefulSet set) {
        Integer m = set.getSpec().getMinReadySeconds();
        return m == null ? 0 : m;
    }

    /** Parallel pod management launches and terminates pods without waiting (STS-18). */
    static boolean allowsBurst(StatefulSet set) {
        return PARALLEL.equals(set.getSpec().getPodManagementPolicy());
    }

    static String strategyType(StatefulSet set) {
        StatefulSetUpdateStrategy s = set.getSpec().getUpdateStrategy();
        return s == null || s.getType() == null ? ROLLING_UPDATE : s.getType();
    }

    static RollingUpdateStatefulSetStrategy rollingUpdate(StatefulSet set) {
        StatefulSetUpdateStrategy s = set.getSpec().getUpdateStrategy();
        return s == null ? null : s.getRollingUpdate();
    }

    /** The partition (STS-23): pods with ordinal index below it keep the current revision. */
    static int partition(StatefulSet set) {
        RollingUpdateStatefulSetStrategy ru = rollingUpdate(set);
        return ru == null || ru.getPartition() == null ? 0 : ru.getPartition();
    }

    /**
     * Kubernetes' getStatefulSetMaxUnavailable (STS-X04): maxUnavailable of the replicas, a percentage rounded down,
     * 1 when unset, never below 1.
     */
    static int maxUnavailable(StatefulSet set) {
        RollingUpdateStatefulSetStrategy ru = rollingUpdate(set);
        Object value = ru == null || ru.getMaxUnavailable() == null ? (Object) 1 : ru.getMaxUnavailable();
        return Math.max(1, IntOrPercent.resolve(value, replicas(set), false));
    }

    // ------------------------------------------------------------------ pod states

    /** Created and kept by the API server (a planned pod has no status yet). */
    static boolean isCreated(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getPhase() != null;
    }

    static boolean isFailed(Pod pod) {
        return isCreated(pod) && "Failed".equals(pod.getStatus().getPhase());
    }

    static boolean isSucceeded(Pod pod) {
        return isCreated(pod) && "Succeeded".equals(pod.getStatus().getPhase());
    }

    static boolean isPending(Pod pod) {
        return isCreated(pod) && "Pending".equals(pod.getStatus().getPhase());
    }

    static boolean isRunningAndReady(Pod pod) {
        return isCreated(pod) && "Running".equals(pod.getStatus().getPhase()) && PodStates.isReady(pod);
    }

    /** Kubernetes' IsPodAvailable as the set reads it: Ready for minReadySeconds. */
    static boolean isRunningAndAvailable(Pod pod, int minReadySeconds, Instant now) {
        return isCreated(pod) && PodStates.isAvailable(pod, minReadySeconds, now);
    }

    static boolean isUnavailable(Pod pod, int minReadySeconds, Instant now) {
        return !isRunningAndAvailable(pod, minReadySeconds, now) || PodStates.isTerminating(pod);
    }

    static String revision(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? "" : labels.getOrDefault(Revisions.HASH_LABEL, "");
    }

    // ------------------------------------------------------------------ identity and storage

    /** Kubernetes' identityMatches: the pod's name, namespace and pod-name label are its set's. */
    static boolean identityMatches(StatefulSet set, Pod pod) {
        ObjectMeta m = pod.getMetadata();
        int o = ordinal(pod);
        return o >= 0 && isMemberOf(set, pod) && m.getName().equals(podName(set, o))
                && Objects.equals(m.getNamespace(), set.getMetadata().getNamespace())
                && m.getLabels() != null && m.getName().equals(m.getLabels().get(POD_NAME_LABEL));
    }

    /** Kubernetes' storageMatches: a volume per claim template, named after it, mounting this pod's claim. */
    static boolean storageMatches(StatefulSet set, Pod pod) {
        int o = ordinal(pod);
        if (o < 0) {
            return false;
        }
        Map<String, Volume> volumes = new HashMap<>();
        if (pod.getSpec() != null && pod.getSpec().getVolumes() != null) {
            pod.getSpec().getVolumes().forEach(v -> volumes.put(v.getName(), v));
        }
        for (PersistentVolumeClaim t : claimTemplates(set)) {
            Volume v = volumes.get(t.getMetadata().getName());
            if (v == null || v.getPersistentVolumeClaim() == null
                    || !claimName(set, t, o).equals(v.getPersistentVolumeClaim().getClaimName())) {
                return false;
            }
        }
        return true;
    }

    /** Kubernetes' updateIdentity: the pod-name and pod-index labels (what an update may still fix). */
    static Map<String, String> identityLabels(Map<String, String> labels, String podName, int ordinal) {
        Map<String, String> out = labels == null ? new HashMap<>() : new HashMap<>(labels);
        out.put(POD_NAME_LABEL, podName);
        out.put(POD_INDEX_LABEL, Integer.toString(ordinal));
        return out;
    }

    /**
     * Kubernetes' getPersistentVolumeClaims: the claims of the pod with {@code ordinal}, by template name, each the
     * template with its own name, the set's namespace, and the template's labels plus the selector's matchLabels.
     */
    static Map<String, PersistentVolumeClaim> claimsFor(StatefulSet set, int ordinal) {
        Map<String, PersistentVolumeClaim> out = new LinkedHashMap<>();
        LabelSelector selector = set.getSpec().getSelector();
        Map<String, String> matchLabels = selector == null || selector.getMatchLabels() == null ? Map.of()
                : selector.getMatchLabels();
        for (PersistentVolumeClaim t : claimTemplates(set)) {
            ObjectMeta tm = t.getMetadata();
            Map<String, String> labels = tm.getLabels() == null ? new HashMap<>() : new HashMap<>(tm.getLabels());
            labels.putAll(matchLabels);
            ObjectMeta meta = ObjectMeta.newBuilder()
                    .setName(claimName(set, t, ordinal))
                    .setNamespace(set.getMetadata().getNamespace())
                    .setLabels(labels.isEmpty() ? null : labels)
                    .setAnnotations(tm.getAnnotations() == null ? null : new HashMap<>(tm.getAnnotations()))
                    .setFinalizers(tm.getFinalizers())
                    .build();
            // apiVersion and kind of an exported template item are not the stored claim's; status is the binder's
            out.put(tm.getName(), PersistentVolumeClaim.newBuilder(t).setApiVersion(null).setKind(null)
                    .setMetadata(meta).setStatus(null).build());
        }
        return out;
    }

    /** Kubernetes' updateStorage: a volume per claim first, then the template's other volumes. */
    static List<Volume> withClaimVolumes(StatefulSet set, List<Volume> current, int ordinal) {
        Map<String, PersistentVolumeClaim> claims = claimsFor(set, ordinal);
        List<Volume> out = new ArrayList<>();
        claims.forEach((name, claim) -> out.add(Volume.newBuilder().setName(name).setPersistentVolumeClaim(
                PersistentVolumeClaimVolumeSource.newBuilder().setClaimName(claim.getMetadata().getName()).build())
                .build()));
        if (current != null) {
            for (Volume v : current) {
                if (!claims.containsKey(v.getName())) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    /**
     * Kubernetes' newStatefulSetPod with setPodRevision: a pod from {@code template} (labels, annotations and
     * finalizers of the template, generateName {@code <set>-} as every controller's pods), named for its ordinal, with
     * its identity (labels, hostname = its name, subdomain = serviceName), its claims' volumes, the revision label and
     * the set as controller. No status: it is planned, not created.
     */
    static Pod newPod(StatefulSet set, PodTemplateSpec template, int ordinal, String revision) {
        ObjectMeta t = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        String name = podName(set, ordinal);
        Map<String, String> labels = identityLabels(t.getLabels(), name, ordinal);
        labels.put(Revisions.HASH_LABEL, revision);
        ObjectMeta meta = ObjectMeta.newBuilder()
                .setName(name)
                .setGenerateName(set.getMetadata().getName() + "-")
                .setNamespace(set.getMetadata().getNamespace())
                .setLabels(labels)
                .setAnnotations(t.getAnnotations() == null ? null : new HashMap<>(t.getAnnotations()))
                .setFinalizers(t.getFinalizers())
                .setOwnerReferences(List.of(Owners.controllerRef(Kinds.STATEFUL_SET, set.getMetadata())))
                .build();
        PodSpec ts = template.getSpec() == null ? new PodSpec() : template.getSpec();
        PodSpec spec = PodSpec.newBuilder(ts)
                .setHostname(name)
                .setSubdomain(set.getSpec().getServiceName())
                .setVolumes(withClaimVolumes(set, ts.getVolumes(), ordinal))
                .build();
        if (spec.getVolumes().isEmpty()) {
            spec.setVolumes(ts.getVolumes());
        }
        return Pod.newBuilder().setMetadata(meta).setSpec(spec).build();
    }
}
