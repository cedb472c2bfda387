package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.history.HistoryReader;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /apis/eventplane.io/v1/history/{kind}/{namespace}/{name}} ({@code _} as the namespace of cluster-scoped
 * kinds): every change of one object from the event log, oldest first, as a JSON array of
 * {@code {time, actor, requestId, causationId, type, resourceVersion, object}}.
 */
final class HistoryHandler {
    static final String PREFIX = "/apis/eventplane.io/v1/history/";
    private static final Logger LOG = LoggerFactory.getLogger(HistoryHandler.class);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    private final HistoryReader reader;

    HistoryHandler(Backend backend) {
        this.reader = new HistoryReader(backend.config());
    }

    ApiResponse handle(List<String> segments) {
        if (segments.size() != 3) {
            throw new ApiException(Statuses.badRequest("expected " + PREFIX + "{kind}/{namespace}/{name}, with _ as "
                    + "the namespace of cluster-scoped kinds"));
        }
        KindInfo kind = resolve(segments.get(0));
        String namespace = kind.namespaced() ? segments.get(1) : "";
        String name = segments.get(2);
        List<ObjectChanged> changes;
        try {
            changes = reader.read(Keys.of(kind.kind(), namespace, name), READ_TIMEOUT);
        } catch (RuntimeException e) {
            LOG.warn("history of {} {}/{} failed: {}", kind.kind(), namespace, name, e.toString());
            throw new ApiException(Statuses.serviceUnavailable("cannot read the event log: " + e.getMessage()));
        }
        if (changes.isEmpty()) {
            throw new ApiException(Statuses.notFound(kind, name));
        }
        ArrayNode out = Json.array();
        for (ObjectChanged c : changes) {
            ObjectNode e = out.addObject();
            e.put("time", c.getEnvelope().getTime().toString());
            e.put("actor", c.getEnvelope().getActor());
            e.put("requestId", c.getEnvelope().getRequestId());
            if (c.getEnvelope().getCausationId() != null) {
                e.put("causationId", c.getEnvelope().getCausationId());
            }
            e.put("type", c.getType().name());
            e.put("resourceVersion", Long.toString(c.getResourceVersion()));
            e.put("previousResourceVersion", Long.toString(c.getPreviousResourceVersion()));
            e.set("object", Json.encodeObject((SpecificRecord) c.getObject()));
        }
        return ApiResponse.json(200, out);
    }

    /**
     * The stored kind a word names: a kind's name on the log, or a custom kind by its Kind alone (the first group
     * serving one); a capitalised word nothing serves now is taken as it is (the kind of a deleted
     * CustomResourceDefinition, whose objects stay in the log).
     */
    static String storedKind(String word) {
        if (!word.isEmpty() && Character.isUpperCase(word.charAt(0))) {
            return Kinds.byKind(word).map(KindInfo::kind)
                    .or(() -> io.eventplane.core.kinds.CustomKinds.served().stream().map(c -> c.info())
                            .filter(k -> k.objectKind().equals(word)).map(KindInfo::kind).findFirst())
                    .orElse(word);
        }
        return resolve(word).kind();
    }

    static KindInfo resolve(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        java.util.List<KindInfo> kinds = new java.util.ArrayList<>(Kinds.all());
        io.eventplane.core.kinds.CustomKinds.served().forEach(c -> kinds.add(c.info()));
        return kinds.stream().filter(k -> k.kind().toLowerCase(Locale.ROOT).equals(w)
                        || k.objectKind().toLowerCase(Locale.ROOT).equals(w) || k.plural().equals(w)
                        || (k.plural() + "." + k.group()).equals(w) || k.singular().equals(w)
                        || k.shortNames().contains(w)).findFirst()
                .or(() -> Kinds.byKind(word))
                .orElseThrow(() -> new ApiException(Statuses.badRequest("unknown kind \"" + word + "\"")));
    }
}
