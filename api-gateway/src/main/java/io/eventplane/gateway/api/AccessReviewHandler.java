package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.auth.authz.Attributes;
import io.eventplane.gateway.auth.authz.Authorization;
import io.eventplane.gateway.auth.authz.Decision;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.model.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The review APIs, answered from the authorizer and never stored: authorization.k8s.io/v1 SelfSubjectAccessReview
 * ({@code kubectl auth can-i}), SelfSubjectRulesReview ({@code can-i --list}), SubjectAccessReview and
 * LocalSubjectAccessReview (someone else's access, for whoever may create them), and authentication.k8s.io/v1
 * SelfSubjectReview ({@code kubectl auth whoami}). Bodies come as JSON or as Kubernetes protobuf.
 */
final class AccessReviewHandler {
    static final String AUTHORIZATION = "authorization.k8s.io";
    static final String AUTHENTICATION = "authentication.k8s.io";
    private static final Map<String, KindInfo> KINDS = new LinkedHashMap<>();

    static {
        for (KindInfo k : List.of(
                review("SelfSubjectAccessReview", AUTHORIZATION, "selfsubjectaccessreviews", false),
                review("SelfSubjectRulesReview", AUTHORIZATION, "selfsubjectrulesreviews", false),
                review("SubjectAccessReview", AUTHORIZATION, "subjectaccessreviews", false),
                review("LocalSubjectAccessReview", AUTHORIZATION, "localsubjectaccessreviews", true),
                review("SelfSubjectReview", AUTHENTICATION, "selfsubjectreviews", false))) {
            KINDS.put(k.group() + "/" + k.plural(), k);
        }
    }

    private final Authorization authorization;

    AccessReviewHandler(Authorization authorization) {
        this.authorization = authorization;
    }

    private static KindInfo review(String kind, String group, String plural, boolean namespaced) {
        return new KindInfo(kind, group, "v1", plural, kind.toLowerCase(java.util.Locale.ROOT), List.of(), namespaced,
                false, null);
    }

    /** The review kinds, for discovery. */
    static List<KindInfo> kinds() {
        return List.copyOf(KINDS.values());
    }

    static boolean serves(String group) {
        return group.equals(AUTHORIZATION) || group.equals(AUTHENTICATION);
    }

    /** @param rest the path after {@code /apis/{group}/v1} */
    ApiResponse handle(ApiRequest request, String group, List<String> rest) {
        String namespace = null;
        if (rest.size() == 3 && rest.get(0).equals("namespaces")) {
            namespace = rest.get(1);
            rest = rest.subList(2, 3);
        }
        KindInfo kind = rest.size() == 1 ? KINDS.get(group + "/" + rest.get(0)) : null;
        if (kind == null || kind.namespaced() != (namespace != null)) {
            throw new ApiException(Statuses.noSuchResource());
        }
        if (!request.method().equals("POST")) {
            throw new ApiException(Statuses.methodNotAllowed());
        }
        ObjectNode body = body(request, kind);
        UserInfo self = RequestUser.of(request);
        ObjectNode spec = body.with("spec");
        ObjectNode out = Json.object();
        out.put("kind", kind.kind());
        out.put("apiVersion", kind.apiVersion());
        out.set("metadata", body.has("metadata") ? body.get("metadata") : Json.object().putNull("creationTimestamp"));
        switch (kind.kind()) {
            case "SelfSubjectReview" -> {
                ObjectNode info = out.putObject("status").putObject("userInfo");
                info.put("username", self.name());
                if (!self.uid().isEmpty()) {
                    info.put("uid", self.uid());
                }
                ArrayNode groups = info.putArray("groups");
                self.groups().forEach(groups::add);
                if (!self.extra().isEmpty()) {
                    ObjectNode extra = info.putObject("extra");
                    self.extra().forEach((k, v) -> v.forEach(extra.withArray(k)::add));
                }
                return ApiResponse.json(201, out);
            }
            case "SelfSubjectRulesReview" -> {
                out.set("spec", spec);
                rules(out.putObject("status"), authorization.rulesFor(self, spec.path("namespace").asText("")));
                return ApiResponse.json(201, out);
            }
            default -> {
                UserInfo subject = kind.kind().startsWith("Self") ? self : subject(spec);
                Attributes attributes = attributes(subject, spec, namespace);
                Decision d = authorization.decide(attributes);
                out.set("spec", spec);
                ObjectNode status = out.putObject("status");
                status.put("allowed", d.allowed());
                if (d.outcome() == Decision.Outcome.DENY) {
                    status.put("denied", true);
                }
                String reason = d.admission() != null ? d.admission() : d.reason();
                if (!reason.isEmpty()) {
                    status.put("reason", reason);
                }
                return ApiResponse.json(201, out);
            }
        }
    }

    private static ObjectNode body(ApiRequest request, KindInfo kind) {
        JsonNode json = ProtobufBodies.CONTENT_TYPE.equals(request.contentType())
                ? ProtobufBodies.decode(request.body(), kind) : PatchHandler.parseJson(request.body());
        if (!json.isObject()) {
            throw new ApiException(Statuses.badRequest("a " + kind.kind() + " must be a JSON object"));
        }
        String sent = json.path("kind").asText(kind.kind());
        if (!sent.equals(kind.kind())) {
            throw new ApiException(Statuses.badRequest("expected a " + kind.kind() + ", got a " + sent));
        }
        return (ObjectNode) json;
    }

    /** A SubjectAccessReview's user: spec.user, spec.groups, spec.uid, spec.extra. */
    private static UserInfo subject(ObjectNode spec) {
        String user = spec.path("user").asText("");
        List<String> groups = new ArrayList<>();
        spec.path("groups").forEach(g -> groups.add(g.asText()));
        if (user.isEmpty() && groups.isEmpty()) {
            throw invalid("SubjectAccessReview", "spec.user", "Invalid value: \"\": at least one of user or group must "
                    + "be specified");
        }
        Map<String, List<String>> extra = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = spec.path("extra").fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> e = fields.next();
            List<String> values = new ArrayList<>();
            e.getValue().forEach(v -> values.add(v.asText()));
            extra.put(e.getKey(), values);
        }
        return new UserInfo(user, spec.path("uid").asText(""), groups, extra);
    }

    private static Attributes attributes(UserInfo user, ObjectNode spec, String pathNamespace) {
        JsonNode resource = spec.get("resourceAttributes");
        JsonNode nonResource = spec.get("nonResourceAttributes");
        boolean hasResource = resource != null && resource.isObject();
        boolean hasNonResource = nonResource != null && nonResource.isObject();
        if (hasResource == hasNonResource) {
            throw invalid("SelfSubjectAccessReview", "spec.resourceAttributes", "Invalid value: \"null\": exactly one of "
                    + "nonResourceAttributes or resourceAttributes must be specified");
        }
        if (hasNonResource) {
            return Attributes.nonResource(user, nonResource.path("verb").asText(""), nonResource.path("path").asText(""));
        }
        String namespace = resource.path("namespace").asText("");
        if (pathNamespace != null && !pathNamespace.equals(namespace)) {
            throw new ApiException(Statuses.badRequest("spec.resourceAttributes.namespace must match namespace: "
                    + pathNamespace));
        }
        return Attributes.resource(user, resource.path("verb").asText(""), resource.path("group").asText(""),
                resource.path("resource").asText(""), resource.path("subresource").asText(""), namespace,
                resource.path("name").asText(""));
    }

    private static void rules(ObjectNode status, List<PolicyRule> rules) {
        ArrayNode resourceRules = status.putArray("resourceRules");
        ArrayNode nonResourceRules = status.putArray("nonResourceRules");
        for (PolicyRule r : rules) {
            if (r.getNonResourceURLs() != null && !r.getNonResourceURLs().isEmpty()) {
                ObjectNode n = nonResourceRules.addObject();
                strings(n.putArray("verbs"), r.getVerbs());
                strings(n.putArray("nonResourceURLs"), r.getNonResourceURLs());
            } else {
                ObjectNode n = resourceRules.addObject();
                strings(n.putArray("verbs"), r.getVerbs());
                strings(n.putArray("apiGroups"), r.getApiGroups());
                strings(n.putArray("resources"), r.getResources());
                if (r.getResourceNames() != null && !r.getResourceNames().isEmpty()) {
                    strings(n.putArray("resourceNames"), r.getResourceNames());
                }
            }
        }
        status.put("incomplete", false);
    }

    private static void strings(ArrayNode a, List<String> values) {
        if (values != null) {
            values.forEach(a::add);
        }
    }

    private static ApiException invalid(String kind, String field, String detail) {
        String message = kind + ".authorization.k8s.io \"\" is invalid: " + field + ": " + detail;
        return new ApiException(new KubeStatus(422, "Invalid", message, new KubeStatus.Details(null,
                AUTHORIZATION, kind, List.of(new KubeStatus.Cause("FieldValueInvalid", detail, field)))));
    }
}
