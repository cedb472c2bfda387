package io.eventplane.gateway.watch;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.GoneException;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Subscription;
import io.eventplane.core.ResourceVersions;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.select.Selection;
import io.eventplane.gateway.table.TableRenderer;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.gateway.wire.WatchStream;
import io.eventplane.log.ObjectChanged;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens watches on the view. From a list's resourceVersion the view replays every change after it (no loss, no
 * duplicate); without one (or "0") the watch starts with a synthetic ADDED per existing object. A position the view no
 * longer retains yields one ERROR event carrying a 410 Expired Status, after which clients list again.
 */
public final class WatchStreamer {
    private static final Logger LOG = LoggerFactory.getLogger(WatchStreamer.class);
    private static final Duration BOOKMARK_EVERY = Duration.ofSeconds(30);
    private static final Duration CATCH_UP = Duration.ofSeconds(3);

    /**
     * What a watch asks for.
     *
     * @param resourceVersion  start after this position; null, "" or "0": from now, with synthetic ADDED events
     * @param timeout          when to end the stream; null: a random 30-60 minutes, as kube-apiserver
     * @param bookmarks        whether to send BOOKMARK events while idle
     * @param tableVersion     non-null: each event's object is a one-row Table of this meta.k8s.io version
     */
    public record Request(Selection selection, String resourceVersion, Duration timeout, boolean bookmarks,
                          String tableVersion, TableRenderer.Include include) {
    }

    private final ObjectView view;
    private final int partitions;
    private final int buffer;
    private final Clock clock;

    public WatchStreamer(ObjectView view, int partitions, int buffer, Clock clock) {
        this.view = view;
        this.partitions = partitions;
        this.buffer = buffer;
        this.clock = clock;
    }

    /** @throws IllegalArgumentException when the resourceVersion is not one we issued */
    public WatchStream open(Request request) {
        Selection sel = request.selection();
        KindInfo kind = sel.kind();
        Duration timeout = request.timeout() != null ? request.timeout()
                : Duration.ofMinutes(30 + ThreadLocalRandom.current().nextInt(30));
        long deadline = System.nanoTime() + timeout.toNanos();
        String rv = request.resourceVersion();
        EventWatch.Options options = new EventWatch.Options(sel, kind, request.bookmarks(), BOOKMARK_EVERY,
                request.tableVersion(), request.include(), deadline, clock);
        SelectionTracker tracker = sel.selectsOnMutableFields() ? new SelectionTracker(sel) : null;
        if (rv == null || rv.isEmpty() || rv.equals("0")) {
            Subscription s = view.watchFromNow(kind.kind(), sel.viewNamespace(), sel::inScope, buffer);
            return new EventWatch(view, s, null, tracker, options);
        }
        long[] from = ResourceVersions.decode(rv, partitions);
        Subscription s;
        try {
            if (partitions > 1 && rv.indexOf('.') < 0) {
                from = positionAfterObjectVersion(Long.parseLong(rv));
            }
            s = view.watch(from, sel::inScope, buffer);
        } catch (GoneException e) {
            LOG.debug("watch of {} from {}: {}", kind.plural(), rv, e.getMessage());
            ObjectNode event = Json.object();
            event.put("type", "ERROR");
            event.set("object", Json.status(Statuses.expired(e.getMessage())));
            return new SingleChunk(line(event));
        }
        if (tracker != null) {
            // What the watcher's list at `from` showed: objects unchanged since then match now as they did then.
            for (ObjectChanged c : view.list(kind.kind(), sel.viewNamespace())) {
                if (sel.inScope(c) && !ResourceVersions.after(from, c.getResourceVersion())) {
                    tracker.known(c);
                }
            }
        }
        return new EventWatch(view, s, from, tracker, options);
    }

    /**
     * With several partitions a single number is one object's resourceVersion (a reflector resumes from the last event
     * it got): the watch starts where this view had delivered that change on every partition. A change this view has
     * not applied yet (it came from a faster gateway) is waited for briefly; one it no longer retains is 410 Gone, so
     * the client lists again rather than getting changes twice or missing some.
     */
    private long[] positionAfterObjectVersion(long resourceVersion) throws GoneException {
        long deadline = System.nanoTime() + CATCH_UP.toNanos();
        int p = ResourceVersions.partition(resourceVersion, partitions);
        while (true) {
            var at = view.positionAfter(resourceVersion);
            if (at.isPresent()) {
                return at.get();
            }
            if (view.positions()[p] >= resourceVersion || System.nanoTime() > deadline) {
                throw new GoneException("too old resource version: " + resourceVersion);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GoneException("interrupted");
            }
        }
    }

    static byte[] line(ObjectNode event) {
        byte[] json = Json.bytes(event);
        byte[] out = new byte[json.length + 1];
        System.arraycopy(json, 0, out, 0, json.length);
        out[json.length] = '\n';
        return out;
    }

    /** A watch event's line, its object written straight from the record (no JSON tree on this hot path). */
    static byte[] line(String type, KindInfo kind, SpecificRecord object) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(2048);
        try (JsonGenerator out = Json.MAPPER.getFactory().createGenerator(buffer)) {
            out.writeStartObject();
            out.writeStringField("type", type);
            out.writeFieldName("object");
            KubeJson.get().writeObject(kind, object, out);
            out.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a watch event", e);
        }
        buffer.write('\n');
        return buffer.toByteArray();
    }

    static byte[] line(String text) {
        return (text + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** A stream of one chunk (an ERROR event), then the end. */
    private static final class SingleChunk implements WatchStream {
        private byte[] chunk;

        SingleChunk(byte[] chunk) {
            this.chunk = chunk;
        }

        @Override
        public synchronized byte[] next() {
            byte[] c = chunk;
            chunk = null;
            return c;
        }

        @Override
        public void close() {
        }
    }
}
