package io.eventplane.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An audit.k8s.io/v1 {@code Policy}: ordered rules, the first rule that matches a request decides its level; no match
 * means {@link AuditLevel#None}, as in kube-apiserver. Supported rule fields: {@code level}, {@code users},
 * {@code userGroups} (every actor is in {@code system:authenticated}), {@code verbs}, {@code resources} (group,
 * resources with {@code "*"}, {@code "pods/*"}, {@code "*\/status"} forms, resourceNames), {@code namespaces}
 * ({@code ""} matching cluster-scoped objects) and {@code omitStages} (accepted; we record one stage,
 * ResponseComplete, so omitting it drops the event).
 */
public final class AuditPolicy {
    /** One request as a policy rule sees it. */
    public record Request(String user, String verb, String group, String resource, String subresource,
                          String namespace, String name) {
    }

    private record Rule(AuditLevel level, List<String> users, List<String> userGroups, List<String> verbs,
                        List<ResourceRule> resources, List<String> namespaces, boolean omitResponseComplete) {
        boolean matches(Request r) {
            return (users.isEmpty() || users.contains(r.user()))
                    && (userGroups.isEmpty() || userGroups.contains("system:authenticated"))
                    && (verbs.isEmpty() || verbs.contains(r.verb()))
                    && (namespaces.isEmpty() || namespaces.contains(r.namespace()))
                    && (resources.isEmpty() || resources.stream().anyMatch(rr -> rr.matches(r)));
        }
    }

    private record ResourceRule(String group, List<String> resources, List<String> resourceNames) {
        boolean matches(Request r) {
            if (group != null && !group.equals("*") && !group.equals(r.group())) {
                return false;
            }
            if (!resourceNames.isEmpty() && !resourceNames.contains(r.name())) {
                return false;
            }
            if (resources.isEmpty()) {
                return true;
            }
            String full = r.subresource() == null ? r.resource() : r.resource() + "/" + r.subresource();
            for (String pattern : resources) {
                if (pattern.equals("*") || pattern.equals(full)
                        || (pattern.equals(r.resource() + "/*") && r.subresource() != null)
                        || (pattern.equals("*/" + r.subresource()) && r.subresource() != null)) {
                    return true;
                }
            }
            return false;
        }
    }

    private final List<Rule> rules;
    private final boolean omitResponseComplete;

    private AuditPolicy(List<Rule> rules, boolean omitResponseComplete) {
        this.rules = rules;
        this.omitResponseComplete = omitResponseComplete;
    }

    /** A policy logging everything at one level. */
    public static AuditPolicy everything(AuditLevel level) {
        return new AuditPolicy(List.of(new Rule(level, List.of(), List.of(), List.of(), List.of(), List.of(), false)),
                false);
    }

    /**
     * Parses a Policy document (YAML or JSON).
     *
     * @throws IllegalArgumentException with the offending field when the document is not a valid policy
     */
    public static AuditPolicy parse(String text) {
        JsonNode doc;
        try {
            doc = new ObjectMapper(new YAMLFactory()).readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("the audit policy is not valid YAML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the audit policy: " + e.getMessage());
        }
        if (doc == null || !doc.isObject()) {
            throw new IllegalArgumentException("the audit policy must be a Policy object");
        }
        if (!"Policy".equals(doc.path("kind").asText()) || !doc.path("apiVersion").asText().startsWith("audit.k8s.io/")) {
            throw new IllegalArgumentException("the audit policy must have apiVersion audit.k8s.io/v1 and kind Policy");
        }
        boolean omitAll = strings(doc.path("omitStages"), "omitStages").contains("ResponseComplete");
        List<Rule> rules = new ArrayList<>();
        JsonNode list = doc.path("rules");
        if (!list.isArray() || list.isEmpty()) {
            throw new IllegalArgumentException("rules: the policy needs at least one rule");
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode r = list.get(i);
            String at = "rules[" + i + "]";
            if (!r.hasNonNull("level")) {
                throw new IllegalArgumentException(at + ".level: Required value");
            }
            AuditLevel level;
            try {
                level = AuditLevel.parse(r.get("level").asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(at + ".level: " + e.getMessage());
            }
            List<ResourceRule> resources = new ArrayList<>();
            JsonNode rs = r.path("resources");
            for (int j = 0; j < rs.size(); j++) {
                JsonNode g = rs.get(j);
                resources.add(new ResourceRule(g.has("group") ? g.get("group").asText() : "",
                        strings(g.path("resources"), at + ".resources[" + j + "].resources"),
                        strings(g.path("resourceNames"), at + ".resources[" + j + "].resourceNames")));
            }
            rules.add(new Rule(level, strings(r.path("users"), at + ".users"),
                    strings(r.path("userGroups"), at + ".userGroups"), strings(r.path("verbs"), at + ".verbs"),
                    resources, strings(r.path("namespaces"), at + ".namespaces"),
                    strings(r.path("omitStages"), at + ".omitStages").contains("ResponseComplete")));
        }
        return new AuditPolicy(rules, omitAll);
    }

    /** The level this policy records {@code request} at. */
    public AuditLevel levelOf(Request request) {
        if (omitResponseComplete) {
            return AuditLevel.None;
        }
        for (Rule rule : rules) {
            if (rule.matches(request)) {
                return rule.omitResponseComplete() ? AuditLevel.None : rule.level();
            }
        }
        return AuditLevel.None;
    }

    private static List<String> strings(JsonNode node, String field) {
        List<String> out = new ArrayList<>();
        if (node.isMissingNode() || node.isNull()) {
            return out;
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException(field + ": must be a list of strings");
        }
        node.forEach(n -> out.add(n.asText()));
        return out;
    }
}
