package io.eventplane.core.meta;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed label selector string (a list's {@code labelSelector}, a scale's {@code status.selector}): {@code a=b}, {@code a==b}, {@code a!=b}, {@code a in (x,y)}, {@code a notin (x)},
 * {@code a} (exists), {@code !a} (does not exist), {@code a>1}, {@code a<1}; all requirements must hold.
 */
public final class ParsedLabelSelector {
    private static final Pattern SET = Pattern.compile("^(\\S+?)\\s+(in|notin)\\s*\\((.*)\\)$");
    private static final Pattern KEY = Pattern.compile("([a-z0-9A-Z]([-a-z0-9A-Z.]*[a-z0-9A-Z])?/)?"
            + "[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?");

    private enum Op { EQUALS, NOT_EQUALS, IN, NOT_IN, EXISTS, NOT_EXISTS, GT, LT }

    private record Requirement(String key, Op op, Set<String> values) {
        boolean matches(Map<String, String> labels) {
            String v = labels == null ? null : labels.get(key);
            return switch (op) {
                case EQUALS, IN -> v != null && values.contains(v);
                case NOT_EQUALS, NOT_IN -> v == null || !values.contains(v);
                case EXISTS -> v != null;
                case NOT_EXISTS -> v == null;
                case GT, LT -> v != null && compare(v);
            };
        }

        private boolean compare(String v) {
            try {
                long have = Long.parseLong(v);
                long want = Long.parseLong(values.iterator().next());
                return op == Op.GT ? have > want : have < want;
            } catch (NumberFormatException e) {
                return false;
            }
        }
    }

    public static final ParsedLabelSelector EVERYTHING = new ParsedLabelSelector(List.of());

    private final List<Requirement> requirements;

    private ParsedLabelSelector(List<Requirement> requirements) {
        this.requirements = requirements;
    }

    public boolean isEmpty() {
        return requirements.isEmpty();
    }

    public boolean matches(Map<String, String> labels) {
        for (Requirement r : requirements) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /** @throws IllegalArgumentException when the selector does not parse (its message says why, as upstream's) */
    public static ParsedLabelSelector parse(String text) {
        if (text == null || text.isBlank()) {
            return EVERYTHING;
        }
        List<Requirement> out = new ArrayList<>();
        for (String part : splitTopLevel(text)) {
            String p = part.trim();
            if (p.isEmpty()) {
                throw invalid(text, "empty requirement");
            }
            out.add(requirement(text, p));
        }
        return new ParsedLabelSelector(out);
    }

    private static Requirement requirement(String text, String p) {
        Matcher set = SET.matcher(p);
        if (set.matches()) {
            List<String> values = new ArrayList<>();
            for (String v : set.group(3).split(",", -1)) {
                values.add(v.trim());
            }
            return new Requirement(key(text, set.group(1)), set.group(2).equals("in") ? Op.IN : Op.NOT_IN,
                    Set.copyOf(values));
        }
        if (p.startsWith("!")) {
            return new Requirement(key(text, p.substring(1).trim()), Op.NOT_EXISTS, Set.of());
        }
        for (String op : List.of("!=", "==", "=", ">", "<")) {
            int i = p.indexOf(op);
            if (i > 0) {
                String value = p.substring(i + op.length()).trim();
                Op o = switch (op) {
                    case "!=" -> Op.NOT_EQUALS;
                    case ">" -> Op.GT;
                    case "<" -> Op.LT;
                    default -> Op.EQUALS;
                };
                return new Requirement(key(text, p.substring(0, i).trim()), o, Set.of(value));
            }
        }
        return new Requirement(key(text, p), Op.EXISTS, Set.of());
    }

    private static String key(String text, String key) {
        if (!KEY.matcher(key).matches()) {
            throw invalid(text, "invalid label key \"" + key + "\"");
        }
        return key;
    }

    private static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }

    private static IllegalArgumentException invalid(String text, String why) {
        return new IllegalArgumentException("unable to parse requirement: " + why + " in \"" + text + "\"");
    }
}
