package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.ObjectView;
import io.eventplane.client.log.AuditEntry;
import io.eventplane.client.log.AuditLog;
import io.eventplane.client.log.AuditQuery;
import io.eventplane.client.log.SnapshotStore;
import io.eventplane.client.log.StateDigest;
import io.eventplane.core.ResourceVersions;
import io.eventplane.gateway.audit.AuditJson;
import io.eventplane.gateway.audit.AuditLevel;
import io.eventplane.gateway.audit.AuditPolicy;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.Statuses;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /apis/eventplane.io/v1/audit}: every accepted and rejected mutation, from the log. Query parameters
 * {@code since}, {@code until} (RFC 3339), {@code actor}, {@code verb}, {@code kind}, {@code namespace}, {@code name},
 * {@code outcome} (accepted|rejected), {@code limit}; {@code format=k8s} answers an audit.k8s.io/v1 EventList at
 * {@code level} (default RequestResponse) or, for a POST, at the levels of the audit Policy in the body.
 *
 * <p>{@code /apis/eventplane.io/v1/digest}: the digest of this gateway's complete state and the position it reflects,
 * which {@code eventplane replay} compares a rebuild against.
 */
final class AuditHandler {
    private static final Logger LOG = LoggerFactory.getLogger(AuditHandler.class);
    private final Backend backend;
    private final AuditLog audit;

    AuditHandler(Backend backend) {
        this.backend = backend;
        this.audit = new AuditLog(backend.config(), new SnapshotStore(backend.config()));
    }

    ApiResponse audit(ApiRequest request) {
        AuditQuery query;
        AuditPolicy policy = null;
        boolean k8s = "k8s".equals(request.param("format")) || "audit.k8s.io/v1".equals(request.param("format"));
        try {
            String kind = request.param("kind");
            query = new AuditQuery(time(request, "since"), time(request, "until"), request.param("actor"),
                    request.param("verb"), kind == null ? null : HistoryHandler.storedKind(kind),
                    request.param("namespace"), request.param("name"), request.param("outcome"), limit(request));
            if (k8s) {
                policy = request.method().equals("POST") && request.body().length > 0
                        ? AuditPolicy.parse(new String(request.body(), StandardCharsets.UTF_8))
                        : AuditPolicy.everything(AuditLevel.parse(
                                request.param("level") == null ? "RequestResponse" : request.param("level")));
            }
        } catch (IllegalArgumentException e) {
            throw new ApiException(Statuses.badRequest(e.getMessage()));
        }
        List<AuditEntry> entries;
        try {
            entries = audit.query(query);
        } catch (RuntimeException e) {
            LOG.warn("audit query failed: {}", e.toString());
            throw new ApiException(Statuses.serviceUnavailable("cannot read the log: " + e.getMessage()));
        }
        return ApiResponse.json(200, k8s ? AuditJson.kubernetes(entries, policy) : AuditJson.entries(entries));
    }

    ApiResponse digest() {
        ObjectView.Snapshot all = backend.view().snapshotAll();
        ObjectNode out = Json.object();
        out.put("kind", "StateDigest");
        out.put("apiVersion", "eventplane.io/v1");
        out.put("resourceVersion", ResourceVersions.encode(all.position()));
        out.put("objects", all.items().size());
        out.put("digest", StateDigest.of(all.items()));
        return ApiResponse.json(200, out);
    }

    private static Instant time(ApiRequest request, String name) {
        String v = request.param(name);
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + ": \"" + v + "\" is not an RFC 3339 time such as 2026-11-21T10:00:00Z");
        }
    }

    private static int limit(ApiRequest request) {
        String v = request.param("limit");
        if (v == null || v.isEmpty()) {
            return 0;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("limit: \"" + v + "\" is not a number");
        }
    }
}
