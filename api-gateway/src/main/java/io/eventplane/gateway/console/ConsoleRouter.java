package io.eventplane.gateway.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.log.AuditQuery;
import io.eventplane.client.log.LogReader;
import io.eventplane.core.Keys;
import io.eventplane.core.ResourceVersions;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.api.ApiRequest;
import io.eventplane.gateway.api.ApiResponse;
import io.eventplane.gateway.auth.authz.Authorization;
import io.eventplane.gateway.console.model.ClusterState;
import io.eventplane.gateway.console.model.LiveState;
import io.eventplane.gateway.console.model.ObjectRef;
import io.eventplane.gateway.console.model.PastStates;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.ObjectChanged;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web console under {@code /ui}: its files, and under {@code /ui/api/} the JSON its views read. Every view takes
 * {@code asOf} (an RFC 3339 time, an age such as {@code 15m}, or a resourceVersion) and then answers from the cluster
 * as it was; without it, from the live view. Requests come through the same HTTP controller as the Kubernetes API,
 * so whatever authenticates the API authenticates these; each view is authorized as the API reads it authorizes
 * ({@link ConsoleAccess}).
 */
public final class ConsoleRouter {
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleRouter.class);
    private final EventplaneConfig config;
    private final Clock clock;
    private final ConsoleAssets assets = new ConsoleAssets();
    private final ChangeFeed feed = new ChangeFeed();
    private final LiveState live;
    private final PastStates past;
    private final ChangeHistory history;
    private final LoadTestReports reports;
    private final ConsoleAccess access;
    private volatile Instant logStart;

    public ConsoleRouter(EventplaneConfig config, ObjectView view, Clock clock, Path loadTestReports) {
        this(config, view, clock, loadTestReports, null);
    }

    /** As above, each view shown only to users its reads are authorized for ({@link ConsoleAccess}). */
    public ConsoleRouter(EventplaneConfig config, ObjectView view, Clock clock, Path loadTestReports,
                         Authorization authorization) {
        this.access = new ConsoleAccess(authorization);
        this.config = config;
        this.clock = clock;
        this.live = new LiveState(view, clock, feed::changed);
        this.past = new PastStates(config, live::filledRows);
        this.history = new ChangeHistory(config);
        this.reports = new LoadTestReports(loadTestReports);
    }

    /** Whether {@code path} is the console's ({@code /ui} and below). */
    public static boolean owns(String path) {
        return path.equals("/ui") || path.startsWith("/ui/");
    }

    public ApiResponse handle(ApiRequest request) {
        try {
            if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
                throw new ApiException(Statuses.methodNotAllowed());
            }
            String path = request.path();
            if (path.equals("/ui")) {
                return new ApiResponse(302, "text/plain", new byte[0], new java.util.ArrayList<>(), null)
                        .withHeader("Location", "/ui/");
            }
            String rest = path.substring("/ui/".length());
            if (rest.startsWith("api/")) {
                List<String> parts = List.of(rest.substring("api/".length()).split("/"));
                access.check(request, parts);
                return api(request, parts);
            }
            if (rest.isEmpty() || rest.equals("index.html")) {
                live.start(); // build the rows while the browser loads the scripts
            }
            return assets.file(rest);
        } catch (ApiException e) {
            return ApiResponse.status(e.status());
        } catch (RuntimeException e) {
            LOG.warn("{} {} failed", request.method(), request.path(), e);
            return ApiResponse.status(Statuses.internal(e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage())));
        }
    }

    private ApiResponse api(ApiRequest request, List<String> parts) {
        String what = parts.get(0);
        return switch (what) {
            case "overview" -> json(overview(state(request)));
            case "nodes" -> json(ClusterQueries.nodes(state(request)));
            case "pods" -> json(ClusterQueries.pods(state(request), request));
            case "workloads" -> json(ClusterQueries.workloads(state(request), request));
            case "events" -> json(ClusterQueries.events(state(request), request));
            case "object" -> json(object(state(request), parts));
            case "history" -> json(history.timeline(kind(parts), namespace(kind(parts), parts), name(parts)));
            case "audit" -> json(history.audit(auditQuery(request)));
            case "changes" -> changes(request);
            case "loadtests" -> parts.size() == 1 ? json(reports.list()) : reports.report(parts.get(1))
                    .map(b -> new ApiResponse(200, ApiResponse.JSON, b, new java.util.ArrayList<>(), null))
                    .orElseThrow(() -> new ApiException(new KubeStatus(404, "NotFound",
                            "no load-test report named \"" + parts.get(1) + "\"", null)));
            default -> throw new ApiException(Statuses.noSuchResource());
        };
    }

    private ObjectNode overview(ClusterState state) {
        ObjectNode out = ClusterQueries.overview(state);
        out.put("now", clock.instant().toString());
        Instant start = logStart();
        if (start != null) {
            out.put("logStart", start.toString());
        }
        out.put("consoleBuilt", assets.built());
        return out;
    }

    /** One object with what links to it: its dependents and the events about it (its owners are in its metadata). */
    private ObjectNode object(ClusterState state, List<String> parts) {
        KindInfo kind = kind(parts);
        String key = Keys.of(kind.kind(), namespace(kind, parts), name(parts));
        ObjectNode out = ClusterQueries.header(state);
        // Where the browser watches this object through the Kubernetes API while it is live.
        out.put("watchPath", (kind.group().isEmpty() ? "/api/" + kind.version()
                : "/apis/" + kind.group() + "/" + kind.version())
                + (kind.namespaced() ? "/namespaces/" + namespace(kind, parts) : "") + "/" + kind.plural());
        Optional<ObjectChanged> found = state.object(key);
        out.put("exists", found.isPresent());
        if (found.isEmpty()) {
            return out;
        }
        ObjectChanged c = found.get();
        out.set("object", Json.encodeObject(kind, (SpecificRecord) c.getObject()));
        out.put("changedBy", c.getEnvelope().getActor());
        out.put("changedAt", c.getEnvelope().getTime().toString());
        ArrayNode dependents = out.putArray("dependents");
        for (ObjectRef r : state.rows().dependentsOf(c.getUid())) {
            dependents.addObject().put("kind", r.kind()).put("namespace", r.namespace()).put("name", r.name());
        }
        ArrayNode events = out.putArray("events");
        state.rows().eventsAbout(c.getUid()).stream().limit(200)
                .forEach(e -> ClusterQueries.event(events.addObject(), e));
        return out;
    }

    private ApiResponse changes(ApiRequest request) {
        live.start();
        String kinds = request.param("kinds");
        Set<String> wanted = kinds == null || kinds.isBlank() ? Set.of()
                : Arrays.stream(kinds.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toCollection(LinkedHashSet::new));
        return ApiResponse.watch(feed.open(wanted, live::resourceVersion));
    }

    /** The live cluster, or the cluster as of {@code asOf}. */
    private ClusterState state(ApiRequest request) {
        String asOf = ClusterQueries.blankToNull(request.param("asOf"));
        try {
            ClusterState current = live.ready(); // a past state shares the rows of objects unchanged since
            if (asOf == null) {
                return current;
            }
            if (asOf.matches("[0-9]+(\\.[0-9]+)*")) {
                long[] position;
                try {
                    position = ResourceVersions.decode(asOf, config.partitions());
                } catch (IllegalArgumentException e) {
                    throw new ApiException(Statuses.badRequest("asOf: " + e.getMessage()));
                }
                return past.atPosition(position);
            }
            Instant now = clock.instant();
            Instant moment;
            try {
                moment = ChangeHistory.moment(asOf, now);
            } catch (DateTimeParseException e) {
                throw new ApiException(Statuses.badRequest("asOf: \"" + asOf + "\" is neither an RFC 3339 time "
                        + "(such as 2026-11-21T10:00:00Z), an age (15m) nor a resourceVersion"));
            }
            if (moment.isAfter(now)) {
                throw new ApiException(Statuses.badRequest("asOf: " + asOf + " is in the future"));
            }
            return past.at(moment);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(Statuses.timeout());
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warn("console: cannot read the cluster as of {}: {}", asOf, e.toString());
            throw new ApiException(Statuses.serviceUnavailable("cannot rebuild the cluster as of " + asOf + ": "
                    + e.getMessage()));
        }
    }

    private AuditQuery auditQuery(ApiRequest request) {
        Instant now = clock.instant();
        try {
            String since = ClusterQueries.blankToNull(request.param("since"));
            String until = ClusterQueries.blankToNull(request.param("until"));
            String kind = ClusterQueries.blankToNull(request.param("kind"));
            return new AuditQuery(since == null ? null : ChangeHistory.moment(since, now),
                    until == null ? null : ChangeHistory.moment(until, now),
                    ClusterQueries.blankToNull(request.param("actor")), ClusterQueries.blankToNull(request.param("verb")),
                    kind == null ? null : Kinds.all().stream().filter(k -> k.kind().equalsIgnoreCase(kind)
                            || k.plural().equals(kind.toLowerCase(java.util.Locale.ROOT))).map(KindInfo::kind)
                            .findFirst().orElse(kind),
                    ClusterQueries.blankToNull(request.param("namespace")),
                    ClusterQueries.blankToNull(request.param("name")),
                    ClusterQueries.blankToNull(request.param("outcome")),
                    ClusterQueries.number(request.param("limit"), 1000, "limit"));
        } catch (DateTimeParseException e) {
            throw new ApiException(Statuses.badRequest("since/until: an RFC 3339 time or an age such as 15m"));
        } catch (IllegalArgumentException e) {
            throw new ApiException(Statuses.badRequest(e.getMessage()));
        }
    }

    private static KindInfo kind(List<String> parts) {
        if (parts.size() != 4) {
            throw new ApiException(Statuses.badRequest("expected /ui/api/" + parts.get(0)
                    + "/{Kind}/{namespace}/{name}, with _ as the namespace of cluster-scoped kinds"));
        }
        return Kinds.byKind(parts.get(1)).orElseThrow(() ->
                new ApiException(Statuses.badRequest("unknown kind \"" + parts.get(1) + "\"")));
    }

    private static String namespace(KindInfo kind, List<String> parts) {
        return kind.namespaced() ? parts.get(2) : "";
    }

    private static String name(List<String> parts) {
        return parts.get(3);
    }

    /** The time of the log's first change: the start of the time slider. */
    private Instant logStart() {
        if (logStart == null) {
            Instant[] first = {null};
            try {
                new LogReader<>(config, config.topics().events(), new ByteArrayDeserializer()).readAll(r -> {
                    Instant t = Instant.ofEpochMilli(r.timestamp());
                    if (first[0] == null || t.isBefore(first[0])) {
                        first[0] = t;
                    }
                    return false; // one record per partition is enough
                });
            } catch (RuntimeException e) {
                LOG.debug("console: cannot read the start of the log: {}", e.toString());
            }
            logStart = first[0];
        }
        return logStart;
    }

    private static ApiResponse json(ObjectNode body) {
        return ApiResponse.json(200, body);
    }
}
