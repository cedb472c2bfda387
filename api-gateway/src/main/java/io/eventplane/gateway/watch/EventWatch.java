package io.eventplane.gateway.watch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Subscription;
import io.eventplane.client.WatchEvent;
import io.eventplane.core.ResourceVersions;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.select.Selection;
import io.eventplane.gateway.table.TableRenderer;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.WatchStream;
import io.eventplane.log.ObjectChanged;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** One open watch: drains its view subscription into watch-event lines until the deadline or the end. */
final class EventWatch implements WatchStream {
    private static final Duration POLL = Duration.ofMillis(250);

    record Options(Selection selection, KindInfo kind, boolean bookmarks, Duration bookmarkEvery, String tableVersion,
                   TableRenderer.Include include, long deadlineNanos, Clock clock) {
    }

    private final ObjectView view;
    private final Subscription subscription;
    private final long[] from;
    private final SelectionTracker tracker;
    private final Options options;
    private long nextBookmark;
    private volatile boolean closed;

    EventWatch(ObjectView view, Subscription subscription, long[] from, SelectionTracker tracker, Options options) {
        this.view = view;
        this.subscription = subscription;
        this.from = from;
        this.tracker = tracker;
        this.options = options;
        this.nextBookmark = System.nanoTime() + options.bookmarkEvery().toNanos();
    }

    @Override
    public byte[] next() throws InterruptedException {
        while (!closed) {
            long now = System.nanoTime();
            if (now >= options.deadlineNanos()) {
                close();
                return null;
            }
            // Read the position before polling: when the poll then finds nothing, every change up to it was delivered.
            long[] position = options.bookmarks() ? view.positions() : null;
            long wait = Math.min(POLL.toNanos(), options.deadlineNanos() - now);
            WatchEvent event = subscription.poll(Duration.ofNanos(Math.max(wait, 1_000_000)));
            if (event == null) {
                if (subscription.isClosed()) {
                    close();
                    return null;
                }
                if (position != null && System.nanoTime() >= nextBookmark) {
                    nextBookmark = System.nanoTime() + options.bookmarkEvery().toNanos();
                    return bookmark(position);
                }
                continue;
            }
            byte[] line = render(event);
            if (line != null) {
                return line;
            }
        }
        return null;
    }

    @Override
    public byte[] nextAvailable() {
        while (!closed && System.nanoTime() < options.deadlineNanos()) {
            WatchEvent event;
            try {
                event = subscription.poll(Duration.ZERO);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
            if (event == null) {
                return null;
            }
            byte[] line = render(event);
            if (line != null) {
                return line;
            }
        }
        return null;
    }

    private byte[] render(WatchEvent event) {
        ObjectChanged c = event.change();
        if (from != null && !ResourceVersions.after(from, c.getResourceVersion())) {
            return null; // the client's list already reflects it (its resourceVersion is ahead of this view)
        }
        String type = tracker == null ? event.type() : tracker.typeFor(event);
        if (type == null) {
            return null;
        }
        SpecificRecord object = (SpecificRecord) c.getObject();
        if (options.tableVersion() == null) {
            return WatchStreamer.line(type, options.kind(), object);
        }
        ObjectNode e = Json.object();
        e.put("type", type);
        ObjectNode meta = Json.object();
        meta.put("resourceVersion", Long.toString(c.getResourceVersion()));
        e.set("object", TableRenderer.render(options.kind(), List.of(object), options.include(),
                options.tableVersion(), meta, options.clock().instant()));
        return WatchStreamer.line(e);
    }

    private byte[] bookmark(long[] position) {
        long[] at = position.clone();
        if (from != null) {
            for (int i = 0; i < at.length && i < from.length; i++) {
                at[i] = Math.max(at[i], from[i]);
            }
        }
        ObjectNode object = Json.object();
        object.put("kind", options.kind().objectKind());
        object.put("apiVersion", options.kind().apiVersion());
        object.putObject("metadata").put("resourceVersion", ResourceVersions.encode(at));
        ObjectNode e = Json.object();
        e.put("type", "BOOKMARK");
        e.set("object", object);
        return WatchStreamer.line(e);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            subscription.close();
        }
    }
}
