package io.eventplane.controllers.podautoscaler;

import io.eventplane.core.codec.Quantity;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.Container;
import io.eventplane.model.MetricTarget;
import io.eventplane.model.MetricValueStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The replica count one Resource metric asks for (the upstream replica calculator's resource paths): the pods' mean
 * usage against the target, within a 10% tolerance of the current count. Pods being deleted or failed are left out;
 * pending and (for CPU) not-yet-ready pods count as using nothing when the metric says scale up, and are left out
 * otherwise; pods without a sample count as using their whole request on a scale-down and nothing on a scale-up.
 * Values are in milli-units (millicores, milli-bytes), as the upstream controller computes them. Pure.
 */
final class ReplicaCalculator {
    static final double TOLERANCE = 0.1;
    /** A CPU sample of a pod this young is trusted only once the pod has been ready for a whole window. */
    static final Duration CPU_INITIALIZATION_PERIOD = Duration.ofMinutes(5);
    /** A pod that turned unready this soon after starting never was ready: its sample is not used. */
    static final Duration INITIAL_READINESS_DELAY = Duration.ofSeconds(30);

    /** One pod's measured use of one resource, in milli-units. */
    record PodMetric(long milliValue, Instant timestamp, Duration window) {
    }

    /** The replicas a metric asks for and its current value, or why it cannot say. */
    record Estimate(int replicas, MetricValueStatus current, String error) {
        static Estimate failed(String error) {
            return new Estimate(-1, null, error);
        }

        boolean ok() {
            return error == null;
        }
    }

    private ReplicaCalculator() {
    }

    /**
     * @param pods    the target's pods (its selector's, in its namespace)
     * @param metrics the pods' samples by pod name (only the pods measured)
     */
    static Estimate resourceReplicas(int currentReplicas, String resource, MetricTarget target, List<Pod> pods,
                                     Map<String, PodMetric> metrics, Instant now) {
        if (metrics.isEmpty()) {
            return Estimate.failed("unable to get metrics for resource " + resource
                    + ": no metrics returned from resource metrics API");
        }
        if (pods.isEmpty()) {
            return Estimate.failed("no pods returned by selector while calculating replica count");
        }
        boolean utilization = "Utilization".equals(target.getType());
        Groups groups = group(pods, metrics, resource, now);
        Map<String, Long> usage = new HashMap<>();
        groups.measured.forEach(pod -> usage.put(pod, metrics.get(pod).milliValue()));
        Map<String, Long> requests = new HashMap<>();
        if (utilization) {
            for (Pod pod : pods) {
                long request = 0;
                for (Container c : pod.getSpec().getContainers()) {
                    String q = c.getResources() == null || c.getResources().getRequests() == null ? null
                            : c.getResources().getRequests().get(resource);
                    if (q == null) {
                        return Estimate.failed("missing request for " + resource + " in container " + c.getName()
                                + " of Pod " + pod.getMetadata().getName());
                    }
                    request += Quantity.parse(q).milliValue();
                }
                requests.put(pod.getMetadata().getName(), request);
            }
        }
        if (usage.isEmpty()) {
            return Estimate.failed("did not receive metrics for targeted pods (pods might be unready)");
        }
        long targetValue = utilization ? target.getAverageUtilization()
                : Quantity.parse(target.getAverageValue()).milliValue();
        Ratio ratio = ratio(usage, requests, utilization, targetValue);
        if (ratio == null) {
            return Estimate.failed("no metrics returned matched known pods");
        }
        MetricValueStatus current = utilization
                ? new MetricValueStatus(null, milliQuantity(ratio.average), (int) ratio.current)
                : new MetricValueStatus(null, milliQuantity(ratio.current), null);
        boolean rebalanceUnready = !groups.unready.isEmpty() && ratio.value > 1.0;
        if (!rebalanceUnready && groups.missing.isEmpty()) {
            if (Math.abs(1.0 - ratio.value) <= TOLERANCE) {
                return new Estimate(currentReplicas, current, null);
            }
            return new Estimate((int) Math.ceil(ratio.value * groups.ready), current, null);
        }
        // Fill in the pods the first estimate left out, in the direction that damps the change.
        for (String pod : groups.missing) {
            usage.put(pod, ratio.value < 1.0 ? (utilization ? requests.get(pod) : targetValue) : 0L);
        }
        if (rebalanceUnready) {
            groups.unready.forEach(pod -> usage.put(pod, 0L));
        }
        Ratio again = ratio(usage, requests, utilization, targetValue);
        if (again == null || Math.abs(1.0 - again.value) <= TOLERANCE
                || (ratio.value < 1.0 && again.value > 1.0) || (ratio.value > 1.0 && again.value < 1.0)) {
            return new Estimate(currentReplicas, current, null);
        }
        int replicas = (int) Math.ceil(again.value * usage.size());
        if ((again.value < 1.0 && replicas > currentReplicas) || (again.value > 1.0 && replicas < currentReplicas)) {
            return new Estimate(currentReplicas, current, null);
        }
        return new Estimate(replicas, current, null);
    }

    /** {@code value}: usage over target; {@code current}: utilization % or mean value; {@code average}: mean value. */
    private record Ratio(double value, long current, long average) {
    }

    private static Ratio ratio(Map<String, Long> usage, Map<String, Long> requests, boolean utilization, long target) {
        long total = 0;
        long requested = 0;
        int counted = 0;
        for (Map.Entry<String, Long> e : usage.entrySet()) {
            if (utilization) {
                Long request = requests.get(e.getKey());
                if (request == null) {
                    continue;
                }
                requested += request;
            }
            total += e.getValue();
            counted++;
        }
        if (counted == 0 || (utilization && requested == 0)) {
            return null;
        }
        if (utilization) {
            long percent = total * 100 / requested;
            return new Ratio((double) percent / target, percent, total / counted);
        }
        long mean = total / counted;
        return new Ratio((double) mean / target, mean, mean);
    }

    private record Groups(int ready, Set<String> measured, Set<String> unready, Set<String> missing) {
    }

    private static Groups group(List<Pod> pods, Map<String, PodMetric> metrics, String resource, Instant now) {
        int ready = 0;
        Set<String> measured = new HashSet<>();
        Set<String> unready = new HashSet<>();
        Set<String> missing = new HashSet<>();
        for (Pod pod : pods) {
            String name = pod.getMetadata().getName();
            String phase = PodStates.phase(pod);
            if (pod.getMetadata().getDeletionTimestamp() != null || "Failed".equals(phase)) {
                continue;
            }
            if ("Pending".equals(phase)) {
                unready.add(name);
                continue;
            }
            PodMetric metric = metrics.get(name);
            if (metric == null) {
                missing.add(name);
                continue;
            }
            if (resource.equals("cpu") && !cpuSampleUsable(pod, metric, now)) {
                unready.add(name);
                continue;
            }
            ready++;
            measured.add(name);
        }
        return new Groups(ready, measured, unready, missing);
    }

    /** A CPU sample reflects a ready pod's steady use (start-up bursts and never-ready pods are left out). */
    private static boolean cpuSampleUsable(Pod pod, PodMetric metric, Instant now) {
        PodCondition ready = PodStates.readyCondition(pod).orElse(null);
        Instant started = pod.getStatus() == null ? null : pod.getStatus().getStartTime();
        if (ready == null || started == null || ready.getLastTransitionTime() == null) {
            return false;
        }
        boolean isReady = "True".equals(ready.getStatus());
        Instant transition = ready.getLastTransitionTime();
        if (started.plus(CPU_INITIALIZATION_PERIOD).isAfter(now)) {
            return isReady && !metric.timestamp().isBefore(transition.plus(metric.window()));
        }
        return isReady || !started.plus(INITIAL_READINESS_DELAY).isAfter(transition);
    }

    /** A milli-unit value as a Kubernetes quantity ({@code 250m}, {@code 2}, {@code 128Mi} stays decimal: 134217728). */
    static String milliQuantity(long milli) {
        return milli % 1000 == 0 ? Long.toString(milli / 1000) : milli + "m";
    }
}
