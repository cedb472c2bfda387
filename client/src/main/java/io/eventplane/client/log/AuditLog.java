package io.eventplane.client.log;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.core.Keys;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Answers audit queries from the log itself. Accepted mutations are the event log's changes, each with the state of
 * its object just before (a fold of the log up to it, started from the nearest snapshot). Rejected mutations are the
 * writer's negative outcomes. The request each command carried is joined from the commands topic by request id.
 *
 * <p>Records of the event log carry the time their command was sent; a partition is read until the first change
 * after the window (plus {@link #SLACK}, since senders' clocks and arrival order differ slightly).
 */
public final class AuditLog {
    static final Duration SLACK = Duration.ofSeconds(30);
    private final EventplaneConfig config;
    private final SnapshotStore snapshots;

    public AuditLog(EventplaneConfig config, SnapshotStore snapshots) {
        this.config = config;
        this.snapshots = snapshots;
    }

    public List<AuditEntry> query(AuditQuery q) {
        List<AuditEntry> entries = new ArrayList<>();
        acceptedInto(q, entries);
        rejectedInto(q, entries);
        deadLettersInto(q, entries);
        attachRequests(q, entries);
        entries.removeIf(e -> !q.matches(e));
        entries.sort(Comparator.comparing(AuditEntry::time).thenComparingLong(AuditEntry::resourceVersion));
        if (q.limit() > 0 && entries.size() > q.limit()) {
            return new ArrayList<>(entries.subList(0, q.limit()));
        }
        return entries;
    }

    private void acceptedInto(AuditQuery q, List<AuditEntry> out) {
        StateFold fold = q.since() == null ? new StateFold(config.partitions())
                : snapshots.latestBefore(q.since()).map(SnapshotStore.Loaded::fold)
                .orElseGet(() -> new StateFold(config.partitions()));
        Instant stopAfter = q.until() == null ? null : q.until().plus(SLACK);
        TimeTravel.foldInto(config, fold, raw -> {
            Instant time = raw.time();
            if (stopAfter != null && time.isAfter(stopAfter)) {
                return false;
            }
            if (q.inTime(time) && q.matchesObject(raw.kind(), raw.namespace(), raw.name())) {
                ObjectChanged change = raw.decode();
                ObjectChanged before = fold.get(Keys.of(raw.kind(), raw.namespace(), raw.name()));
                out.add(new AuditEntry(time, change.getEnvelope().getActor(), change.getEnvelope().getRequestId(),
                        change.getEnvelope().getCausationId(), verbOf(change.getType()), change.getKind(),
                        change.getNamespace(), change.getName(), true, change.getType() == ChangeType.CREATED ? 201 : 200,
                        "", "", change.getType().name(), change.getResourceVersion(), null, before, change));
            }
            return true;
        });
    }

    private void rejectedInto(AuditQuery q, List<AuditEntry> out) {
        if ("accepted".equals(q.outcome())) {
            return;
        }
        LogReader<CommandOutcome> reader = new LogReader<>(config, config.topics().outcomes(),
                LogSerdes.outcomes(config).deserializer());
        LogReader.Handler<CommandOutcome> handler = r -> {
            CommandOutcome o = r.value();
            if (o != null && !o.getAccepted()) {
                Instant time = o.getEnvelope().getTime();
                if (q.inTime(time) && q.matchesObject(o.getKind(), o.getNamespace(), o.getName())) {
                    out.add(new AuditEntry(time, o.getEnvelope().getActor(), o.getEnvelope().getRequestId(),
                            o.getEnvelope().getCausationId(), "", o.getKind(), o.getNamespace(), o.getName(), false,
                            o.getCode(), o.getReason(), o.getMessage(), "", 0, null, null, null));
                }
            }
            return true;
        };
        if (q.since() == null) {
            reader.readAll(handler);
        } else {
            reader.readFrom(q.since().minus(SLACK).toEpochMilli(), handler);
        }
    }

    /**
     * Records of the dead-letter topic that no outcome answered: commands the writer could not read at all (garbage
     * bytes, an unknown schema id). Those it read but could not apply are already there as rejected outcomes.
     */
    private void deadLettersInto(AuditQuery q, List<AuditEntry> out) {
        if ("accepted".equals(q.outcome())) {
            return;
        }
        Set<String> answered = new HashSet<>();
        out.forEach(e -> answered.add(e.requestId()));
        LogReader<byte[]> reader = new LogReader<>(config, config.topics().deadLetters(),
                new ByteArrayDeserializer());
        LogReader.Handler<byte[]> handler = r -> {
            DeadLetter d = DeadLetter.of(r);
            if (!d.requestId().isEmpty() && answered.contains(d.requestId())) {
                return true;
            }
            String[] key = d.key().split("/", 3);
            String kind = key.length == 3 ? key[0] : "";
            String namespace = key.length == 3 ? key[1] : "";
            String name = key.length == 3 ? key[2] : d.key();
            if (q.inTime(d.time()) && q.matchesObject(kind, namespace, name)) {
                out.add(new AuditEntry(d.time(), "", d.requestId(), null, "", kind, namespace, name, false, d.code(),
                        d.reason(), "dead-lettered (" + d.sourceTopic() + "@" + d.sourceOffset() + "): "
                        + d.message(), "", 0, null, null, null));
            }
            return true;
        };
        if (q.since() == null) {
            reader.readAll(handler);
        } else {
            reader.readFrom(q.since().minus(SLACK).toEpochMilli(), handler);
        }
    }

    /** Joins each entry with its command (the request), which also gives rejected entries their verb. */
    private void attachRequests(AuditQuery q, List<AuditEntry> entries) {
        Map<String, Integer> wanted = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).requestId() != null && !entries.get(i).requestId().isEmpty()) {
                wanted.put(entries.get(i).requestId(), i);
            }
        }
        if (wanted.isEmpty()) {
            return;
        }
        // The command log may hold poison records (they are in the dead letters): skip them, not the whole audit.
        Deserializer<Command> strict = LogSerdes.commands(config).deserializer();
        Deserializer<Command> lenient = (topic, data) -> {
            try {
                return strict.deserialize(topic, data);
            } catch (SerializationException e) {
                return null;
            }
        };
        LogReader<Command> reader = new LogReader<>(config, config.topics().commands(), lenient);
        Map<String, Command> found = new HashMap<>();
        LogReader.Handler<Command> handler = r -> {
            Command c = r.value();
            if (c != null && wanted.containsKey(c.getEnvelope().getRequestId())) {
                found.put(c.getEnvelope().getRequestId(), c);
            }
            return true;
        };
        if (q.since() == null) {
            reader.readAll(handler);
        } else {
            reader.readFrom(q.since().minus(SLACK).toEpochMilli(), handler);
        }
        for (int i = 0; i < entries.size(); i++) {
            AuditEntry e = entries.get(i);
            Command c = found.get(e.requestId());
            if (c != null) {
                String verb = c.getVerb().name().toLowerCase(Locale.ROOT).replace('_', '-');
                entries.set(i, new AuditEntry(e.time(), e.actor(), e.requestId(), e.causationId(), verb, e.kind(),
                        e.namespace(), e.name(), e.accepted(), e.code(), e.reason(), e.message(), e.changeType(),
                        e.resourceVersion(), c, e.before(), e.after()));
            }
        }
    }

    public static String verbOf(ChangeType type) {
        return switch (type) {
            case CREATED -> "create";
            case UPDATED -> "update";
            case STATUS_UPDATED -> "update-status";
            case BOUND -> "bind";
            case DELETION_STARTED, DELETED -> "delete";
            default -> "unknown";
        };
    }
}
