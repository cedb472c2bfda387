package io.eventplane.gateway.http;

import io.eventplane.gateway.api.ApiRequest;
import io.eventplane.gateway.api.ApiResponse;
import io.eventplane.gateway.auth.authn.Authentication;
import io.eventplane.gateway.console.ConsoleRouter;
import io.eventplane.gateway.wire.ApiException;
import java.security.cert.X509Certificate;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Map.Entry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one controller: every path and method goes to the {@link io.eventplane.gateway.api.ApiRouter} as raw bytes
 * ({@code /ui} and below to the web console's {@link ConsoleRouter}),
 * and its answer goes back with an explicit Content-Type (Micronaut would otherwise echo Accept parameters, pitfall 6)
 * and with our own bytes (Kubernetes objects never pass through Micronaut serialisation, pitfall 9). Runs on the
 * blocking executor: writes wait for the writer's verdict.
 */
@Controller
@ExecuteOn(TaskExecutors.BLOCKING)
public class ApiController {
    private static final Logger LOG = LoggerFactory.getLogger(ApiController.class);
    private final GatewayRuntime runtime;

    @Inject
    public ApiController(GatewayRuntime runtime) {
        this.runtime = runtime;
    }

    @Get(uris = {"/", "/{+path}"}, produces = MediaType.ALL, consumes = MediaType.ALL)
    public HttpResponse<?> get(HttpRequest<?> request, @Nullable @PathVariable String path) {
        return serve(request, null);
    }

    @Post(uris = {"/", "/{+path}"}, produces = MediaType.ALL, consumes = MediaType.ALL)
    public HttpResponse<?> post(HttpRequest<?> request, @Nullable @PathVariable String path,
                                @Nullable @Body byte[] body) {
        return serve(request, body);
    }

    @Put(uris = {"/", "/{+path}"}, produces = MediaType.ALL, consumes = MediaType.ALL)
    public HttpResponse<?> put(HttpRequest<?> request, @Nullable @PathVariable String path,
                               @Nullable @Body byte[] body) {
        return serve(request, body);
    }

    @Patch(uris = {"/", "/{+path}"}, produces = MediaType.ALL, consumes = MediaType.ALL)
    public HttpResponse<?> patch(HttpRequest<?> request, @Nullable @PathVariable String path,
                                 @Nullable @Body byte[] body) {
        return serve(request, body);
    }

    @Delete(uris = {"/", "/{+path}"}, produces = MediaType.ALL, consumes = MediaType.ALL)
    public HttpResponse<?> delete(HttpRequest<?> request, @Nullable @PathVariable String path,
                                  @Nullable @Body byte[] body) {
        return serve(request, body);
    }

    private HttpResponse<?> serve(HttpRequest<?> request, byte[] body) {
        long started = System.nanoTime();
        ApiRequest apiRequest = toApiRequest(request, body);
        ApiResponse answer;
        if (ConsoleRouter.owns(apiRequest.path())) {
            answer = console(request, apiRequest);
        } else if (PUBLIC_INFO.contains(firstSegment(apiRequest.path()))) {
            answer = runtime.router().handle(apiRequest);
        } else {
            answer = authenticated(request, ConsoleLogin.withCookieToken(apiRequest));
        }
        MutableHttpResponse<Object> response = toHttp(answer);
        if (LOG.isDebugEnabled()) {
            LOG.debug("{} {} {} {}ms{}", request.getMethodName(), request.getUri(), answer.status(),
                    (System.nanoTime() - started) / 1_000_000, answer.stream() != null ? " (watch streaming)" : "");
        }
        return response;
    }

    /** The HTTP response carrying {@code answer}: status, headers, body (a watch is written raw). */
    static MutableHttpResponse<Object> toHttp(ApiResponse answer) {
        MutableHttpResponse<Object> response = HttpResponse.status(HttpStatus.valueOf(answer.status()));
        for (Entry<String, String> h : answer.headers()) {
            response.getHeaders().add(h.getKey(), h.getValue());
        }
        if (!response.getHeaders().contains(HttpHeaders.CACHE_CONTROL)) {
            response.getHeaders().set(HttpHeaders.CACHE_CONTROL, "no-cache, private");
        }
        if (answer.stream() != null) {
            response.body(new WatchBody(answer.stream())); // written raw by WatchResponseFilter's writer
        } else {
            response.body(answer.body());
        }
        response.contentType(answer.contentType());
        return response;
    }

    /**
     * Health and version, served without credentials as kube-apiserver's {@code system:public-info-viewer} role
     * serves them to everyone (probes and scripts poll {@code /readyz} before they have a kubeconfig).
     */
    private static final java.util.Set<String> PUBLIC_INFO = java.util.Set.of("healthz", "livez", "readyz", "version");

    private ApiResponse authenticated(HttpRequest<?> request, ApiRequest apiRequest) {
        try {
            return runtime.router().handle(identified(runtime, request, apiRequest));
        } catch (ApiException e) {
            return ApiResponse.status(e.status());
        }
    }

    /**
     * The web console, for authenticated users only (its views check RBAC themselves): a browser without credentials
     * gets the login form ({@link ConsoleLogin}).
     */
    private ApiResponse console(HttpRequest<?> request, ApiRequest apiRequest) {
        if (ConsoleLogin.owns(apiRequest.path())) {
            return ConsoleLogin.handle(runtime.authentication(), apiRequest, request.isSecure());
        }
        ApiRequest identified;
        try {
            identified = identified(runtime, request, ConsoleLogin.withCookieToken(apiRequest));
        } catch (ApiException e) {
            return e.status().code() == 401 && ConsoleLogin.isPage(apiRequest.path()) ? ConsoleLogin.page(401, null)
                    : ApiResponse.status(e.status());
        }
        return runtime.console().handle(identified);
    }

    /**
     * The request as from the user its credentials (and impersonation headers) name.
     *
     * @throws ApiException 401, or 403 for a refused impersonation
     */
    static ApiRequest identified(GatewayRuntime runtime, HttpRequest<?> request, ApiRequest apiRequest) {
        X509Certificate[] chain = request.getCertificate()
                .filter(X509Certificate.class::isInstance)
                .map(c -> new X509Certificate[] {(X509Certificate) c})
                .orElse(null);
        Authentication.Identity who = runtime.authentication().authenticate(apiRequest.header("authorization"),
                chain, apiRequest.headers());
        return apiRequest.withUser(who.user(), who.impersonated() ? who.realUser() : null);
    }

    private static String firstSegment(String path) {
        int start = path.startsWith("/") ? 1 : 0;
        int end = path.indexOf('/', start);
        return end < 0 ? path.substring(start) : path.substring(start, end);
    }

    static ApiRequest toApiRequest(HttpRequest<?> request, byte[] body) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        for (String name : request.getParameters().names()) {
            query.put(name, new ArrayList<>(request.getParameters().getAll(name)));
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (String name : request.getHeaders().names()) {
            headers.computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new ArrayList<>())
                    .addAll(request.getHeaders().getAll(name));
        }
        String path = request.getUri().getRawPath();
        return new ApiRequest(request.getMethodName().toUpperCase(Locale.ROOT), path == null ? "/" : path, query,
                headers, body);
    }
}
