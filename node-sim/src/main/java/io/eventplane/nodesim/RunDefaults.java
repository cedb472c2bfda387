package io.eventplane.nodesim;

import io.eventplane.client.EventplaneConfig;
import java.time.Duration;

/**
 * How long a simulated program runs when its pod does not say ({@code sim.eventplane.io/run-duration}): work that a
 * user expects to finish does finish. An init container exits 0 after {@code initContainer}; an app container of a pod
 * whose restartPolicy is Never or OnFailure (a Job's pod) exits 0 after {@code runToCompletion}. Containers of
 * restartPolicy Always pods, sidecars and ephemeral containers run until they are stopped. Null: until stopped.
 *
 * <p>Set with {@code EVENTPLANE_NODESIM_INIT_RUN} and {@code EVENTPLANE_NODESIM_COMPLETION_RUN} (a duration such as
 * {@code 10s}, or {@code never}), or the stage file's {@code runToCompletion} block, which wins.
 */
public record RunDefaults(Duration initContainer, Duration runToCompletion) {
    public static final String INIT_SETTING = "EVENTPLANE_NODESIM_INIT_RUN";
    public static final String COMPLETION_SETTING = "EVENTPLANE_NODESIM_COMPLETION_RUN";
    /** An init container's run: 1 s. A Job pod's container: 10 s (the pi example "exits 0 after about 10 s"). */
    public static final RunDefaults BUILT_IN = new RunDefaults(Duration.ofSeconds(1), Duration.ofSeconds(10));
    /** Every program runs until it is stopped, as node-sim did before run-to-completion defaults. */
    public static final RunDefaults NEVER = new RunDefaults(null, null);

    /** The built-in defaults with what the environment sets. */
    public static RunDefaults fromEnvironment() {
        return new RunDefaults(setting(INIT_SETTING, BUILT_IN.initContainer()),
                setting(COMPLETION_SETTING, BUILT_IN.runToCompletion()));
    }

    private static Duration setting(String name, Duration dflt) {
        String v = EventplaneConfig.setting(name, "");
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            return parse(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage());
        }
    }

    /** A duration ({@code 500ms}, {@code 10s}, {@code 1m30s}, plain seconds) or {@code never} (null). */
    static Duration parse(String text) {
        return "never".equalsIgnoreCase(text.trim()) ? null : PodBehavior.parseDuration(text);
    }

    /**
     * The stage file's {@code runToCompletion} block: each part it names replaces the default ({@code value} null:
     * never); a part it leaves out keeps it.
     */
    public record Override(boolean initSet, Duration initContainer, boolean completionSet, Duration runToCompletion) {
        public static final Override NONE = new Override(false, null, false, null);
    }

    public RunDefaults with(Override o) {
        return new RunDefaults(o.initSet() ? o.initContainer() : initContainer,
                o.completionSet() ? o.runToCompletion() : runToCompletion);
    }

    /** The run of a container in this role of a pod with this restart policy when the pod declares none, or null. */
    Duration forContainer(ContainerRun.Role role, String restartPolicy) {
        return switch (role) {
            case INIT -> initContainer;
            case APP -> "Never".equals(restartPolicy) || "OnFailure".equals(restartPolicy) ? runToCompletion : null;
            case SIDECAR, EPHEMERAL -> null;
        };
    }
}
