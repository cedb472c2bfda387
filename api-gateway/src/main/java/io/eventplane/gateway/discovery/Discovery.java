package io.eventplane.gateway.discovery;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.gateway.wire.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Discovery documents, all derived from {@link Kinds} and {@link CustomKinds}: {@code /api} (APIVersions), {@code /apis} (APIGroupList),
 * {@code /apis/{group}} (APIGroup), {@code /api/v1} and {@code /apis/{g}/{v}} (APIResourceList), and the aggregated
 * form (apidiscovery.k8s.io/v2 APIGroupDiscoveryList) that lets kubectl discover everything in two requests.
 */
public final class Discovery {
    private static final List<String> VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
            "update", "watch");
    private static final List<String> STATUS_VERBS = List.of("get", "patch", "update");

    /** Kinds with the scale subresource (autoscaling/v1 Scale). */
    private static final Set<KindInfo> SCALABLE = Set.of(Kinds.DEPLOYMENT, Kinds.REPLICA_SET, Kinds.STATEFUL_SET,
            Kinds.REPLICATION_CONTROLLER);
    /** The {@code all} category of kubectl get all. */
    private static final Set<KindInfo> ALL = Set.of(Kinds.POD, Kinds.SERVICE, Kinds.DEPLOYMENT, Kinds.REPLICA_SET,
            Kinds.STATEFUL_SET, Kinds.DAEMON_SET, Kinds.JOB, Kinds.CRON_JOB, Kinds.REPLICATION_CONTROLLER);

    /**
     * A subresource as discovery lists it: {@code pods/status}, {@code pods/binding}, {@code deployments/scale}.
     * {@code group} and {@code version} are those of the subresource's kind when it is not the resource's own.
     */
    private record Subresource(String name, String group, String version, String kind, List<String> verbs) {
    }

    /**
     * A resource served by a handler of its own rather than from the log (metrics.k8s.io's NodeMetrics and PodMetrics,
     * which metrics-server serves as an aggregated API): listed in discovery like the stored kinds.
     */
    public record ExtraResource(String group, String version, String plural, String singular, String kind,
                                boolean namespaced, List<String> verbs) {
    }

    /** metrics.k8s.io/v1beta1, served from the kubelets' usage samples (gateway/metrics), and the review APIs. */
    public static final List<ExtraResource> EXTRA = List.of(
            new ExtraResource("metrics.k8s.io", "v1beta1", "nodes", "", "NodeMetrics", false, List.of("get", "list")),
            new ExtraResource("metrics.k8s.io", "v1beta1", "pods", "", "PodMetrics", true, List.of("get", "list")),
            // the review APIs: answered by the authorizer, never stored (api.AccessReviewHandler)
            new ExtraResource("authorization.k8s.io", "v1", "selfsubjectaccessreviews", "", "SelfSubjectAccessReview",
                    false, List.of("create")),
            new ExtraResource("authorization.k8s.io", "v1", "selfsubjectrulesreviews", "", "SelfSubjectRulesReview",
                    false, List.of("create")),
            new ExtraResource("authorization.k8s.io", "v1", "subjectaccessreviews", "", "SubjectAccessReview", false,
                    List.of("create")),
            new ExtraResource("authorization.k8s.io", "v1", "localsubjectaccessreviews", "", "LocalSubjectAccessReview",
                    true, List.of("create")),
            new ExtraResource("authentication.k8s.io", "v1", "selfsubjectreviews", "", "SelfSubjectReview", false,
                    List.of("create")));

    private Discovery() {
    }

    /** The compiled kinds, then those CustomResourceDefinitions define (while they are Established). */
    public static List<KindInfo> servedKinds() {
        List<CustomKinds.CustomKind> custom = CustomKinds.served();
        if (custom.isEmpty()) {
            return Kinds.served();
        }
        List<KindInfo> out = new ArrayList<>(Kinds.served());
        custom.forEach(c -> out.add(c.info()));
        return out;
    }

    private static Optional<CustomKinds.CustomKind> custom(KindInfo k) {
        return k.type() == CustomObject.class ? CustomKinds.byResource(k.group(), k.version(), k.plural())
                : Optional.empty();
    }

    private static List<Subresource> subresources(KindInfo k) {
        List<Subresource> out = new ArrayList<>();
        if (custom(k).map(CustomKinds.CustomKind::scalable).orElse(false)) {
            out.add(new Subresource("scale", "autoscaling", "v1", "Scale", STATUS_VERBS));
        }
        if (k == Kinds.POD) {
            out.add(new Subresource("attach", null, null, "PodAttachOptions", List.of("create", "get")));
            out.add(new Subresource("binding", null, null, "Binding", List.of("create")));
            out.add(new Subresource("ephemeralcontainers", null, null, "Pod", List.of("get", "patch", "update")));
            out.add(new Subresource("eviction", "policy", "v1", "Eviction", List.of("create")));
            out.add(new Subresource("exec", null, null, "PodExecOptions", List.of("create", "get")));
            out.add(new Subresource("log", null, null, "Pod", List.of("get")));
            out.add(new Subresource("portforward", null, null, "PodPortForwardOptions", List.of("create", "get")));
        }
        if (k == Kinds.CERTIFICATE_SIGNING_REQUEST) {
            out.add(new Subresource("approval", null, null, k.objectKind(), STATUS_VERBS));
        }
        if (k == Kinds.SERVICE_ACCOUNT) {
            out.add(new Subresource("token", "authentication.k8s.io", "v1", "TokenRequest", List.of("create")));
        }
        if (SCALABLE.contains(k)) {
            out.add(new Subresource("scale", "autoscaling", "v1", "Scale", STATUS_VERBS));
        }
        if (k.hasStatus()) {
            out.add(new Subresource("status", null, null, k.objectKind(), STATUS_VERBS));
        }
        return out;
    }

    private static List<String> categories(KindInfo k) {
        Optional<CustomKinds.CustomKind> custom = custom(k);
        if (custom.isPresent()) {
            return custom.get().categories();
        }
        return ALL.contains(k) ? List.of("all") : List.of();
    }

    /** The served groups (non-core) and their versions, in registry order. */
    public static Map<String, Set<String>> groups() {
        Map<String, Set<String>> groups = new LinkedHashMap<>();
        for (KindInfo k : servedKinds()) {
            if (!k.group().isEmpty()) {
                groups.computeIfAbsent(k.group(), g -> new LinkedHashSet<>()).add(k.version());
            }
        }
        for (ExtraResource r : EXTRA) {
            groups.computeIfAbsent(r.group(), g -> new LinkedHashSet<>()).add(r.version());
        }
        return groups;
    }

    public static boolean serves(String group, String version) {
        return servedKinds().stream().anyMatch(k -> k.group().equals(group) && k.version().equals(version))
                || EXTRA.stream().anyMatch(r -> r.group().equals(group) && r.version().equals(version));
    }

    public static ObjectNode apiVersions(String serverAddress) {
        ObjectNode n = Json.object();
        n.put("kind", "APIVersions");
        n.putArray("versions").add("v1");
        ObjectNode cidr = n.putArray("serverAddressByClientCIDRs").addObject();
        cidr.put("clientCIDR", "0.0.0.0/0");
        cidr.put("serverAddress", serverAddress);
        return n;
    }

    public static ObjectNode groupList() {
        ObjectNode n = Json.object();
        n.put("kind", "APIGroupList");
        n.put("apiVersion", "v1");
        ArrayNode groups = n.putArray("groups");
        groups().forEach((g, versions) -> groups.add(group(g, versions)));
        return n;
    }

    public static ObjectNode group(String name, Set<String> versions) {
        ObjectNode g = Json.object();
        g.put("kind", "APIGroup");
        g.put("apiVersion", "v1");
        g.put("name", name);
        ArrayNode vs = g.putArray("versions");
        for (String v : versions) {
            vs.addObject().put("groupVersion", name + "/" + v).put("version", v);
        }
        String preferred = versions.iterator().next();
        g.putObject("preferredVersion").put("groupVersion", name + "/" + preferred).put("version", preferred);
        return g;
    }

    public static ObjectNode resourceList(String group, String version) {
        ObjectNode n = Json.object();
        n.put("kind", "APIResourceList");
        n.put("apiVersion", "v1");
        n.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
        ArrayNode resources = n.putArray("resources");
        for (KindInfo k : servedKinds()) {
            if (!k.group().equals(group) || !k.version().equals(version)) {
                continue;
            }
            ObjectNode r = resources.addObject();
            r.put("name", k.plural());
            r.put("singularName", k.singular());
            r.put("namespaced", k.namespaced());
            r.put("kind", k.objectKind());
            strings(r.putArray("verbs"), VERBS);
            if (!k.shortNames().isEmpty()) {
                strings(r.putArray("shortNames"), k.shortNames());
            }
            if (!categories(k).isEmpty()) {
                strings(r.putArray("categories"), categories(k));
            }
            for (Subresource s : subresources(k)) {
                ObjectNode sr = resources.addObject();
                sr.put("name", k.plural() + "/" + s.name());
                sr.put("singularName", "");
                sr.put("namespaced", k.namespaced());
                if (s.group() != null) {
                    sr.put("group", s.group());
                    sr.put("version", s.version());
                }
                sr.put("kind", s.kind());
                strings(sr.putArray("verbs"), s.verbs());
            }
        }
        for (ExtraResource x : EXTRA) {
            if (x.group().equals(group) && x.version().equals(version)) {
                ObjectNode r = resources.addObject();
                r.put("name", x.plural());
                r.put("singularName", x.singular());
                r.put("namespaced", x.namespaced());
                r.put("kind", x.kind());
                strings(r.putArray("verbs"), x.verbs());
            }
        }
        return n;
    }

    /** apidiscovery.k8s.io/v2 for {@code /api} (core == true) or {@code /apis}. */
    public static ObjectNode aggregated(boolean core) {
        ObjectNode n = Json.object();
        n.put("kind", "APIGroupDiscoveryList");
        n.put("apiVersion", "apidiscovery.k8s.io/v2");
        n.putObject("metadata");
        ArrayNode items = n.putArray("items");
        if (core) {
            ObjectNode item = items.addObject();
            item.putObject("metadata").putNull("creationTimestamp");
            item.putArray("versions").add(aggregatedVersion("", "v1"));
        } else {
            groups().forEach((g, versions) -> {
                ObjectNode item = items.addObject();
                item.putObject("metadata").put("name", g).putNull("creationTimestamp");
                ArrayNode vs = item.putArray("versions");
                versions.forEach(v -> vs.add(aggregatedVersion(g, v)));
            });
        }
        return n;
    }

    private static ObjectNode aggregatedVersion(String group, String version) {
        ObjectNode v = Json.object();
        v.put("version", version);
        ArrayNode resources = v.putArray("resources");
        for (KindInfo k : servedKinds()) {
            if (!k.group().equals(group) || !k.version().equals(version)) {
                continue;
            }
            ObjectNode r = resources.addObject();
            r.put("resource", k.plural());
            responseKind(r.putObject("responseKind"), k, k.objectKind());
            r.put("scope", k.namespaced() ? "Namespaced" : "Cluster");
            r.put("singularResource", k.singular());
            strings(r.putArray("verbs"), VERBS);
            if (!k.shortNames().isEmpty()) {
                strings(r.putArray("shortNames"), k.shortNames());
            }
            if (!categories(k).isEmpty()) {
                strings(r.putArray("categories"), categories(k));
            }
            List<Subresource> subs = subresources(k);
            if (!subs.isEmpty()) {
                ArrayNode sa = r.putArray("subresources");
                for (Subresource s : subs) {
                    ObjectNode so = sa.addObject();
                    so.put("subresource", s.name());
                    ObjectNode rk = so.putObject("responseKind");
                    if (s.group() != null) {
                        rk.put("group", s.group()).put("version", s.version()).put("kind", s.kind());
                    } else {
                        responseKind(rk, k, s.kind());
                    }
                    strings(so.putArray("verbs"), s.verbs());
                }
            }
        }
        for (ExtraResource x : EXTRA) {
            if (x.group().equals(group) && x.version().equals(version)) {
                ObjectNode r = resources.addObject();
                r.put("resource", x.plural());
                r.putObject("responseKind").put("group", x.group()).put("version", x.version()).put("kind", x.kind());
                r.put("scope", x.namespaced() ? "Namespaced" : "Cluster");
                r.put("singularResource", x.singular());
                strings(r.putArray("verbs"), x.verbs());
            }
        }
        v.put("freshness", "Current");
        return v;
    }

    private static void responseKind(ObjectNode n, KindInfo k, String kind) {
        n.put("group", k.group());
        n.put("version", k.version());
        n.put("kind", kind);
    }

    private static void strings(ArrayNode a, List<String> values) {
        values.forEach(a::add);
    }
}
