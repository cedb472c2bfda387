package io.eventplane.gateway.select;

import io.eventplane.core.meta.ParsedLabelSelector;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Statuses;
import java.util.Map;

/** A request's {@code labelSelector} ({@link ParsedLabelSelector}); one that does not parse is a 400. */
public final class LabelSelector {
    public static final LabelSelector EVERYTHING = new LabelSelector(ParsedLabelSelector.EVERYTHING);

    private final ParsedLabelSelector parsed;

    private LabelSelector(ParsedLabelSelector parsed) {
        this.parsed = parsed;
    }

    public boolean isEmpty() {
        return parsed.isEmpty();
    }

    public boolean matches(Map<String, String> labels) {
        return parsed.matches(labels);
    }

    /** @throws ApiException 400 when the selector does not parse */
    public static LabelSelector parse(String text) {
        try {
            return new LabelSelector(ParsedLabelSelector.parse(text));
        } catch (IllegalArgumentException e) {
            throw new ApiException(Statuses.badRequest(e.getMessage()));
        }
    }
}
