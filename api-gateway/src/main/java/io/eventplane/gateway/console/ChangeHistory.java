package io.eventplane.gateway.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.log.AuditEntry;
import io.eventplane.client.log.AuditLog;
import io.eventplane.client.log.AuditQuery;
import io.eventplane.client.log.LogReader;
import io.eventplane.client.log.SnapshotStore;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.history.HistoryReader;
import io.eventplane.gateway.wire.Json;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * How objects got where they are: one object's timeline (every accepted change with the object after it, and every
 * rejected attempt at it), and the audit log in a compact form for long tables (no objects; the CLI's filters).
 */
final class ChangeHistory {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    private final EventplaneConfig config;
    private final HistoryReader history;
    private final AuditLog audit;

    ChangeHistory(EventplaneConfig config) {
        this.config = config;
        this.history = new HistoryReader(config);
        this.audit = new AuditLog(config, new SnapshotStore(config));
    }

    /**
     * The timeline of one object, oldest first: accepted changes from its partition of the event log (kept forever),
     * rejected commands from the outcomes topic (kept for its retention), joined with their commands for the verb.
     */
    ObjectNode timeline(KindInfo kind, String namespace, String name) {
        String key = Keys.of(kind.kind(), namespace, name);
        List<ObjectNode> entries = new ArrayList<>();
        for (ObjectChanged c : history.read(key, READ_TIMEOUT)) {
            ObjectNode e = Json.object();
            e.put("time", c.getEnvelope().getTime().toString());
            e.put("actor", c.getEnvelope().getActor());
            e.put("verb", AuditLog.verbOf(c.getType()));
            e.put("outcome", "accepted");
            e.put("change", c.getType().name());
            e.put("resourceVersion", Long.toString(c.getResourceVersion()));
            e.put("requestId", c.getEnvelope().getRequestId());
            e.set("object", Json.encodeObject(kind, (SpecificRecord) c.getObject()));
            entries.add(e);
        }
        List<CommandOutcome> rejected = new ArrayList<>();
        new LogReader<>(config, config.topics().outcomes(), LogSerdes.outcomes(config).deserializer())
                .timeout(READ_TIMEOUT).readAll(r -> {
                    CommandOutcome o = r.value();
                    if (o != null && !o.getAccepted() && o.getKind().equals(kind.kind())
                            && o.getNamespace().equals(namespace) && o.getName().equals(name)) {
                        rejected.add(o);
                    }
                    return true;
                });
        Map<String, String> verbs = rejected.isEmpty() ? Map.of() : verbsOf(rejected);
        for (CommandOutcome o : rejected) {
            ObjectNode e = Json.object();
            e.put("time", o.getEnvelope().getTime().toString());
            e.put("actor", o.getEnvelope().getActor());
            e.put("verb", verbs.getOrDefault(o.getEnvelope().getRequestId(), ""));
            e.put("outcome", "rejected");
            e.put("code", o.getCode());
            e.put("reason", o.getReason());
            e.put("message", o.getMessage());
            e.put("requestId", o.getEnvelope().getRequestId());
            entries.add(e);
        }
        entries.sort(Comparator.comparing(e -> e.get("time").asText()));
        ObjectNode out = Json.object();
        out.put("kind", kind.objectKind());
        out.put("namespace", namespace);
        out.put("name", name);
        ArrayNode items = out.putArray("items");
        entries.forEach(items::add);
        return out;
    }

    private Map<String, String> verbsOf(List<CommandOutcome> rejected) {
        Map<String, String> wanted = new HashMap<>();
        rejected.forEach(o -> wanted.put(o.getEnvelope().getRequestId(), ""));
        new LogReader<>(config, config.topics().commands(), LogSerdes.commands(config).deserializer())
                .timeout(READ_TIMEOUT).readAll(r -> {
                    Command c = r.value();
                    if (c != null && wanted.containsKey(c.getEnvelope().getRequestId())) {
                        wanted.put(c.getEnvelope().getRequestId(),
                                c.getVerb().name().toLowerCase(Locale.ROOT).replace('_', '-'));
                    }
                    return true;
                });
        return wanted;
    }

    /** The audit log with the CLI's filters, one line per entry and no objects. */
    ObjectNode audit(AuditQuery query) {
        List<AuditEntry> entries = audit.query(query);
        ObjectNode out = Json.object();
        out.put("total", entries.size());
        ArrayNode items = out.putArray("items");
        for (AuditEntry e : entries) {
            ObjectNode o = items.addObject();
            o.put("time", e.time().toString());
            o.put("actor", e.actor());
            o.put("verb", e.verb());
            o.put("kind", e.kind());
            o.put("namespace", e.namespace());
            o.put("name", e.name());
            o.put("outcome", e.outcome());
            o.put("code", e.code());
            if (e.accepted()) {
                o.put("change", e.changeType());
                o.put("resourceVersion", Long.toString(e.resourceVersion()));
            } else {
                o.put("reason", e.reason());
                o.put("message", e.message());
            }
        }
        return out;
    }

    /** An RFC 3339 time, or an age before {@code now} such as {@code 15m}, {@code 2h}, {@code 30s}, {@code 1d}. */
    static Instant moment(String text, Instant now) {
        String t = text.trim();
        if (t.matches("[0-9]+[smhd]")) {
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            Duration d = switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
            return now.minus(d);
        }
        return Instant.parse(t);
    }
}
