package io.eventplane.gateway.api;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import java.util.List;
import java.util.Optional;

/**
 * A resource URL taken apart: {@code /api/v1/namespaces/{ns}/pods/{name}/status}, {@code /api/v1/nodes},
 * {@code /apis/coordination.k8s.io/v1/namespaces/{ns}/leases}, and the old {@code /api/v1/watch/...} form.
 *
 * @param kind        the kind served at the path
 * @param namespace   the namespace, or null (cluster-scoped kind, or a namespaced kind across all namespaces)
 * @param name        the object name, or null for the collection
 * @param subresource {@code status}, {@code binding}... or null
 * @param watchPrefix whether the path used the {@code /watch/} prefix
 */
public record ResourcePath(KindInfo kind, String namespace, String name, String subresource, boolean watchPrefix) {

    /**
     * @param rest the decoded path segments after {@code /api/v1} or {@code /apis/{group}/{version}}
     */
    public static Optional<ResourcePath> parse(String group, String version, List<String> rest) {
        boolean watch = false;
        if (!rest.isEmpty() && rest.get(0).equals("watch")) {
            watch = true;
            rest = rest.subList(1, rest.size());
        }
        if (rest.isEmpty()) {
            return Optional.empty();
        }
        if (rest.get(0).equals("namespaces") && rest.size() >= 3) {
            Optional<KindInfo> namespaced = Kinds.byResource(group, version, rest.get(2)).filter(KindInfo::namespaced);
            if (namespaced.isPresent()) {
                if (rest.size() > 5 || rest.get(1).isEmpty()) {
                    return Optional.empty();
                }
                return Optional.of(new ResourcePath(namespaced.get(), rest.get(1), at(rest, 3), at(rest, 4), watch));
            }
        }
        Optional<KindInfo> kind = Kinds.byResource(group, version, rest.get(0));
        if (kind.isEmpty() || rest.size() > 3) {
            return Optional.empty();
        }
        if (kind.get().namespaced() && rest.size() > 1) {
            return Optional.empty(); // /api/v1/pods/x: a namespaced object needs its namespace
        }
        return Optional.of(new ResourcePath(kind.get(), null, at(rest, 1), at(rest, 2), watch));
    }

    private static String at(List<String> l, int i) {
        return i < l.size() && !l.get(i).isEmpty() ? l.get(i) : null;
    }

    public boolean isCollection() {
        return name == null;
    }

    /** The namespace to store with the object: empty for cluster-scoped kinds. */
    public String storedNamespace() {
        return kind.namespaced() ? namespace : "";
    }
}
