package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.admission.Admission;
import io.eventplane.gateway.auth.authn.ServiceAccountTokens;
import io.eventplane.gateway.auth.authz.Attributes;
import io.eventplane.gateway.auth.authz.Authorization;
import io.eventplane.gateway.discovery.Discovery;
import io.eventplane.gateway.discovery.OpenApi;
import io.eventplane.gateway.discovery.VersionInfo;
import io.eventplane.gateway.metrics.MetricsApi;
import io.eventplane.gateway.watch.WatchStreamer;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.Paths;
import io.eventplane.gateway.wire.Statuses;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every Kubernetes path, for every kind, without per-kind code: discovery and meta endpoints, then
 * {@code /api/v1/...} and {@code /apis/{group}/{version}/...} resolved through {@link ResourcePath} to the verb
 * handlers. Every failure leaves here as a {@code Status}, never as a stack trace.
 */
public final class ApiRouter {
    private static final Logger LOG = LoggerFactory.getLogger(ApiRouter.class);
    /** Outcomes that are ordinary answers, not problems worth a warning. */
    private static final Set<String> QUIET_REASONS = Set.of("NotFound", "AlreadyExists", "Conflict");
    private static final String RETRY_AFTER_SECONDS = "1";
    /**
     * How long a new pod waits for its namespace's default ServiceAccount (Kubernetes retries for about 2 s; a
     * controller on a shared log may take longer to see a namespace that was just created).
     */
    static final java.time.Duration SERVICE_ACCOUNT_WAIT = java.time.Duration.ofSeconds(5);

    private final ReadHandler reads;
    private final WriteHandler writes;
    private final DeleteHandler deletes;
    private final PatchHandler patches;
    private final WatchHandler watches;
    private final ScaleHandler scales;
    private final HistoryHandler history;
    private final EvictionHandler evictions;
    private final LogHandler logs;
    private final AuditHandler audit;
    private final MetricsApi metrics;
    private final Authorization authorization;
    private final AccessReviewHandler reviews;
    private final Readiness readiness;
    private final Supplier<String> serverAddress;
    private final InFlightLimit inFlight = InFlightLimit.fromEnvironment();

    private final TokenRequestHandler tokenRequests;

    public ApiRouter(Backend backend, Readiness readiness, Supplier<String> serverAddress) {
        this(backend, readiness, serverAddress, null);
    }

    /** As above, issuing ServiceAccount tokens ({@code serviceaccounts/<name>/token}) with {@code tokens}. */
    public ApiRouter(Backend backend, Readiness readiness, Supplier<String> serverAddress,
                     ServiceAccountTokens tokens) {
        this(backend, readiness, serverAddress, tokens, false);
    }

    /**
     * As above; {@code mountServiceAccountTokens}: new pods get the projected token volume (the gateway holds the
     * cluster's signing key, as in {@code eventplane up}).
     */
    public ApiRouter(Backend backend, Readiness readiness, Supplier<String> serverAddress,
                     ServiceAccountTokens tokens, boolean mountServiceAccountTokens) {
        this.tokenRequests = new TokenRequestHandler(backend, tokens);
        this.authorization = new Authorization(backend.view(), Authorization.enabledBySetting());
        backend.view().addListener(authorization::changed);
        Submitter submitter = new Submitter(backend, authorization);
        Admission admission = new Admission(backend.view(), backend.clock(), new QuotaStatusWriter(backend),
                SERVICE_ACCOUNT_WAIT, mountServiceAccountTokens);
        this.reads = new ReadHandler(backend);
        this.writes = new WriteHandler(backend, submitter, admission);
        this.deletes = new DeleteHandler(backend, submitter, admission);
        this.patches = new PatchHandler(backend, submitter, writes);
        this.scales = new ScaleHandler(backend, submitter);
        this.watches = new WatchHandler(reads, new WatchStreamer(backend.view(), backend.config().partitions(),
                backend.watchBuffer(), backend.clock()));
        this.history = new HistoryHandler(backend);
        this.evictions = new EvictionHandler(backend, submitter);
        this.logs = new LogHandler(backend);
        this.audit = new AuditHandler(backend);
        this.metrics = new MetricsApi(backend.view(), backend.usage(), backend.clock()::instant);
        this.reviews = new AccessReviewHandler(authorization);
        this.readiness = readiness;
        this.serverAddress = serverAddress;
    }

