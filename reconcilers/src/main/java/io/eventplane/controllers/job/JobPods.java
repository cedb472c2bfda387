package io.eventplane.controllers.job;

import io.eventplane.client.events.EventNotice;
import io.eventplane.controllers.Hashes;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.Container;
import io.eventplane.model.EnvVar;
import io.eventplane.model.EnvVarSource;
import io.eventplane.model.ObjectFieldSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.reconcile.Action;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Job's pods: which it owns (adoption and release, JOB-05), how many should run and which to create or delete
 * (upstream's manageJob: JOB-07 to JOB-11, JOB-15, JOB-X01, JOB-X02, JOB-X06, JOB-X07), and what a new pod looks like
 * (the template, the tracking finalizer, the completion index). Pods get deterministic names, {@code <job>-<suffix>}
 * ({@code <job>-<index>-<suffix>} when Indexed) with the lowest free n-th suffix of the Job's uid, so a step decided
 * twice names the same pods and the writer refuses the twin.
 */
final class JobPods {
    /** At most this many creates or deletes per step (upstream's MaxPodCreateDeletePerSync). */
    static final int BURST = 500;
    /** generateName is cut to leave room for a 5-character suffix within 63 characters. */
    static final int MAX_PREFIX = 58;

    private JobPods() {
    }

    /**
     * The pods the Job owns: those it controls that still match its selector, and matching orphans it adopts (with the
     * tracking finalizer). Controlled pods that no longer match are released. The adoptions and releases are added to
     * the step's commands.
     */
    static List<Pod> claim(JobContext ctx, List<Pod> candidates) {
        String uid = ctx.job.getMetadata().getUid();
        boolean deleting = ctx.job.getMetadata().getDeletionTimestamp() != null;
        OwnerReference ref = Owners.controllerRef(Kinds.JOB, ctx.job.getMetadata());
        List<Pod> owned = new ArrayList<>();
        for (Pod pod : candidates) {
            ObjectMeta meta = pod.getMetadata();
            boolean matches = !LabelSelectors.isEmpty(ctx.spec.getSelector())
                    && LabelSelectors.matches(ctx.spec.getSelector(), meta.getLabels());
            Optional<OwnerReference> controller = Owners.controllerOf(meta);
            if (controller.isPresent()) {
                if (!uid.equals(controller.get().getUid())) {
                    continue;
                }
                if (matches) {
                    owned.add(pod);
                } else if (!deleting) {
                    ctx.actions.add(new Action.Update(Pod.newBuilder(pod).setMetadata(Owners.release(meta, uid)).build()));
                }
            } else if (matches && !deleting && !PodStates.isTerminating(pod)) {
                ObjectMeta adopted = Owners.adopt(meta, ref);
                List<String> finalizers = new ArrayList<>(adopted.getFinalizers() == null ? List.of() : adopted.getFinalizers());
                if (!finalizers.contains(FinalizerTracking.FINALIZER)) {
                    finalizers.add(FinalizerTracking.FINALIZER);
                }
                Pod p = Pod.newBuilder(pod).setMetadata(ObjectMeta.newBuilder(adopted).setFinalizers(finalizers).build()).build();
                ctx.actions.add(new Action.Update(p));
                owned.add(p);
            }
        }
        return owned;
    }

    /** Creates or deletes pods to reach the wanted number of active pods; returns how many are active after. */
    static int manage(JobContext ctx, List<Pod> candidates) {
        int active = ctx.activePods.size();
        if (ctx.suspended()) {
            List<Pod> rm = activePodsForRemoval(ctx, active);
            deleteJobPods(ctx, rm);
            ctx.terminating += rm.size();
            return active - rm.size();
        }
        int parallelism = ctx.spec.getParallelism() == null ? 1 : ctx.spec.getParallelism();
        int wantActive;
        if (ctx.spec.getCompletions() == null) {
            // JOB-11: a work queue starts no pod after the first success, and lets the others run
            wantActive = ctx.succeeded > 0 ? active : parallelism;
        } else {
            // JOB-09: never more than the completions left
            wantActive = Math.max(0, Math.min(ctx.spec.getCompletions() - ctx.succeeded, parallelism));
        }
        List<Pod> rm = activePodsForRemoval(ctx, Math.max(0, active - wantActive));
        if (rm.size() > BURST) {
            rm = rm.subList(0, BURST);
        }
        if (!rm.isEmpty()) {
            deleteJobPods(ctx, rm);
            ctx.terminating += rm.size();
            return active - rm.size();
        }
        int terminating = ctx.onlyReplaceFailedPods() ? ctx.terminating : 0;
        int diff = wantActive - terminating - active;
        if (diff <= 0) {
            return active;
        }
        if (!CompletionIndexes.hasBackoffLimitPerIndex(ctx.job)) {
            Duration remaining = ctx.backoff.remaining(ctx.now);
            if (!remaining.isZero()) {
                ctx.requeue(remaining.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : remaining);
                return active;
            }
        }
        diff = Math.min(diff, BURST);
        List<Integer> indexes = null;
        if (ctx.indexed()) {
            indexes = CompletionIndexes.firstPendingIndexes(ctx, diff, ctx.completions());
            if (CompletionIndexes.hasBackoffLimitPerIndex(ctx.job)) {
                indexes = indexesDueNow(ctx, indexes);
            }
            diff = indexes.size();
        }
        Set<String> names = new HashSet<>();
        candidates.forEach(p -> names.add(p.getMetadata().getName()));
        for (int i = 0; i < diff; i++) {
            int index = indexes == null ? CompletionIndexes.UNKNOWN : indexes.get(i);
            Pod pod = newPod(ctx, freeName(ctx, index, names), index);
            ctx.actions.add(new Action.Create(pod, EventNotice.normal(ctx.ref, "SuccessfulCreate",
                    "Created pod: " + pod.getMetadata().getName()), "FailedCreate"));
        }
        return active + diff;
    }

    /** The indexes whose per-index back-off has passed; when none has, a wake-up for the first that will. */
    private static List<Integer> indexesDueNow(JobContext ctx, List<Integer> indexes) {
        List<Integer> now = new ArrayList<>();
        Duration min = null;
        for (int ix : indexes) {
            Pod last = ctx.podsWithDelayedDeletionPerIndex.get(ix);
            Duration remaining = last == null ? Duration.ZERO : BackoffRecord.remaining(ctx.now,
                    CompletionIndexes.absoluteFailureCount(last) + 1, BackoffRecord.finishedTime(last));
            if (remaining.isZero()) {
                now.add(ix);
            } else if (min == null || remaining.compareTo(min) < 0) {
                min = remaining;
            }
        }
        if (now.isEmpty() && min != null) {
            ctx.requeue(min.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : min);
        }
        return now;
    }

    /** Deletes pods that are still running, keeping their finalizers (they are counted as failures). */
    static void deleteActivePods(JobContext ctx) {
        for (Pod p : ctx.activePods) {
            ctx.actions.add(delete(ctx, p));
            if (PodStates.isReady(p)) {
                ctx.ready--;
            }
        }
        ctx.terminating += ctx.activePods.size();
    }

    /** Deletes pods the Job no longer wants (suspended, too many): their finalizer goes first, so they do not count. */
    private static void deleteJobPods(JobContext ctx, List<Pod> pods) {
        for (Pod p : pods) {
            Action delete = delete(ctx, p);
            ctx.actions.add(FinalizerTracking.hasFinalizer(p)
                    ? new Action.Then(FinalizerTracking.removeFinalizer(p), delete) : delete);
            if (PodStates.isReady(p)) {
                ctx.ready--;
            }
        }
    }

    private static Action.Delete delete(JobContext ctx, Pod p) {
        ObjectMeta m = p.getMetadata();
        return new Action.Delete(Kinds.POD, m.getNamespace(), m.getName(), m.getUid(),
                EventNotice.normal(ctx.ref, "SuccessfulDelete", "Deleted pod: " + m.getName()), "FailedDelete");
    }

    /** At least {@code count} active pods to remove, earliest in their life first (duplicated indexes before all). */
    static List<Pod> activePodsForRemoval(JobContext ctx, int count) {
        List<Pod> rm = new ArrayList<>();
        List<Pod> left = new ArrayList<>();
        if (ctx.indexed()) {
            rm.addAll(CompletionIndexes.duplicatedIndexPodsForRemoval(ctx.activePods, ctx.completions(), left));
        } else {
            left.addAll(ctx.activePods);
        }
        if (rm.size() < count) {
            left.sort(REMOVAL_ORDER);
            rm.addAll(left.subList(0, Math.min(left.size(), count - rm.size())));
        }
        return rm;
    }

    /**
     * Kubernetes' ActivePods order: unscheduled before scheduled, Pending before Unknown before Running, not Ready
     * before Ready, Ready for less time first, more restarts first, newer first.
     */
    static final Comparator<Pod> REMOVAL_ORDER = Comparator
            .comparingInt((Pod p) -> p.getSpec() == null || p.getSpec().getNodeName() == null ? 0 : 1)
            .thenComparingInt(p -> switch (PodStates.phase(p)) {
                case "Pending" -> 0;
                case "Unknown" -> 1;
                case "Running" -> 2;
                default -> 3;
            })
            .thenComparingInt(p -> PodStates.isReady(p) ? 1 : 0)
            .thenComparing(p -> PodStates.readySince(p).orElse(java.time.Instant.MAX), Comparator.reverseOrder())
            .thenComparing(p -> -PodStates.restarts(p))
            .thenComparing(p -> p.getMetadata().getCreationTimestamp() == null ? java.time.Instant.EPOCH
                    : p.getMetadata().getCreationTimestamp(), Comparator.reverseOrder());

    /** Deleted but not finished: a pod still being stopped (status.terminating). */
    static boolean isTerminatingNotFinished(Pod p) {
        return PodStates.isTerminating(p) && !PodStates.isTerminal(p);
    }

    static String namePrefix(String jobName) {
        String base = jobName + "-";
        return base.length() > MAX_PREFIX ? base.substring(0, MAX_PREFIX) : base;
    }

    private static String freeName(JobContext ctx, int index, Set<String> taken) {
        String uid = ctx.job.getMetadata().getUid();
        String prefix = index == CompletionIndexes.UNKNOWN ? namePrefix(ctx.job.getMetadata().getName())
                : CompletionIndexes.generateName(ctx.job.getMetadata().getName(), index);
        String seed = index == CompletionIndexes.UNKNOWN ? uid : uid + "/" + index;
        String name;
        long n = 0;
        do {
            name = prefix + Hashes.suffix(seed, n++);
        } while (taken.contains(name));
        taken.add(name);
        return name;
    }

    /**
     * A pod from the template: its labels, annotations and spec, the tracking finalizer, the Job as controller; when
     * Indexed, the index as annotation and label, {@code JOB_COMPLETION_INDEX} in every container, hostname
     * {@code <job>-<index>}, and with backoffLimitPerIndex the index's failure counts.
     */
    static Pod newPod(JobContext ctx, String name, int index) {
        PodTemplateSpec template = ctx.spec.getTemplate() == null ? new PodTemplateSpec() : ctx.spec.getTemplate();
        ObjectMeta t = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        Map<String, String> labels = t.getLabels() == null ? new HashMap<>() : new HashMap<>(t.getLabels());
        Map<String, String> annotations = t.getAnnotations() == null ? new HashMap<>() : new HashMap<>(t.getAnnotations());
        List<String> finalizers = t.getFinalizers() == null ? new ArrayList<>() : new ArrayList<>(t.getFinalizers());
        if (!finalizers.contains(FinalizerTracking.FINALIZER)) {
            finalizers.add(FinalizerTracking.FINALIZER);
        }
        PodSpec.Builder spec = template.getSpec() == null ? PodSpec.newBuilder() : PodSpec.newBuilder(template.getSpec());
        String generateName = namePrefix(ctx.job.getMetadata().getName());
        if (index != CompletionIndexes.UNKNOWN) {
            annotations.put(CompletionIndexes.INDEX, Integer.toString(index));
            labels.put(CompletionIndexes.INDEX, Integer.toString(index));
            spec.setHostname(ctx.job.getMetadata().getName() + "-" + index);
            spec.setInitContainers(withIndexEnv(spec.getInitContainers()));
            spec.setContainers(withIndexEnv(spec.getContainers()));
            generateName = CompletionIndexes.generateName(ctx.job.getMetadata().getName(), index);
            if (CompletionIndexes.hasBackoffLimitPerIndex(ctx.job)) {
                int[] counts = CompletionIndexes.newFailureCounts(ctx, ctx.podsWithDelayedDeletionPerIndex.get(index));
                annotations.put(CompletionIndexes.FAILURE_COUNT, Integer.toString(counts[0]));
                if (counts[1] > 0) {
                    annotations.put(CompletionIndexes.IGNORED_FAILURE_COUNT, Integer.toString(counts[1]));
                }
            }
        }
        ObjectMeta meta = ObjectMeta.newBuilder().setName(name).setGenerateName(generateName)
                .setNamespace(ctx.job.getMetadata().getNamespace())
                .setLabels(labels.isEmpty() ? null : labels).setAnnotations(annotations.isEmpty() ? null : annotations)
                .setFinalizers(finalizers)
                .setOwnerReferences(List.of(Owners.controllerRef(Kinds.JOB, ctx.job.getMetadata()))).build();
        return Pod.newBuilder().setMetadata(meta).setSpec(spec.build()).build();
    }

    /** The containers with {@code JOB_COMPLETION_INDEX} from the pod's index label, unless they set it themselves. */
    private static List<Container> withIndexEnv(List<Container> containers) {
        if (containers == null) {
            return null;
        }
        List<Container> out = new ArrayList<>();
        for (Container c : containers) {
            List<EnvVar> env = c.getEnv() == null ? new ArrayList<>() : new ArrayList<>(c.getEnv());
            if (env.stream().noneMatch(e -> CompletionIndexes.ENV.equals(e.getName()))) {
                env.add(EnvVar.newBuilder().setName(CompletionIndexes.ENV).setValueFrom(EnvVarSource.newBuilder()
                        .setFieldRef(ObjectFieldSelector.newBuilder().setApiVersion("v1")
                                .setFieldPath("metadata.labels['" + CompletionIndexes.INDEX + "']").build())
                        .build()).build());
            }
            out.add(Container.newBuilder(c).setEnv(env).build());
        }
        return out;
    }
}
