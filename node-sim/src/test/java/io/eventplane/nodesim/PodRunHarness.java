package io.eventplane.nodesim;

import io.eventplane.client.events.EventNotice;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Lifecycle;
import io.eventplane.model.LifecycleHandler;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Probe;
import io.eventplane.model.SleepAction;
import io.eventplane.testkit.objects.ContainerBuilder;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/** A pod on a virtual clock: the kubelet's view of it, each status it would write, and the events it records. */
final class PodRunHarness {
    static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    /** Programs run until stopped unless the pod declares otherwise (the run-to-completion defaults have their own test). */
    static final KubeletConfig CONFIG = KubeletConfig.defaults().withPull(Duration.ofSeconds(1), Duration.ofSeconds(1))
            .withRunDefaults(RunDefaults.NEVER)
            .withShutdownDefault(Duration.ofSeconds(1));

    /** One status the kubelet wrote, at its time. */
    record Snapshot(Instant at, Pod pod) {
        long second() {
            return Duration.between(T0, at).toSeconds();
        }
    }

    Pod pod;
    final PodRun run;
    final List<Snapshot> history = new ArrayList<>();
    final List<EventNotice> events = new ArrayList<>();
    Instant now = T0;

    PodRunHarness(Pod pod) {
        this(pod, CONFIG);
    }

    PodRunHarness(Pod pod, KubeletConfig config) {
        this(pod, config, ConfigReferences.Objects.none());
    }

    /** With the ConfigMaps and Secrets the kubelet finds in {@code objects}, looked up at each step. */
    PodRunHarness(Pod pod, ConfigReferences.Objects objects) {
        this(pod, CONFIG, objects);
    }

    private PodRunHarness(Pod pod, KubeletConfig config, ConfigReferences.Objects objects) {
        Pod sandboxed = PodLifecycle.creating(pod, new PodLifecycle.PodHost("node-1", "10.1.0.1", "10.244.1.7"), T0);
        this.pod = sandboxed;
        this.run = PodRun.start(sandboxed, config, new HashSet<>(), objects, T0);
        write();
    }

    private void write() {
        PodStatus next = run.status(pod);
        if (!next.equals(pod.getStatus()) || history.isEmpty()) {
            pod = Pod.newBuilder(pod).setStatus(next).build();
            history.add(new Snapshot(now, pod));
        }
        events.addAll(run.takeEvents());
    }

    /** Takes every step due up to {@code second} seconds after T0. */
    PodRunHarness until(long second) {
        Instant end = T0.plusSeconds(second);
        while (true) {
            Instant next = run.nextChangeAt().orElse(null);
            if (next == null || next.isAfter(end)) {
                break;
            }
            now = next;
            run.advanceTo(pod, now);
            write();
        }
        now = end;
        return this;
    }

    /** An object the pod refers to appeared or changed, now: the kubelet loop has the run look again. */
    PodRunHarness referencesChanged() {
        run.recheckReferences(now);
        run.advanceTo(pod, now);
        write();
        return this;
    }

    /** A graceful DELETE as the writer records it, now. */
    PodRunHarness delete(long graceSeconds) {
        ObjectMeta meta = ObjectMeta.newBuilder(pod.getMetadata()).setDeletionTimestamp(now.plusSeconds(graceSeconds))
                .setDeletionGracePeriodSeconds(graceSeconds).build();
        pod = Pod.newBuilder(pod).setMetadata(meta).build();
        run.advanceTo(pod, now);
        write();
        return this;
    }

    /** A spec update the writer accepted (an image, activeDeadlineSeconds), seen by the kubelet now. */
    PodRunHarness update(java.util.function.UnaryOperator<io.eventplane.model.PodSpec> change) {
        pod = Pod.newBuilder(pod).setSpec(change.apply(pod.getSpec())).build();
        run.advanceTo(pod, now);
        write();
        return this;
    }

    /** A status PATCH by someone else (a readiness gate's condition). */
    PodRunHarness condition(String type, String status) {
        List<PodCondition> c = new ArrayList<>(pod.getStatus().getConditions());
        c.removeIf(x -> x.getType().equals(type));
        c.add(PodCondition.newBuilder().setType(type).setStatus(status).setLastTransitionTime(now).build());
        pod = Pod.newBuilder(pod).setStatus(PodStatus.newBuilder(pod.getStatus()).setConditions(c).build()).build();
        run.advanceTo(pod, now);
        write();
        return this;
    }

