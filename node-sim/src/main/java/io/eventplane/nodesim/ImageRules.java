package io.eventplane.nodesim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which images node-sim's registry lacks, and which ones are slow to pull, by name pattern ({@code *} matches any run of
 * characters; a pattern matches the image as written in the pod or as containerd names it, {@code
 * docker.io/library/nginx:1.161}). The first rule that matches wins.
 *
 * <p>Configuration text (the {@code EVENTPLANE_NODESIM_IMAGES} variable): rules separated by {@code ;} or newlines,
 * each {@code <pattern>=missing} or {@code <pattern>=<duration>}, e.g. {@code nginx:1.161=missing;*bigimage*=45s}.
 * The defaults know one missing image: {@code nginx:1.161}, the typo of the Deployment documentation's rollout.
 */
public record ImageRules(List<Rule> rules) {

    /** {@code pullDuration} null means missing. */
    public record Rule(String pattern, Duration pullDuration) {
        boolean matches(String image) {
            Pattern p = Pattern.compile(java.util.Arrays.stream(pattern.split("\\*", -1)).map(Pattern::quote)
                    .reduce((x, y) -> x + ".*" + y).orElse(""));
            String normalized = PodLifecycle.normalizeImage(image);
            return p.matcher(image).matches() || p.matcher(normalized).matches()
                    || (!pattern.contains("*") && PodLifecycle.normalizeImage(pattern).equals(normalized));
        }
    }

    public static ImageRules defaults() {
        return new ImageRules(List.of(new Rule("nginx:1.161", null)));
    }

    public static ImageRules parse(String text) {
        List<Rule> out = new ArrayList<>();
        for (String part : text.split("[;\\n]")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.lastIndexOf('=');
            if (eq <= 0 || eq == p.length() - 1) {
                throw new IllegalArgumentException("image rule \"" + p + "\": expected <pattern>=missing or <pattern>=<duration>");
            }
            String pattern = p.substring(0, eq).trim();
            String what = p.substring(eq + 1).trim();
            try {
                out.add(new Rule(pattern, what.equals("missing") ? null : PodBehavior.parseDuration(what)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("image rule \"" + p + "\": " + e.getMessage());
            }
        }
        return new ImageRules(List.copyOf(out));
    }

    /** The first matching rule: empty when none matches (the image exists and pulls at node-sim's usual speed). */
    public Optional<Rule> find(String image) {
        for (Rule r : rules) {
            if (r.matches(image)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
