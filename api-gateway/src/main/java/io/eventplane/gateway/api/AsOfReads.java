package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.log.LogReader;
import io.eventplane.client.log.SnapshotStore;
import io.eventplane.client.log.StateFold;
import io.eventplane.client.log.TimeTravel;
import io.eventplane.core.Keys;
import io.eventplane.core.ResourceVersions;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.select.Selection;
import io.eventplane.gateway.table.TableRenderer;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.ObjectChanged;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Time travel on get and list: {@code ?asOf=2026-11-21T10:00:00Z} (a moment) or {@code ?asOf=1234} (a log position,
 * a resourceVersion) answers from the state rebuilt at that point: the nearest snapshot, then the log folded forward.
 * The answer carries the rebuilt state's resourceVersion. The last rebuild is kept, so a get after a list at the same
 * moment is immediate.
 */
final class AsOfReads {
    private static final Logger LOG = LoggerFactory.getLogger(AsOfReads.class);
    private final Backend backend;
    private final TimeTravel travel;
    private String cachedTarget;
    private StateFold cached;

    AsOfReads(Backend backend) {
        this.backend = backend;
        this.travel = new TimeTravel(backend.config(), new SnapshotStore(backend.config()));
    }

    ApiResponse get(ApiRequest request, ResourcePath path) {
        StateFold state = state(request.param("asOf"));
        ObjectChanged c = state.get(Keys.of(path.kind().kind(), path.storedNamespace(), path.name()));
        if (c == null) {
            throw new ApiException(Statuses.notFound(path.kind(), path.name()));
        }
        return render(request, path.kind(), List.of((SpecificRecord) c.getObject()), state, false);
    }

    ApiResponse list(ApiRequest request, ResourcePath path) {
        StateFold state = state(request.param("asOf"));
        Selection selection = request.selection(path);
        String prefix = Keys.prefix(path.kind().kind(), selection.viewNamespace());
        List<SpecificRecord> items = new ArrayList<>();
        for (ObjectChanged c : state.range(prefix)) {
            if (selection.matches(c)) {
                items.add((SpecificRecord) c.getObject());
            }
        }
        return render(request, path.kind(), items, state, true);
    }

    private ApiResponse render(ApiRequest request, KindInfo kind, List<SpecificRecord> items, StateFold state,
                               boolean list) {
        ObjectNode meta = Json.object();
        meta.put("resourceVersion", ResourceVersions.encode(state.positions()));
        String tableVersion = MediaTypes.tableVersion(request.headerJoined("accept"));
        Instant asOf = state.latestTime();
        if (tableVersion != null) {
            return ApiResponse.json(200, TableRenderer.render(kind, items,
                    TableRenderer.Include.parse(request.param("includeObject")), tableVersion, meta, asOf));
        }
        if (!list) {
            return ApiResponse.json(200, Json.encodeObject(kind, items.get(0)));
        }
        ObjectNode out = Json.object();
        out.put("kind", kind.objectKind() + "List");
        out.put("apiVersion", kind.apiVersion());
        out.set("metadata", meta);
        ArrayNode array = out.putArray("items");
        items.forEach(o -> array.add(Json.encodeItem(kind, o)));
        return ApiResponse.json(200, out);
    }

    private synchronized StateFold state(String asOf) {
        TimeTravel.Target target = target(asOf);
        String id = asOf.trim();
        if (id.equals(cachedTarget)) {
            return cached;
        }
        TimeTravel.Result result;
        try {
            result = travel.rebuild(target, LogReader.Progress.NONE);
        } catch (RuntimeException e) {
            LOG.warn("time travel to {} failed: {}", asOf, e.toString());
            throw new ApiException(Statuses.serviceUnavailable("cannot rebuild the state as of " + asOf + ": "
                    + e.getMessage()));
        }
        LOG.info("state as of {} rebuilt in {} ms: snapshot {}, {} changes folded, {} objects", asOf, result.millis(),
                result.snapshotId() == null ? "none" : result.snapshotId(), result.changesRead(),
                result.fold().size());
        cachedTarget = id;
        cached = result.fold();
        return cached;
    }

    private TimeTravel.Target target(String asOf) {
        String v = asOf.trim();
        if (v.matches("[0-9]+(\\.[0-9]+)*")) {
            try {
                return TimeTravel.Target.atPosition(ResourceVersions.decode(v, backend.config().partitions()));
            } catch (IllegalArgumentException e) {
                throw new ApiException(Statuses.badRequest("asOf: " + e.getMessage()));
            }
        }
        try {
            Instant t = Instant.parse(v);
            if (t.isAfter(backend.clock().instant())) {
                throw new ApiException(Statuses.badRequest("asOf: " + v + " is in the future"));
            }
            return TimeTravel.Target.at(t);
        } catch (DateTimeParseException e) {
            throw new ApiException(Statuses.badRequest("asOf: \"" + v + "\" is neither an RFC 3339 time (such as "
                    + "2026-11-21T10:00:00Z) nor a resourceVersion"));
        }
    }
}