    String phase() {
        return pod.getStatus().getPhase();
    }

    ContainerStatus container(String name) {
        return find(pod, name);
    }

    static ContainerStatus find(Pod pod, String name) {
        List<ContainerStatus> all = new ArrayList<>();
        if (pod.getStatus().getInitContainerStatuses() != null) {
            all.addAll(pod.getStatus().getInitContainerStatuses());
        }
        all.addAll(pod.getStatus().getContainerStatuses());
        return all.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
    }

    /** "Running", "Waiting:CrashLoopBackOff", "Terminated:Error(1)". */
    static String state(ContainerStatus s) {
        ContainerState st = s.getState();
        if (st.getRunning() != null) {
            return "Running";
        }
        if (st.getTerminated() != null) {
            return "Terminated:" + st.getTerminated().getReason() + "(" + st.getTerminated().getExitCode() + ")";
        }
        return "Waiting:" + st.getWaiting().getReason();
    }

    String state(String container) {
        return state(container(container));
    }

    String condition(String type) {
        return pod.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst()
                .map(PodCondition::getStatus).orElse(null);
    }

    /** The seconds after T0 at which {@code container} entered state {@code state}, in order. */
    List<Long> times(String container, String state) {
        List<Long> out = new ArrayList<>();
        String before = null;
        for (Snapshot s : history) {
            String st = state(find(s.pod(), container)) + "#" + find(s.pod(), container).getRestartCount();
            if (!st.equals(before) && st.startsWith(state + "#")) {
                out.add(s.second());
            }
            before = st;
        }
        return out;
    }

    /** Each distinct "container=state" line over time, for order assertions. */
    List<String> changes(String container) {
        List<String> out = new ArrayList<>();
        for (Snapshot s : history) {
            String st = s.second() + "s " + state(find(s.pod(), container));
            if (out.isEmpty() || !out.get(out.size() - 1).substring(out.get(out.size() - 1).indexOf(' '))
                    .equals(st.substring(st.indexOf(' ')))) {
                out.add(st);
            }
        }
        return out;
    }

    // ---- pods

    /** Pod "p" as the writer stores it once bound to node-1: Pending, BestEffort, PodScheduled=True at T0. */
    static Pod pod(String restartPolicy, Map<String, String> annotations, List<Container> init, List<Container> apps) {
        return KubeObjects.pod("p").uid("uid-p").resourceVersion("5").annotations(new HashMap<>(annotations))
                .onNode("node-1").restartPolicy(restartPolicy).initContainers(init.toArray(Container[]::new))
                .containers(apps.toArray(Container[]::new)).pending().qosClass("BestEffort")
                .condition(PodCondition.newBuilder().setType("PodScheduled").setStatus("True").setLastTransitionTime(T0)
                        .build())
                .build();
    }

    static Pod pod(String restartPolicy, Map<String, String> annotations, Container... apps) {
        return pod(restartPolicy, annotations, List.of(), List.of(apps));
    }

    static Container c(String name) {
        return busybox(name).build();
    }

    static Container sidecar(String name) {
        return busybox(name).restartPolicy("Always").build();
    }

    private static ContainerBuilder busybox(String name) {
        return KubeObjects.container(name).image("busybox:1.36").imagePullPolicy("IfNotPresent");
    }

    static Container withPreStop(Container k) {
        return Container.newBuilder(k).setLifecycle(Lifecycle.newBuilder().setPreStop(LifecycleHandler.newBuilder()
                .setSleep(SleepAction.newBuilder().setSeconds(5L).build()).build()).build()).build();
    }

    static Probe probe(int initialDelay, int period, int success, int failure) {
        return Probe.newBuilder().setInitialDelaySeconds(initialDelay).setPeriodSeconds(period)
                .setSuccessThreshold(success).setFailureThreshold(failure).setTimeoutSeconds(1).build();
    }

    static Map<String, String> sim(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(PodBehavior.PREFIX + kv[i], kv[i + 1]);
        }
        return m;
    }
}
