package io.eventplane.nodesim;

import java.time.Duration;

/**
 * How a simulated kubelet times what it does.
 *
 * @param pullMin          shortest image pull
 * @param pullMax          longest image pull (drawn uniformly, seeded per pod)
 * @param shutdownDefault  how long a program takes to exit after SIGTERM when its pod does not say
 * @param backoffInitial   the first CrashLoopBackOff / ImagePullBackOff delay (a kubelet: 10 s)
 * @param backoffMax       the longest such delay (a kubelet: 300 s; {@code maxContainerRestartPeriod})
 * @param backoffReset     a container that ran this long before it exited restarts without delay again (10 min)
 * @param syncDelay        how long the kubelet takes to notice an exit and decide (the Error / ErrImagePull that
 *                         kubectl shows before the restart or the back-off)
 * @param images           missing and slow images
 * @param seed             seed of every random choice, mixed with the pod's uid
 * @param stages           what programs do, declared as stages ({@link Stages}; none by default)
 * @param runDefaults      how long programs run when their pod does not say: init containers and the containers of
 *                         run-to-completion pods finish ({@link RunDefaults#BUILT_IN} by default)
 */
public record KubeletConfig(Duration pullMin, Duration pullMax, Duration shutdownDefault, Duration backoffInitial,
                            Duration backoffMax, Duration backoffReset, Duration syncDelay, ImageRules images,
                            long seed, Stages stages, RunDefaults runDefaults) {

    public static KubeletConfig defaults() {
        return new KubeletConfig(Duration.ZERO, Duration.ofMillis(500), Duration.ofMillis(200), Duration.ofSeconds(10),
                Duration.ofSeconds(300), Duration.ofMinutes(10), Duration.ofSeconds(1), ImageRules.defaults(), 1L,
                Stages.none(), RunDefaults.BUILT_IN);
    }

    public KubeletConfig withRunDefaults(RunDefaults d) {
        return new KubeletConfig(pullMin, pullMax, shutdownDefault, backoffInitial, backoffMax, backoffReset, syncDelay,
                images, seed, stages, d);
    }

    public KubeletConfig withPull(Duration min, Duration max) {
        if (max.compareTo(min) < 0) {
            throw new IllegalArgumentException("the longest pull is shorter than the shortest");
        }
        return new KubeletConfig(min, max, shutdownDefault, backoffInitial, backoffMax, backoffReset, syncDelay, images,
                seed, stages, runDefaults);
    }

    public KubeletConfig withShutdownDefault(Duration d) {
        return new KubeletConfig(pullMin, pullMax, d, backoffInitial, backoffMax, backoffReset, syncDelay, images, seed,
                stages, runDefaults);
    }

    public KubeletConfig withBackoff(Duration initial, Duration max) {
        return new KubeletConfig(pullMin, pullMax, shutdownDefault, initial, max, backoffReset, syncDelay, images, seed,
                stages, runDefaults);
    }

    public KubeletConfig withSyncDelay(Duration d) {
        return new KubeletConfig(pullMin, pullMax, shutdownDefault, backoffInitial, backoffMax, backoffReset, d, images,
                seed, stages, runDefaults);
    }

    public KubeletConfig withImages(ImageRules rules) {
        return new KubeletConfig(pullMin, pullMax, shutdownDefault, backoffInitial, backoffMax, backoffReset, syncDelay,
                rules, seed, stages, runDefaults);
    }

    public KubeletConfig withSeed(long s) {
        return new KubeletConfig(pullMin, pullMax, shutdownDefault, backoffInitial, backoffMax, backoffReset, syncDelay,
                images, s, stages, runDefaults);
    }

    /** These stages, and the run-to-completion defaults their file sets (it wins over the environment). */
    public KubeletConfig withStages(Stages s) {
        return new KubeletConfig(pullMin, pullMax, shutdownDefault, backoffInitial, backoffMax, backoffReset, syncDelay,
                images, seed, s, runDefaults.with(s.runToCompletion()));
    }

    /** The delay before restart number {@code crashes} (1-based count of consecutive crashes): 0, 10, 20, 40 ... max. */
    public Duration backoff(int crashes) {
        if (crashes <= 1) {
            return Duration.ZERO;
        }
        Duration initial = backoffInitial.compareTo(backoffMax) > 0 ? backoffMax : backoffInitial;
        Duration d = initial;
        for (int i = 2; i < crashes && d.compareTo(backoffMax) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(backoffMax) > 0 ? backoffMax : d;
    }

    /** The delay before pull retry number {@code failures} (1-based): 10, 20, 40 ... max. */
    public Duration pullBackoff(int failures) {
        return backoff(failures + 1);
    }
}
