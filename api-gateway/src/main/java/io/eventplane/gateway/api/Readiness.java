package io.eventplane.gateway.api;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/** The named checks behind {@code /readyz}: the gateway's view, plus whatever the launcher adds (writer, broker...). */
public final class Readiness {
    private final Map<String, BooleanSupplier> checks = new LinkedHashMap<>();

    public synchronized void add(String name, BooleanSupplier check) {
        checks.put(name, check);
    }

    /** Each check's result, in the order they were added; a check that throws counts as failed. */
    public synchronized Map<String, Boolean> evaluate() {
        Map<String, Boolean> out = new LinkedHashMap<>();
        checks.forEach((name, check) -> {
            boolean ok;
            try {
                ok = check.getAsBoolean();
            } catch (RuntimeException e) {
                ok = false;
            }
            out.put(name, ok);
        });
        return out;
    }

    public boolean ready() {
        return !evaluate().containsValue(false);
    }
}
