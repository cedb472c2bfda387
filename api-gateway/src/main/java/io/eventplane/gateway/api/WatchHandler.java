package io.eventplane.gateway.api;

import io.eventplane.gateway.select.FieldSelector;
import io.eventplane.gateway.select.Selection;
import io.eventplane.gateway.table.TableRenderer;
import io.eventplane.gateway.watch.WatchStreamer;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.Statuses;
import java.time.Duration;

/**
 * {@code ?watch=true} (and {@code /watch/} paths): a chunked stream of watch events. A WebSocket upgrade on a watch
 * URL is answered at once with a complete 200, so that fabric8 falls back to an HTTP watch without waiting.
 */
final class WatchHandler {
    private final ReadHandler reads;
    private final WatchStreamer streamer;

    WatchHandler(ReadHandler reads, WatchStreamer streamer) {
        this.reads = reads;
        this.streamer = streamer;
    }

    ApiResponse watch(ApiRequest request, ResourcePath path) {
        if (request.isWebSocketUpgrade()) {
            return ApiResponse.status(new KubeStatus(200, "", "WebSocket watches are not served; watch over HTTP",
                    null)).withHeader("Connection", "close");
        }
        Selection selection = request.selection(path);
        if (!path.isCollection()) {
            // The deprecated watch of one object: a watch of its collection pinned to its name.
            String fields = request.param("fieldSelector");
            String pinned = "metadata.name=" + path.name() + (fields == null || fields.isEmpty() ? "" : "," + fields);
            selection = new Selection(path.kind(), selection.namespace(), selection.labels(),
                    FieldSelector.parse(pinned, path.kind()));
        }
        String rv = request.param("resourceVersion");
        if (rv != null && !rv.isEmpty() && !rv.equals("0")) {
            reads.positions(rv); // 400 for a resourceVersion we did not issue
        }
        WatchStreamer.Request watch = new WatchStreamer.Request(selection, rv, timeout(request),
                request.flag("allowWatchBookmarks"), MediaTypes.tableVersion(request.headerJoined("accept")),
                TableRenderer.Include.parse(request.param("includeObject")));
        return ApiResponse.watch(streamer.open(watch));
    }

    private static Duration timeout(ApiRequest request) {
        String t = request.param("timeoutSeconds");
        if (t == null || t.isEmpty()) {
            return null;
        }
        try {
            long seconds = Long.parseLong(t);
            return seconds <= 0 ? null : Duration.ofSeconds(seconds);
        } catch (NumberFormatException e) {
            throw new ApiException(Statuses.badRequest("invalid timeoutSeconds \"" + t + "\""));
        }
    }
}
