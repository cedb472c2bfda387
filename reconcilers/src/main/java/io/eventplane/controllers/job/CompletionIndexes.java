package io.eventplane.controllers.job;

import io.eventplane.model.Job;
import io.eventplane.model.Pod;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Indexed Jobs (JOB-X01, JOB-X02), as upstream's indexed_job_utils: each pod carries its completion index in the
 * annotation (and label) {@code batch.kubernetes.io/job-completion-index}; an index is complete once one of its pods
 * succeeded, and with {@code backoffLimitPerIndex} failed once its pods failed more often than that (counted in the
 * annotation {@code batch.kubernetes.io/job-index-failure-count} each replacement carries). Pure.
 */
final class CompletionIndexes {
    static final String INDEX = "batch.kubernetes.io/job-completion-index";
    static final String FAILURE_COUNT = "batch.kubernetes.io/job-index-failure-count";
    static final String IGNORED_FAILURE_COUNT = "batch.kubernetes.io/job-index-ignored-failure-count";
    static final String ENV = "JOB_COMPLETION_INDEX";
    static final int UNKNOWN = -1;

    private CompletionIndexes() {
    }

    static boolean isIndexed(Job job) {
        return job.getSpec() != null && "Indexed".equals(job.getSpec().getCompletionMode());
    }

    static boolean hasBackoffLimitPerIndex(Job job) {
        return job.getSpec() != null && job.getSpec().getBackoffLimitPerIndex() != null;
    }

    /** The pod's completion index, or {@link #UNKNOWN}. */
    static int index(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        String v = a == null ? null : a.get(INDEX);
        if (v == null) {
            return UNKNOWN;
        }
        try {
            int i = Integer.parseInt(v);
            return i < 0 ? UNKNOWN : i;
        } catch (NumberFormatException e) {
            return UNKNOWN;
        }
    }

    static boolean validIndex(Pod pod, int completions) {
        int ix = index(pod);
        return ix != UNKNOWN && ix < completions;
    }

    static final Comparator<Pod> BY_INDEX = Comparator.comparingInt(CompletionIndexes::index);

    /** The indexes in {@code status.completedIndexes}, and those plus the ones whose pods just succeeded. */
    static void calculateSucceededIndexes(JobContext ctx) {
        int completions = ctx.completions();
        ctx.prevSucceededIndexes = OrderedIntervals.parse(ctx.status.getCompletedIndexes(), completions);
        Set<Integer> newSucceeded = new TreeSet<>();
        for (Pod p : ctx.pods) {
            if ("Succeeded".equals(phase(p)) && validIndex(p, completions) && FinalizerTracking.hasFinalizer(p)) {
                newSucceeded.add(index(p));
            }
        }
        ctx.succeededIndexes = ctx.prevSucceededIndexes.withOrderedIndexes(newSucceeded);
    }

    /** {@code status.failedIndexes} plus the indexes whose pods just failed for good. */
    static OrderedIntervals calculateFailedIndexes(JobContext ctx) {
        int completions = ctx.completions();
        OrderedIntervals prev = ctx.status.getFailedIndexes() == null ? OrderedIntervals.EMPTY
                : OrderedIntervals.parse(ctx.status.getFailedIndexes(), completions);
        Set<Integer> newFailed = new TreeSet<>();
        for (Pod p : ctx.pods) {
            if (validIndex(p, completions) && FinalizerTracking.hasFinalizer(p) && isIndexFailed(ctx, p)) {
                newFailed.add(index(p));
            }
        }
        return prev.withOrderedIndexes(newFailed);
    }

    /** The pod's failure fails its index: a FailIndex rule matched, or the index used up its backoffLimitPerIndex. */
    static boolean isIndexFailed(JobContext ctx, Pod pod) {
        boolean counted = false;
        if (ctx.isPodFailed(pod)) {
            if (ctx.spec.getPodFailurePolicy() != null) {
                PodFailurePolicies.Match m = PodFailurePolicies.match(ctx.spec.getPodFailurePolicy(), pod);
                if (PodFailurePolicies.FAIL_INDEX.equals(m.action())) {
                    return true;
                }
                counted = m.countFailed();
            } else {
                counted = true;
            }
        }
        return counted && failureCount(pod) >= ctx.spec.getBackoffLimitPerIndex();
    }

