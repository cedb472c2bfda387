package io.eventplane.nodesim;

import io.eventplane.model.ObjectMeta;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * node-sim's {@link Stages} applied to the running containers of one {@link PodRun}: a stage a container has come to
 * match (by the pod's labels, annotations and phase, and the container's name, image, type and state) fires after its
 * delay with jitter, draws its next step by weight, and that step is taken in the program's terms (it exits, is
 * OOM-killed, its readiness or liveness probe starts failing, its readiness probe succeeds again); the kubelet's rules
 * (probes, restart policy, back-off) take it from there. Its own random source, so a run without stages draws its pull
 * durations as before.
 */
final class PodStages {
    private final List<Stages.Stage> stages;
    private final SplittableRandom stageRandom;
    private final String namespace;
    private final String restartPolicy;
    private Map<String, String> labels;
    private Map<String, String> annotations;

    PodStages(KubeletConfig config, ObjectMeta meta, String restartPolicy) {
        this.restartPolicy = restartPolicy;
        String uid = meta.getUid();
        this.stages = config.stages() == null ? List.of() : config.stages().stages();
        this.stageRandom = new SplittableRandom(config.seed() * 31 + (uid == null ? 0 : uid.hashCode()) ^ 0x5DEECE66DL);
        this.namespace = meta.getNamespace();
        this.labels = map(meta.getLabels());
        this.annotations = map(meta.getAnnotations());
    }

    /** The pod's labels or annotations as the API shows them now; answers whether the stages must be matched again. */
    boolean relabel(ObjectMeta meta) {
        if (stages.isEmpty() || (labels.equals(map(meta.getLabels())) && annotations.equals(map(meta.getAnnotations())))) {
            return false;
        }
        labels = map(meta.getLabels());
        annotations = map(meta.getAnnotations());
        return true;
    }

    /** A new run of the container: no stage pending, none fired. */
    void clear(ContainerRun c) {
        c.stageDue = stages.isEmpty() ? null : new Instant[stages.size()];
        c.stageFired = stages.isEmpty() ? null : new boolean[stages.size()];
    }

    /**
     * Each running container against each stage: a stage it has come to match is set to fire after its delay.
     *
     * @param podPhase the pod's phase, asked for only when a container is running
     * @param deleting whether the pod is being terminated
     */
    void arm(List<ContainerRun> containers, Instant t, Supplier<String> podPhase, boolean deleting) {
        if (stages.isEmpty()) {
            return;
        }
        String phase = null;
        for (ContainerRun c : containers) {
            if (!c.running() || c.stageDue == null) {
                continue;
            }
            if (phase == null) {
                phase = podPhase.get();
            }
            for (int i = 0; i < stages.size(); i++) {
                Stages.Stage stage = stages.get(i);
                if (!matches(stage.selector(), c, phase, deleting)) {
                    c.stageDue[i] = null;
                    c.stageFired[i] = false;
                } else if (!c.stageFired[i] && c.stageDue[i] == null) {
                    long ms = stage.delayMillis();
                    if (stage.jitterMillis() > 0) {
                        ms += stageRandom.nextLong(-stage.jitterMillis(), stage.jitterMillis() + 1);
                    }
                    c.stageDue[i] = t.plusMillis(Math.max(0, ms));
                }
            }
            c.due = c.runningDue(t);
        }
    }

    private boolean matches(Stages.Selector s, ContainerRun c, String phase, boolean deleting) {
        for (Map.Entry<String, String> e : s.matchLabels().entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (Map.Entry<String, String> e : s.matchAnnotations().entrySet()) {
            if (!e.getValue().equals(annotations.get(e.getKey()))) {
                return false;
            }
        }
        for (Stages.Expression x : s.matchExpressions()) {
            String value = switch (x.key()) {
                case POD_PHASE -> phase;
                case POD_NAMESPACE -> namespace;
                case POD_DELETING -> String.valueOf(deleting);
                case POD_RESTART_POLICY -> restartPolicy;
                case CONTAINER_NAME -> c.name();
                case CONTAINER_IMAGE -> c.spec.getImage() == null ? "" : c.spec.getImage();
                case CONTAINER_TYPE -> c.role.name().toLowerCase(java.util.Locale.ROOT);
                case CONTAINER_STARTED -> String.valueOf(c.started);
                case CONTAINER_READY -> String.valueOf(c.ready);
                case CONTAINER_RESTART_COUNT -> String.valueOf(c.restartCount);
            };
            if (!x.matches(value)) {
                return false;
            }
        }
        return true;
    }

    /** The stages due on this running container fire in file order; each draws its next step by weight. */
    void fire(ContainerRun c, Instant t) {
        if (c.stageDue == null) {
            return;
        }
        for (int i = 0; i < stages.size(); i++) {
            if (c.stageDue[i] == null || c.stageDue[i].isAfter(t)) {
                continue;
            }
            c.stageDue[i] = null;
            c.stageFired[i] = true;
            apply(c, t, draw(stages.get(i)));
            if (c.endAt != null && !c.endAt.isAfter(t)) {
                return; // it exits now; what else was due is moot
            }
        }
    }

    private Stages.Next draw(Stages.Stage stage) {
        List<Stages.Next> next = stage.next();
        if (next.size() == 1) {
            return next.get(0);
        }
        long r = stageRandom.nextLong(stage.totalWeight());
        for (Stages.Next n : next) {
            r -= n.weight();
            if (r < 0) {
                return n;
            }
        }
        return next.get(next.size() - 1);
    }

    /** A step in the program's terms; the kubelet's rules (probes, restart policy, back-off) take it from there. */
    private static void apply(ContainerRun c, Instant t, Stages.Next next) {
        switch (next.action()) {
            case EXIT -> c.end(t, next.exitCode(), next.exitCode() == 0 ? "Completed" : "Error", null);
            case OOM_KILL -> c.end(t, ContainerRun.KILLED, "OOMKilled", null);
            case UNREADY -> ProbeSchedule.readinessFails(c, t);
            case READY -> ProbeSchedule.readinessSucceeds(c, t);
            case LIVENESS_FAILS -> ProbeSchedule.livenessFails(c, t);
            case NONE -> {
            }
        }
    }

    private static Map<String, String> map(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }
}
