package io.eventplane.core.cel;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;
import java.util.function.Function;

/**
 * Kubernetes' URL library ({@code kubernetes.urls}): {@code url()}, {@code isURL()} and the URL's
 * {@code getScheme/getHost/getHostname/getPort/getEscapedPath/getQuery}.
 */
final class UrlsLibrary extends KubernetesLibrary {
    /** Kubernetes' name for the type (apiservercel.URLType). */
    static final OpaqueType URL = OpaqueType.create("kubernetes.URL");

    @Override
    List<CelFunctionDecl> functions() {
        return List.of(
                newFunctionDeclaration("url", newGlobalOverload("string_to_url", URL, SimpleType.STRING)),
                newFunctionDeclaration("isURL", newGlobalOverload("is_url_string", SimpleType.BOOL, SimpleType.STRING)),
                getter("getScheme", "url_get_scheme", SimpleType.STRING),
                getter("getHost", "url_get_host", SimpleType.STRING),
                getter("getHostname", "url_get_hostname", SimpleType.STRING),
                getter("getPort", "url_get_port", SimpleType.STRING),
                getter("getEscapedPath", "url_get_escaped_path", SimpleType.STRING),
                getter("getQuery", "url_get_query",
                        MapType.create(SimpleType.STRING, ListType.create(SimpleType.STRING))));
    }

    private static CelFunctionDecl getter(String name, String overload, dev.cel.common.types.CelType result) {
        return newFunctionDeclaration(name, newMemberOverload(overload, result, URL));
    }

    @Override
    List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_url", String.class, UrlsLibrary::url),
                CelFunctionBinding.from("is_url_string", String.class, RequestUrl::isValid),
                get("url_get_scheme", RequestUrl::scheme),
                get("url_get_host", RequestUrl::host),
                get("url_get_hostname", RequestUrl::hostname),
                get("url_get_port", RequestUrl::port),
                get("url_get_escaped_path", RequestUrl::escapedPath),
                get("url_get_query", u -> {
                    ImmutableMap.Builder<String, List<String>> out = ImmutableMap.builder();
                    u.query().forEach((k, v) -> out.put(k, ImmutableList.copyOf(v)));
                    return out.build();
                }));
    }

    private static CelFunctionBinding get(String overload, Function<RequestUrl, Object> getter) {
        return CelFunctionBinding.from(overload, RequestUrl.class, getter::apply);
    }

    private static Object url(String s) throws CelEvaluationException {
        try {
            return RequestUrl.parse(s);
        } catch (RequestUrl.Invalid e) {
            throw error("URL parse error during conversion from string: %s", e.getMessage());
        }
    }
}