    /** {@code count} indexes below {@code completions} with no active pod and neither succeeded nor failed, lowest first. */
    static List<Integer> firstPendingIndexes(JobContext ctx, int count, int completions) {
        List<Integer> result = new ArrayList<>();
        if (count <= 0) {
            return result;
        }
        OrderedIntervals nonPending = ctx.succeededIndexes.withOrderedIndexes(indexes(ctx.activePods));
        if (ctx.onlyReplaceFailedPods()) {
            List<Pod> terminating = ctx.pods.stream().filter(JobPods::isTerminatingNotFinished).toList();
            nonPending = nonPending.withOrderedIndexes(indexes(terminating));
        }
        if (ctx.failedIndexes != null) {
            nonPending = nonPending.merge(ctx.failedIndexes);
        }
        int candidate = 0;
        for (OrderedIntervals.Interval iv : nonPending.intervals()) {
            for (; candidate < completions && result.size() < count && candidate < iv.first(); candidate++) {
                result.add(candidate);
            }
            if (candidate < iv.last() + 1) {
                candidate = iv.last() + 1;
            }
        }
        for (; candidate < completions && result.size() < count; candidate++) {
            result.add(candidate);
        }
        return result;
    }

    static TreeSet<Integer> indexes(List<Pod> pods) {
        TreeSet<Integer> out = new TreeSet<>();
        for (Pod p : pods) {
            int ix = index(p);
            if (ix != UNKNOWN) {
                out.add(ix);
            }
        }
        return out;
    }

    /**
     * The active pods to remove before any other: those without an index or with one past completions, and all but
     * one of the pods sharing an index (the one kept is the furthest along). {@code left} receives the rest.
     */
    static List<Pod> duplicatedIndexPodsForRemoval(List<Pod> active, int completions, List<Pod> left) {
        List<Pod> rm = new ArrayList<>();
        Map<Integer, List<Pod>> byIndex = new java.util.TreeMap<>();
        for (Pod p : active) {
            int ix = index(p);
            if (ix == UNKNOWN || ix >= completions) {
                rm.add(p);
            } else {
                byIndex.computeIfAbsent(ix, k -> new ArrayList<>()).add(p);
            }
        }
        for (List<Pod> same : byIndex.values()) {
            if (same.size() == 1) {
                left.add(same.get(0));
                continue;
            }
            List<Pod> sorted = new ArrayList<>(same);
            sorted.sort(JobPods.REMOVAL_ORDER);
            rm.addAll(sorted.subList(0, sorted.size() - 1));
            left.add(sorted.get(sorted.size() - 1));
        }
        return rm;
    }

    /**
     * With backoffLimitPerIndex, the last failed pod of each index that waits for its replacement: its finalizer (and
     * so its deletion) is held until the replacement, which carries its failure count, exists.
     */
    static Map<Integer, Pod> podsWithDelayedDeletionPerIndex(JobContext ctx) {
        Set<Integer> active = indexes(ctx.activePods);
        Map<Integer, Pod> out = new HashMap<>();
        int completions = ctx.completions();
        for (Pod p : ctx.pods) {
            if (!FinalizerTracking.hasFinalizer(p) || !ctx.isPodFailed(p) || !validIndex(p, completions)) {
                continue;
            }
            int ix = index(p);
            if (ctx.succeededIndexes.has(ix) || (ctx.failedIndexes != null && ctx.failedIndexes.has(ix))
                    || active.contains(ix)) {
                continue;
            }
            Pod last = out.get(ix);
            if (last == null || (absoluteFailureCount(last) <= absoluteFailureCount(p)
                    && !BackoffRecord.finishedTime(p).isBefore(BackoffRecord.finishedTime(last)))) {
                out.put(ix, p);
            }
        }
        return out;
    }

    /** The failure counts a replacement of {@code replaced} carries: its own plus this failure (counted or ignored). */
    static int[] newFailureCounts(JobContext ctx, Pod replaced) {
        if (replaced == null) {
            return new int[] {0, 0};
        }
        int counted = failureCount(replaced);
        int ignored = annotation(replaced, IGNORED_FAILURE_COUNT);
        if (ctx.spec.getPodFailurePolicy() != null
                && !PodFailurePolicies.match(ctx.spec.getPodFailurePolicy(), replaced).countFailed()) {
            ignored++;
        } else {
            counted++;
        }
        return new int[] {counted, ignored};
    }

    static int failureCount(Pod pod) {
        return annotation(pod, FAILURE_COUNT);
    }

    static int absoluteFailureCount(Pod pod) {
        return annotation(pod, FAILURE_COUNT) + annotation(pod, IGNORED_FAILURE_COUNT);
    }

    private static int annotation(Pod pod, String key) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        String v = a == null ? null : a.get(key);
        if (v == null) {
            return 0;
        }
        try {
            int i = Integer.parseInt(v);
            return i < 0 ? 0 : i;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** {@code <job>-<index>-}, cut so that a 5-character suffix fits in 63 characters. */
    static String generateName(String jobName, int index) {
        String append = "-" + index + "-";
        String prefix = jobName + append;
        return prefix.length() > JobPods.MAX_PREFIX
                ? prefix.substring(0, JobPods.MAX_PREFIX - append.length()) + append : prefix;
    }

    private static String phase(Pod p) {
        return p.getStatus() == null ? null : p.getStatus().getPhase();
    }
}
