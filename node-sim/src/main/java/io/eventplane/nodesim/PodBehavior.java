package io.eventplane.nodesim;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the simulated program in one container does, declared by the pod's annotations under {@code sim.eventplane.io/}.
 * Each key applies to every container, and {@code <key>.<container>} to one container only (it wins). With no
 * annotation a container behaves like nginx: it starts, answers every probe at once and runs until it is stopped, and
 * exits 0 on SIGTERM.
 *
 * @param runDuration        {@code run-duration}: the program exits on its own after this long (null: not declared, or
 *                           {@code never}; see {@code runsUntilStopped})
 * @param exitCode           {@code exit-code}: its exit code when it does (0)
 * @param oomAfter           {@code oom-after}: it is OOM-killed after this long (exit 137, reason OOMKilled; null: never)
 * @param startupAfter       {@code startup-after}: its startup probe succeeds from this long after the start (0)
 * @param readyAfter         {@code ready-after}: its readiness probe succeeds from this long after the start (0)
 * @param unreadyAfter       {@code unready-after}: its readiness probe fails again from this long after the start (null)
 * @param livenessFailsAfter {@code liveness-fails-after}: its liveness probe fails from this long after the start (null)
 * @param probeResponseTime  {@code probe-response-time}: how long it takes to answer a probe; a probe whose
 *                           timeoutSeconds is shorter fails (0)
 * @param preStopDuration    {@code prestop-duration}: how long its preStop hook runs, when it has one (0)
 * @param shutdownDuration   {@code shutdown-duration}: how long it takes to exit after SIGTERM (null: node-sim's default)
 * @param exitCodeOnSigterm  {@code exit-code-on-sigterm}: its exit code when it exits on SIGTERM (0)
 * @param ignoresSigterm     {@code ignores-sigterm}: "true" when only SIGKILL stops it
 * @param imagePullDuration  {@code image-pull-duration}: how long a pull of its image takes (null: node-sim's rules)
 * @param imageMissing       {@code image-missing}: "true" when its image cannot be pulled (null: node-sim's rules)
 * @param postStartDuration  {@code poststart-duration}: how long its postStart hook runs, when it has one (0)
 * @param postStartFails     {@code poststart-fails}: "true" when its postStart hook fails (at the end of its duration)
 * @param runsUntilStopped   {@code run-duration: never}: it never exits on its own, whatever node-sim's defaults say
 */
public record PodBehavior(Duration runDuration, int exitCode, Duration oomAfter, Duration startupAfter,
                          Duration readyAfter, Duration unreadyAfter, Duration livenessFailsAfter,
                          Duration probeResponseTime, Duration preStopDuration, Duration shutdownDuration,
                          int exitCodeOnSigterm, boolean ignoresSigterm, Duration imagePullDuration,
                          Boolean imageMissing, Duration postStartDuration, boolean postStartFails,
                          boolean runsUntilStopped) {

    public static final String PREFIX = "sim.eventplane.io/";

    /** A declared value that cannot be read: the container cannot be created, as with a bad config map reference. */
    public static final class InvalidAnnotation extends RuntimeException {
        public InvalidAnnotation(String message) {
            super(message);
        }
    }

    /** The behaviour of container {@code container} from the pod's annotations; throws {@link InvalidAnnotation}. */
    public static PodBehavior of(Map<String, String> annotations, String container) {
        Map<String, String> a = annotations == null ? Map.of() : annotations;
        Reader r = new Reader(a, container);
        boolean never = "never".equalsIgnoreCase(String.valueOf(r.raw("run-duration")).trim());
        return new PodBehavior(never ? null : r.duration("run-duration", null), r.integer("exit-code", 0),
                r.duration("oom-after", null), r.duration("startup-after", Duration.ZERO),
                r.duration("ready-after", Duration.ZERO), r.duration("unready-after", null),
                r.duration("liveness-fails-after", null), r.duration("probe-response-time", Duration.ZERO),
                r.duration("prestop-duration", Duration.ZERO), r.duration("shutdown-duration", null),
                r.integer("exit-code-on-sigterm", 0), r.bool("ignores-sigterm", false),
                r.duration("image-pull-duration", null), r.boolOrNull("image-missing"),
                r.duration("poststart-duration", Duration.ZERO), r.bool("poststart-fails", false), never);
    }

    /**
     * This behaviour, running for {@code run} when the pod declares no run duration (node-sim's run-to-completion
     * defaults, {@link RunDefaults}); unchanged when it declares one, or {@code never}, or {@code run} is null.
     */
    public PodBehavior withDefaultRun(Duration run) {
        if (run == null || runDuration != null || runsUntilStopped) {
            return this;
        }
        return new PodBehavior(run, exitCode, oomAfter, startupAfter, readyAfter, unreadyAfter, livenessFailsAfter,
                probeResponseTime, preStopDuration, shutdownDuration, exitCodeOnSigterm, ignoresSigterm,
                imagePullDuration, imageMissing, postStartDuration, postStartFails, false);
    }

    private record Reader(Map<String, String> annotations, String container) {
        String raw(String key) {
            String own = annotations.get(PREFIX + key + "." + container);
            return own != null ? own : annotations.get(PREFIX + key);
        }

        String keyOf(String key) {
            return annotations.containsKey(PREFIX + key + "." + container) ? PREFIX + key + "." + container : PREFIX + key;
        }

        Duration duration(String key, Duration dflt) {
            String v = raw(key);
            if (v == null) {
                return dflt;
            }
            try {
                return parseDuration(v);
            } catch (IllegalArgumentException e) {
                throw new InvalidAnnotation("annotation " + keyOf(key) + ": " + e.getMessage());
            }
        }

        int integer(String key, int dflt) {
            String v = raw(key);
            if (v == null) {
                return dflt;
            }
            try {
                int i = Integer.parseInt(v.trim());
                if (i < 0 || i > 255) {
                    throw new InvalidAnnotation("annotation " + keyOf(key) + ": exit code " + i + " is not in 0..255");
                }
                return i;
            } catch (NumberFormatException e) {
                throw new InvalidAnnotation("annotation " + keyOf(key) + ": \"" + v + "\" is not an integer");
            }
        }

        boolean bool(String key, boolean dflt) {
            Boolean b = boolOrNull(key);
            return b == null ? dflt : b;
        }

        Boolean boolOrNull(String key) {
            String v = raw(key);
            if (v == null) {
                return null;
            }
            if (v.equalsIgnoreCase("true")) {
                return true;
            }
            if (v.equalsIgnoreCase("false")) {
                return false;
            }
            throw new InvalidAnnotation("annotation " + keyOf(key) + ": \"" + v + "\" is neither true nor false");
        }
    }

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    /** A Go duration ({@code 1m30s}, {@code 500ms}, {@code 2h}) or a plain number of seconds. */
    public static Duration parseDuration(String text) {
        String v = text.trim();
        if (v.matches("\\d+(\\.\\d+)?")) {
            return Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
        }
        Matcher m = PART.matcher(v);
        int at = 0;
        long ms = 0;
        while (at < v.length() && m.find(at) && m.start() == at) {
            double n = Double.parseDouble(m.group(1));
            ms += Math.round(n * switch (m.group(2)) {
                case "ms" -> 1;
                case "s" -> 1000;
                case "m" -> 60_000;
                default -> 3_600_000;
            });
            at = m.end();
        }
        if (at != v.length() || v.isEmpty()) {
            throw new IllegalArgumentException("\"" + text + "\" is not a duration (like 30s, 1m30s, 500ms or 12)");
        }
        return Duration.ofMillis(ms);
    }
}
