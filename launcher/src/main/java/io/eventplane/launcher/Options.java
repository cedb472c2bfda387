package io.eventplane.launcher;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code --name value} options and positional arguments; nothing more is needed. */
record Options(Map<String, String> named, List<String> positional) {

    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }

    static Options parse(String[] args) {
        Map<String, String> named = new HashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--") || (a.startsWith("-") && a.length() == 2)) {
                String name = a.replaceFirst("^-+", "");
                String value;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                } else if (i + 1 < args.length && !args[i + 1].startsWith("-")) {
                    value = args[++i];
                } else {
                    value = "true";
                }
                named.put(name, value);
            } else {
                positional.add(a);
            }
        }
        return new Options(named, positional);
    }

    String get(String name, String fallback) {
        return named.getOrDefault(name, fallback);
    }

    int intValue(String name, int fallback) {
        String v = named.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " wants a number, got \"" + v + "\"");
        }
    }
}
