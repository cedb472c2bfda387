package io.eventplane.gateway.auth.authz;

import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.wire.Paths;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a request asks to do, as kube-apiserver's RequestInfoFactory reads it from the URL and method: a resource
 * request ({@code get pods "x" in the namespace "ns"}, {@code list}, {@code watch}, {@code deletecollection}, a
 * subresource) or a non-resource one ({@code get} on {@code /healthz}, {@code /api}, {@code /apis/apps/v1}).
 *
 * @param verb        the RBAC verb: get, list, watch, create, update, patch, delete, deletecollection for resources;
 *                    the lower-case HTTP method for non-resource paths
 * @param path        the request path (what non-resource rules match)
 * @param namespace   empty for cluster-scoped requests and requests across namespaces
 * @param name        empty for collections
 */
public record Attributes(UserInfo user, String verb, boolean resourceRequest, String path, String apiGroup,
                         String apiVersion, String resource, String subresource, String namespace, String name) {

    public Attributes {
        verb = nz(verb);
        path = nz(path);
        apiGroup = nz(apiGroup);
        apiVersion = nz(apiVersion);
        resource = nz(resource);
        subresource = nz(subresource);
        namespace = nz(namespace);
        name = nz(name);
    }

    public static Attributes resource(UserInfo user, String verb, String group, String resource, String subresource,
                                      String namespace, String name) {
        return new Attributes(user, verb, true, "", group, "", resource, subresource, namespace, name);
    }

    public static Attributes nonResource(UserInfo user, String verb, String path) {
        return new Attributes(user, verb, false, path, "", "", "", "", "", "");
    }

    /**
     * Parses a request as RequestInfoFactory does.
     *
     * @param rawPath the still percent-encoded path
     * @param query   decoded query parameters ({@code watch}, {@code fieldSelector} matter)
     */
    public static Attributes of(UserInfo user, String method, String rawPath, Map<String, List<String>> query) {
        String path = rawPath == null || rawPath.isEmpty() ? "/" : rawPath;
        List<String> parts = Paths.segments(path);
        String httpVerb = method.toLowerCase(Locale.ROOT);
        if (parts.size() < 3 || !(parts.get(0).equals("api") || parts.get(0).equals("apis"))) {
            return nonResource(user, httpVerb, path);
        }
        String group = "";
        List<String> rest = parts.subList(1, parts.size());
        if (parts.get(0).equals("apis")) {
            if (rest.size() < 3) {
                return nonResource(user, httpVerb, path);
            }
            group = rest.get(0);
            rest = rest.subList(1, rest.size());
        }
        String version = rest.get(0);
        rest = rest.subList(1, rest.size());
        String verb;
        if (rest.get(0).equals("watch")) {
            if (rest.size() < 2) {
                return nonResource(user, httpVerb, path);
            }
            verb = "watch";
            rest = rest.subList(1, rest.size());
        } else {
            verb = switch (method) {
                case "POST" -> "create";
                case "GET", "HEAD" -> "get";
                case "PUT" -> "update";
                case "PATCH" -> "patch";
                case "DELETE" -> "delete";
                default -> "";
            };
        }
        String namespace = "";
        if (rest.get(0).equals("namespaces") && rest.size() > 1) {
            namespace = rest.get(1);
            // namespaces/x/status and namespaces/x/finalize are the namespace's own subresources
            if (rest.size() > 2 && !rest.get(2).equals("status") && !rest.get(2).equals("finalize")) {
                rest = rest.subList(2, rest.size());
            }
        }
        String resource = rest.get(0);
        String name = rest.size() >= 2 ? rest.get(1) : "";
        String subresource = rest.size() >= 3 ? rest.get(2) : "";
        if (name.isEmpty() && verb.equals("get")) {
            verb = flag(query, "watch") ? "watch" : "list";
            String pinned = pinnedName(first(query, "fieldSelector"));
            if (pinned != null && !pinned.isEmpty() && !pinned.equals(".") && !pinned.equals("..")
                    && !pinned.contains("/") && !pinned.contains("%")) {
                name = pinned;
            }
        }
        if (name.isEmpty() && verb.equals("delete")) {
            verb = "deletecollection";
        }
        return new Attributes(user, verb, true, path, group, version, resource, subresource, namespace, name);
    }

    /** {@code metadata.name=x} in a field selector, as RequiresExactMatch finds it. */
    private static String pinnedName(String fieldSelector) {
        if (fieldSelector == null) {
            return null;
        }
        for (String term : fieldSelector.split(",")) {
            String t = term.trim();
            if (t.startsWith("metadata.name==")) {
                return t.substring("metadata.name==".length());
            }
            if (t.startsWith("metadata.name=")) {
                return t.substring("metadata.name=".length());
            }
        }
        return null;
    }

    private static String first(Map<String, List<String>> query, String name) {
        List<String> v = query == null ? null : query.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }

    private static boolean flag(Map<String, List<String>> query, String name) {
        String v = first(query, name);
        return v != null && (v.equalsIgnoreCase("true") || v.equals("1"));
    }

    /** The resource as rules name it: {@code pods} or {@code pods/log}. */
    public String combinedResource() {
        return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }

    /** The same question asked for another user (subject access reviews). */
    public Attributes withUser(UserInfo other) {
        return new Attributes(other, verb, resourceRequest, path, apiGroup, apiVersion, resource, subresource,
                namespace, name);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
