package io.eventplane.gateway.api;

import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.select.FieldSelector;
import io.eventplane.gateway.select.LabelSelector;
import io.eventplane.gateway.select.Selection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP request as the API sees it, independent of the HTTP server.
 *
 * @param method  upper-case HTTP method
 * @param path    the raw (still percent-encoded) path
 * @param query   decoded query parameters
 * @param headers headers by lower-case name
 * @param body    the request body, empty when none
 * @param user    who the request is from, as authentication established it (the impersonated user when
 *                impersonating): what the log records as the actor and what authorization decides on
 * @param realUser the user who really sent it when {@code user} is impersonated, else null
 */
public record ApiRequest(String method, String path, Map<String, List<String>> query,
                         Map<String, List<String>> headers, byte[] body, UserInfo user, UserInfo realUser) {

    public ApiRequest {
        body = body == null ? new byte[0] : body;
        user = user == null ? UserInfo.anonymous() : user;
    }

    /** A request not (yet) authenticated: {@code system:anonymous}. */
    public ApiRequest(String method, String path, Map<String, List<String>> query, Map<String, List<String>> headers,
                      byte[] body) {
        this(method, path, query, headers, body, null, null);
    }

    public ApiRequest withUser(UserInfo user, UserInfo realUser) {
        return new ApiRequest(method, path, query, headers, body, user, realUser);
    }

    /** The first value of a query parameter, or null. */
    public String param(String name) {
        List<String> v = query.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    public String param(String name, String fallback) {
        String v = param(name);
        return v == null || v.isEmpty() ? fallback : v;
    }

    /** A boolean query parameter as Kubernetes reads it: {@code true}, {@code 1}. */
    public boolean flag(String name) {
        String v = param(name);
        return v != null && (v.equalsIgnoreCase("true") || v.equals("1"));
    }

    public String header(String name) {
        List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    /** All values of a header, comma-joined (Accept may come split over several lines). */
    public String headerJoined(String name) {
        List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
        return v == null || v.isEmpty() ? null : String.join(",", v);
    }

    /** The media type of the body without parameters, lower case, or null. */
    public String contentType() {
        String ct = header("content-type");
        if (ct == null || ct.isBlank()) {
            return null;
        }
        int semi = ct.indexOf(';');
        return (semi < 0 ? ct : ct.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
    }

    /** The objects a list, watch or collection delete at {@code path} is about: its labelSelector and fieldSelector. */
    public Selection selection(ResourcePath path) {
        LabelSelector labels = LabelSelector.parse(param("labelSelector"));
        FieldSelector fields = FieldSelector.parse(param("fieldSelector"), path.kind());
        return new Selection(path.kind(), path.kind().namespaced() ? path.namespace() : null, labels, fields);
    }

    /**
     * Where the HTTP layer moves the {@code Upgrade} header of WebSocket upgrades it does not serve as WebSockets
     * (watches), so that Micronaut's WebSocket handling leaves them to us.
     */
    public static final String MOVED_UPGRADE = "x-eventplane-upgrade";

    public boolean isWebSocketUpgrade() {
        String upgrade = header("upgrade");
        if (upgrade == null) {
            upgrade = header(MOVED_UPGRADE);
        }
        return upgrade != null && upgrade.toLowerCase(Locale.ROOT).contains("websocket");
    }

    /**
     * The product token of the User-Agent ({@code kubectl}, {@code fabric8-kubernetes-client}): the default field
     * manager, as kube-apiserver takes it. Never who is asking: that is {@link #user()}.
     */
    public String userAgentProduct() {
        String ua = header("user-agent");
        if (ua == null || ua.isBlank()) {
            return "anonymous";
        }
        String first = ua.trim().split("[\\s/]", 2)[0];
        if (first.startsWith("kubectl")) {
            return "kubectl";
        }
        return first.isEmpty() ? "anonymous" : first;
    }
}
