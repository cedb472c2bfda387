package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.GoneException;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Subscription;
import io.eventplane.core.Keys;
import io.eventplane.core.ResourceVersions;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.select.Selection;
import io.eventplane.gateway.table.TableRenderer;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** GET of one object and of a collection (list), as JSON or as a Table, served from the view. */
final class ReadHandler {
    private static final Duration CATCH_UP = Duration.ofSeconds(3);
    private final Backend backend;
    private final AsOfReads asOf;

    ReadHandler(Backend backend) {
        this.backend = backend;
        this.asOf = new AsOfReads(backend);
    }

    ApiResponse get(ApiRequest request, ResourcePath path) {
        if (request.param("asOf") != null) {
            return asOf.get(request, path);
        }
        awaitResourceVersion(request.param("resourceVersion"));
        SpecificRecord object = current(backend.view(), path);
        String tableVersion = MediaTypes.tableVersion(request.headerJoined("accept"));
        if (tableVersion != null) {
            ObjectNode meta = Json.object();
            meta.put("resourceVersion", ResourceVersions.encode(backend.view().positions()));
            return ApiResponse.json(200, TableRenderer.render(path.kind(), List.of(object),
                    TableRenderer.Include.parse(request.param("includeObject")), tableVersion, meta, now()));
        }
        return ApiResponse.json(200, Json.encodeObject(path.kind(), object));
    }

    /** The object at {@code path} in the view, or 404. */
    static SpecificRecord current(ObjectView view, ResourcePath path) {
        return (SpecificRecord) view.get(path.kind().kind(), path.storedNamespace(), path.name())
                .orElseThrow(() -> new ApiException(Statuses.notFound(path.kind(), path.name())))
                .getObject();
    }

    ApiResponse list(ApiRequest request, ResourcePath path) {
        if (request.param("asOf") != null) {
            return asOf.list(request, path);
        }
        KindInfo kind = path.kind();
        Selection selection = request.selection(path);
        awaitResourceVersion(request.param("resourceVersion"));
        long limit = parseLimit(request.param("limit"));
        String cont = request.param("continue");
        ContinueToken token = cont == null || cont.isEmpty() ? null : ContinueToken.decode(cont);
        String node = kind.kind().equals("Pod") ? selection.fields().exactValue("spec.nodeName") : null;
        ObjectView.Snapshot snapshot = node != null && !node.isEmpty() && backend.view().hasIndex(ObjectView.PODS_BY_NODE)
                ? backend.view().snapshot(ObjectView.PODS_BY_NODE, node, selection.viewNamespace(), selection::matches)
                : backend.view().snapshot(kind.kind(), selection.viewNamespace(), selection::matches);
        String listRv = ResourceVersions.encode(snapshot.position());
        if (token != null) {
            // Later pages report the first page's resourceVersion: a watch from it then replays every change made
            // while the client paged, so nothing is missed even though pages are read from the current state.
            requireRetained(token.resourceVersion());
            listRv = token.resourceVersion();
        }
        List<SpecificRecord> page = new ArrayList<>();
        String lastKey = null;
        int remaining = 0;
        for (ObjectChanged c : snapshot.items()) {
            String key = Keys.of(c.getKind(), c.getNamespace(), c.getName());
            if (token != null && key.compareTo(token.lastKey()) <= 0) {
                continue;
            }
            if (limit > 0 && page.size() >= limit) {
                remaining++;
                continue;
            }
            page.add((SpecificRecord) c.getObject());
            lastKey = key;
        }
        ObjectNode meta = Json.object();
        meta.put("resourceVersion", listRv);
        if (remaining > 0) {
            meta.put("continue", new ContinueToken(listRv, lastKey).encode());
            if (selection.labels().isEmpty() && selection.fields().isEmpty()) {
                meta.put("remainingItemCount", remaining);
            }
        }
        String tableVersion = MediaTypes.tableVersion(request.headerJoined("accept"));
        if (tableVersion != null) {
            return ApiResponse.json(200, TableRenderer.render(kind, page,
                    TableRenderer.Include.parse(request.param("includeObject")), tableVersion, meta, now()));
        }
        ObjectNode list = Json.object();
        list.put("kind", kind.objectKind() + "List");
        list.put("apiVersion", kind.apiVersion());
        list.set("metadata", meta);
        ArrayNode items = list.putArray("items");
        for (SpecificRecord o : page) {
            items.add(Json.encodeItem(kind, o));
        }
        return ApiResponse.json(200, list);
    }

    private Instant now() {
        return backend.clock().instant();
    }

    private static long parseLimit(String limit) {
        if (limit == null || limit.isEmpty()) {
            return 0;
        }
        try {
            return Long.parseLong(limit);
        } catch (NumberFormatException e) {
            throw new ApiException(Statuses.badRequest("invalid limit \"" + limit + "\""));
        }
    }

    /** A continue token whose position the view no longer retains cannot be continued consistently: 410. */
    private void requireRetained(String resourceVersion) {
        long[] from = positions(resourceVersion);
        try (Subscription probe = backend.view().watch(from, c -> false, 1)) {
            // retained: nothing to do
        } catch (GoneException e) {
            throw new ApiException(Statuses.expired("The provided continue parameter is too old to display a "
                    + "consistent list result. You can start a new list without the continue parameter."));
        }
    }

    /**
     * Kubernetes serves a read at a resourceVersion "not older than" the one given: wait briefly for the view to
     * reach it (another gateway may have answered the write), else 504 as kube-apiserver does.
     */
    void awaitResourceVersion(String resourceVersion) {
        if (resourceVersion == null || resourceVersion.isEmpty() || resourceVersion.equals("0")) {
            return;
        }
        long[] wanted = positions(resourceVersion);
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        while (true) {
            long[] have = backend.view().positions();
            if (reached(have, wanted)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new ApiException(Statuses.tooLargeResourceVersion(resourceVersion, ResourceVersions.encode(have)));
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ApiException(Statuses.timeout());
            }
        }
    }

    long[] positions(String resourceVersion) {
        try {
            return ResourceVersions.decode(resourceVersion, backend.config().partitions());
        } catch (IllegalArgumentException e) {
            throw new ApiException(Statuses.badRequest(e.getMessage()));
        }
    }

    private static boolean reached(long[] have, long[] wanted) {
        for (int i = 0; i < wanted.length; i++) {
            if (have[i] < wanted[i]) {
                return false;
            }
        }
        return true;
    }
}