    /** The authorization every request passes (impersonation asks it too). */
    public Authorization authorization() {
        return authorization;
    }

    public ApiResponse handle(ApiRequest request) {
        java.util.Optional<Runnable> release = inFlight.acquire(request);
        if (release.isEmpty()) {
            LOG.debug("{} {} -> 429: more requests in flight than allowed", request.method(), request.path());
            return ApiResponse.status(InFlightLimit.tooManyRequests())
                    .withHeader("Retry-After", InFlightLimit.RETRY_AFTER_SECONDS);
        }
        try {
            return answer(request);
        } finally {
            release.get().run();
        }
    }

    private ApiResponse answer(ApiRequest request) {
        try {
            if (request.body().length > Statuses.MAX_BODY_BYTES) {
                throw new ApiException(Statuses.tooLarge(Statuses.MAX_BODY_BYTES));
            }
            return route(request);
        } catch (ApiException e) {
            KubeStatus s = e.status();
            if (s.code() >= 500) {
                LOG.warn("{} {} -> {} {}: {}", request.method(), request.path(), s.code(), s.reason(), s.message());
            } else if (QUIET_REASONS.contains(s.reason())) {
                LOG.debug("{} {} -> {} {}: {}", request.method(), request.path(), s.code(), s.reason(), s.message());
            } else {
                LOG.warn("{} {} -> {} {}: {}", request.method(), request.path(), s.code(), s.reason(), s.message());
            }
            ApiResponse answer = ApiResponse.status(s);
            // Unavailable or timed out (the log or the writer is away): tell clients when to try again.
            return s.code() == 503 || s.code() == 504 ? answer.withHeader("Retry-After", RETRY_AFTER_SECONDS) : answer;
        } catch (RuntimeException e) {
            LOG.warn("{} {} failed", request.method(), request.path(), e);
            return ApiResponse.status(Statuses.internal(e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage())));
        }
    }

    /**
     * Authorizes a request that does not go through {@link #handle} (the WebSocket upgrades of pods/exec, attach and
     * portforward): as Kubernetes 1.31+ does (AuthorizePodWebsocketUpgradeCreatePermission), an upgrade needs the
     * {@code create} verb on the subresource although it arrives as a GET.
     *
     * @throws ApiException Kubernetes' 403
     */
    public void authorizeStream(ApiRequest request) {
        authorization.check(Attributes.of(RequestUser.of(request), "POST", request.path(), request.query()));
    }

    private ApiResponse route(ApiRequest request) {
        // kube-apiserver authorizes before it routes: a refused request learns nothing of what exists
        authorization.check(Attributes.of(RequestUser.of(request), request.method(), request.path(), request.query()));
        List<String> segments = Paths.segments(request.path());
        if (segments.isEmpty()) {
            return get(request, this::rootPaths);
        }
        return switch (segments.get(0)) {
            case "healthz", "livez" -> get(request, () -> Health.live());
            case "readyz" -> get(request, () -> Health.ready(request, readiness));
            case "version" -> get(request, () -> ApiResponse.json(200, VersionInfo.json()));
            case "openapi" -> get(request, () -> openApi(segments));
            case "api" -> core(request, segments);
            case "apis" -> groups(request, segments);
            default -> throw new ApiException(Statuses.noSuchResource());
        };
    }

    private ApiResponse core(ApiRequest request, List<String> segments) {
        if (segments.size() == 1) {
            return get(request, () -> MediaTypes.wantsAggregatedDiscovery(request.headerJoined("accept"))
                    ? ApiResponse.json(200, Discovery.aggregated(true), MediaTypes.AGGREGATED_DISCOVERY)
                    : ApiResponse.json(200, Discovery.apiVersions(serverAddress.get())));
        }
        if (!segments.get(1).equals("v1")) {
            throw new ApiException(Statuses.noSuchResource());
        }
        if (segments.size() == 2) {
            return get(request, () -> ApiResponse.json(200, Discovery.resourceList("", "v1")));
        }
        return resource(request, "", "v1", segments.subList(2, segments.size()));
    }

    private ApiResponse groups(ApiRequest request, List<String> segments) {
        if (segments.size() == 1) {
            return get(request, () -> MediaTypes.wantsAggregatedDiscovery(request.headerJoined("accept"))
                    ? ApiResponse.json(200, Discovery.aggregated(false), MediaTypes.AGGREGATED_DISCOVERY)
                    : ApiResponse.json(200, Discovery.groupList()));
        }
        String group = segments.get(1);
        if (group.equals("eventplane.io") && segments.size() > 3 && segments.get(2).equals("v1")
                && segments.get(3).equals("history")) {
            return get(request, () -> history.handle(segments.subList(4, segments.size())));
        }
        if (group.equals("eventplane.io") && segments.size() == 4 && segments.get(2).equals("v1")
                && segments.get(3).equals("audit")) {
            if (!request.method().equals("GET") && !request.method().equals("POST")) {
                throw new ApiException(Statuses.methodNotAllowed());
            }
            return audit.audit(request);
        }
        if (group.equals("eventplane.io") && segments.size() == 4 && segments.get(2).equals("v1")
                && segments.get(3).equals("digest")) {
            return get(request, audit::digest);
        }
        if (group.equals(MetricsApi.GROUP) && segments.size() > 3 && segments.get(2).equals(MetricsApi.VERSION)) {
            return get(request, () -> ApiResponse.json(200, metrics.get(segments.subList(3, segments.size()),
                    request.param("labelSelector"))));
        }
        if (AccessReviewHandler.serves(group) && segments.size() > 3 && segments.get(2).equals("v1")) {
            return reviews.handle(request, group, segments.subList(3, segments.size()));
        }
        if (!Discovery.groups().containsKey(group)) {
            throw new ApiException(Statuses.noSuchResource());
        }
        if (segments.size() == 2) {
            return get(request, () -> ApiResponse.json(200, Discovery.group(group, Discovery.groups().get(group))));
        }
        String version = segments.get(2);
        if (!Discovery.serves(group, version)) {
            throw new ApiException(Statuses.noSuchResource());
        }
        if (segments.size() == 3) {
            return get(request, () -> ApiResponse.json(200, Discovery.resourceList(group, version)));
        }
        return resource(request, group, version, segments.subList(3, segments.size()));
    }

    private ApiResponse resource(ApiRequest request, String group, String version, List<String> rest) {
        ResourcePath path = ResourcePath.parse(group, version, rest)
                .orElseThrow(() -> new ApiException(Statuses.noSuchResource()));
        boolean watch = path.watchPrefix() || request.flag("watch");
        String method = request.method().equals("HEAD") ? "GET" : request.method(); // the server drops HEAD bodies
        if (watch && method.equals("GET")) {
            if (path.subresource() != null) {
                throw new ApiException(Statuses.noSuchResource());
            }
            return watches.watch(request, path);
        }
        if (path.isCollection()) {
            return switch (method) {
                case "GET" -> reads.list(request, path);
                case "POST" -> writes.create(request, path);
                case "DELETE" -> {
                    if (path.kind().namespaced() && path.namespace() == null) {
                        throw new ApiException(Statuses.methodNotAllowed());
                    }
                    yield deletes.deleteCollection(request, path);
                }
                default -> throw new ApiException(Statuses.methodNotAllowed());
            };
        }
        if (path.subresource() == null) {
            return switch (method) {
                case "GET" -> reads.get(request, path);
                case "PUT" -> writes.update(request, path, false);
                case "PATCH" -> patches.patch(request, path, false);
                case "DELETE" -> deletes.delete(request, path);
                default -> throw new ApiException(Statuses.methodNotAllowed());
            };
        }
        return switch (path.subresource()) {
            case "status" -> {
                if (!path.kind().hasStatus()) {
                    throw new ApiException(Statuses.noSuchResource());
                }
                yield switch (method) {
                    case "GET" -> reads.get(request, path);
                    case "PUT" -> writes.update(request, path, true);
                    case "PATCH" -> patches.patch(request, path, true);
                    default -> throw new ApiException(Statuses.methodNotAllowed());
                };
            }
            case "scale" -> {
                if (!ScaleHandler.scalable(path.kind())) {
                    throw new ApiException(Statuses.noSuchResource());
                }
                yield switch (method) {
                    case "GET" -> scales.get(path);
                    case "PUT" -> scales.put(request, path);
                    case "PATCH" -> scales.patch(request, path);
                    default -> throw new ApiException(Statuses.methodNotAllowed());
                };
            }
            case "finalize" -> {
                if (!method.equals("PUT")) {
                    throw new ApiException(Statuses.methodNotAllowed());
                }
                yield writes.finalize(request, path);
            }
            case "approval" -> {
                if (path.kind() != Kinds.CERTIFICATE_SIGNING_REQUEST) {
                    throw new ApiException(Statuses.noSuchResource());
                }
                yield switch (method) {
                    case "GET" -> reads.get(request, path);
                    case "PUT" -> writes.approval(request, path);
                    default -> throw new ApiException(Statuses.methodNotAllowed());
                };
            }
            case "binding" -> {
                if (!method.equals("POST")) {
                    throw new ApiException(Statuses.methodNotAllowed());
                }
                yield writes.bind(request, path);
            }
            case "eviction" -> {
                if (!method.equals("POST")) {
                    throw new ApiException(Statuses.methodNotAllowed());
                }
                yield evictions.evict(request, path);
            }
            case "token" -> {
                if (path.kind() != Kinds.SERVICE_ACCOUNT) {
                    throw new ApiException(Statuses.noSuchResource());
                }
                if (!method.equals("POST")) {
                    throw new ApiException(Statuses.methodNotAllowed());
                }
                yield tokenRequests.create(request, path);
            }
            case "log" -> {
                if (path.kind() != Kinds.POD) {
                    throw new ApiException(Statuses.noSuchResource());
                }
                if (!method.equals("GET")) {
                    throw new ApiException(Statuses.methodNotAllowed());
                }
                yield logs.log(request, path);
            }
            case "ephemeralcontainers" -> {
                if (path.kind() != Kinds.POD) {
                    throw new ApiException(Statuses.noSuchResource());
                }
                yield switch (method) {
                    case "GET" -> reads.get(request, path);
                    case "PUT" -> writes.update(request, path, false);
                    case "PATCH" -> patches.patch(request, path, false);
                    default -> throw new ApiException(Statuses.methodNotAllowed());
                };
            }
            case "exec", "attach", "portforward" -> {
                if (path.kind() != Kinds.POD) {
                    throw new ApiException(Statuses.noSuchResource());
                }
                if (!method.equals("GET") && !method.equals("POST")) {
                    throw new ApiException(Statuses.methodNotAllowed());
                }
                reads.get(request, path); // 404 for a missing pod, as kube-apiserver answers first
                // The streams themselves are WebSocket upgrades (http.PodStreamSocket); a plain request gets this.
                throw new ApiException(Statuses.badRequest("Upgrade request required"));
            }
            default -> throw new ApiException(Statuses.noSuchResource());
        };
    }

    private ApiResponse openApi(List<String> segments) {
        if (segments.size() >= 2 && segments.get(1).equals("v3")) {
            if (segments.size() == 2) {
                return ApiResponse.json(200, OpenApi.index());
            }
            Optional<ObjectNode> doc = OpenApi.forPath(String.join("/", segments.subList(2, segments.size())));
            return ApiResponse.json(200, doc.orElseThrow(() -> new ApiException(Statuses.noSuchResource())));
        }
        throw new ApiException(Statuses.noSuchResource()); // no /openapi/v2: kubectl tolerates its absence
    }

    private ApiResponse rootPaths() {
        ObjectNode n = Json.object();
        var paths = n.putArray("paths");
        for (String p : List.of("/api", "/api/v1", "/apis", "/healthz", "/livez", "/openapi/v3", "/readyz", "/version")) {
            paths.add(p);
        }
        Discovery.groups().forEach((g, vs) -> {
            paths.add("/apis/" + g);
            vs.forEach(v -> paths.add("/apis/" + g + "/" + v));
        });
        return ApiResponse.json(200, n);
    }

    private static ApiResponse get(ApiRequest request, Supplier<ApiResponse> answer) {
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            throw new ApiException(Statuses.methodNotAllowed());
        }
        return answer.get();
    }
}
