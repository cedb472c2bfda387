package io.eventplane.gateway.api;

import java.util.Map;

/** {@code /healthz}, {@code /livez} (the process serves) and {@code /readyz} (every readiness check passes). */
final class Health {
    private Health() {
    }

    static ApiResponse live() {
        return ApiResponse.text(200, "ok");
    }

    static ApiResponse ready(ApiRequest request, Readiness readiness) {
        Map<String, Boolean> checks = readiness.evaluate();
        boolean ok = !checks.containsValue(false);
        if (ok && request.param("verbose") == null) {
            return ApiResponse.text(200, "ok");
        }
        StringBuilder sb = new StringBuilder();
        checks.forEach((name, passed) -> sb.append(passed ? "[+]" : "[-]").append(name)
                .append(passed ? " ok" : " failed: not ready").append('\n'));
        sb.append(ok ? "readyz check passed" : "readyz check failed").append('\n');
        return ApiResponse.text(ok ? 200 : 503, sb.toString());
    }
}
