package io.eventplane.gateway.auth.authz;

import io.eventplane.model.rbac.PolicyRule;
import java.util.List;

/** Whether one RBAC rule covers a request, as Kubernetes' RuleAllows matches it (verbs, groups, resources, names, URLs). */
public final class PolicyRules {
    static final String ALL = "*";

    private PolicyRules() {
    }

    public static boolean allows(Attributes a, PolicyRule rule) {
        if (a.resourceRequest()) {
            return verbMatches(rule, a.verb()) && groupMatches(rule, a.apiGroup())
                    && resourceMatches(rule, a.combinedResource(), a.subresource())
                    && nameMatches(rule, a.name());
        }
        return verbMatches(rule, a.verb()) && urlMatches(rule, a.path());
    }

    public static boolean anyAllows(Attributes a, List<PolicyRule> rules) {
        if (rules != null) {
            for (PolicyRule r : rules) {
                if (allows(a, r)) {
                    return true;
                }
            }
        }
        return false;
    }

    static boolean verbMatches(PolicyRule rule, String verb) {
        return has(rule.getVerbs(), ALL) || has(rule.getVerbs(), verb);
    }

    static boolean groupMatches(PolicyRule rule, String group) {
        return has(rule.getApiGroups(), ALL) || has(rule.getApiGroups(), group);
    }

    /** {@code *}, the exact {@code resource[/subresource]}, or {@code *}/subresource. */
    static boolean resourceMatches(PolicyRule rule, String combined, String subresource) {
        if (rule.getResources() == null) {
            return false;
        }
        for (String r : rule.getResources()) {
            if (r.equals(ALL) || r.equals(combined)) {
                return true;
            }
            if (!subresource.isEmpty() && r.equals("*/" + subresource)) {
                return true;
            }
        }
        return false;
    }

    /** No names in the rule: any name; otherwise the request must name one of them (a collection never matches). */
    static boolean nameMatches(PolicyRule rule, String name) {
        List<String> names = rule.getResourceNames();
        return names == null || names.isEmpty() || names.contains(name);
    }

    /** {@code *}, the exact path, or a prefix ending in {@code *}. */
    static boolean urlMatches(PolicyRule rule, String path) {
        if (rule.getNonResourceURLs() == null) {
            return false;
        }
        for (String u : rule.getNonResourceURLs()) {
            if (u.equals(ALL) || u.equals(path)
                    || (u.endsWith(ALL) && path.startsWith(u.substring(0, u.length() - 1)))) {
                return true;
            }
        }
        return false;
    }

    private static boolean has(List<String> values, String v) {
        return values != null && values.contains(v);
    }
}
