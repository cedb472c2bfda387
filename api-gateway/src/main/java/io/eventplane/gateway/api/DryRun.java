package io.eventplane.gateway.api;

import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Statuses;
import java.util.List;

/** {@code dryRun=All}: decide nothing, answer with what would be stored (decoded and checked here only). */
final class DryRun {
    private DryRun() {
    }

    static boolean requested(ApiRequest request) {
        List<String> values = request.query().get("dryRun");
        if (values == null || values.isEmpty()) {
            return false;
        }
        for (String v : values) {
            if (!v.equals("All")) {
                throw new ApiException(Statuses.badRequest("Invalid dryRun value \"" + v + "\": only \"All\" is supported"));
            }
        }
        return true;
    }
}
