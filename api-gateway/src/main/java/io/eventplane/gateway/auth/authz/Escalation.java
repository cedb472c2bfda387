package io.eventplane.gateway.auth.authz;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.model.rbac.ClusterRole;
import io.eventplane.model.rbac.ClusterRoleBinding;
import io.eventplane.model.rbac.PolicyRule;
import io.eventplane.model.rbac.Role;
import io.eventplane.model.rbac.RoleBinding;
import io.eventplane.model.rbac.RoleRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;

/**
 * RBAC's escalation prevention, as its registry applies it to every create and update: a user may write a Role or
 * ClusterRole only with rules it holds itself (or with the {@code escalate} verb on it), and a binding only to a role
 * whose rules it holds in the binding's namespace (or with the {@code bind} verb on that role). system:masters may do
 * both. The refusal lists the missing permissions as Kubernetes does.
 */
final class Escalation {
    private Escalation() {
    }

    static boolean applies(KindInfo kind) {
        return kind == Kinds.ROLE || kind == Kinds.CLUSTER_ROLE || kind == Kinds.ROLE_BINDING
                || kind == Kinds.CLUSTER_ROLE_BINDING;
    }

    static void check(Authorization authz, UserInfo user, KindInfo kind, String namespace, String name,
                      SpecificRecord object) {
        if (user.inGroup(UserInfo.MASTERS)) {
            return;
        }
        String ns = kind.namespaced() ? namespace : "";
        List<PolicyRule> granted;
        if (kind == Kinds.ROLE || kind == Kinds.CLUSTER_ROLE) {
            if (authz.decide(Attributes.resource(user, "escalate", BootstrapPolicy.RBAC, kind.plural(), "", ns, name))
                    .allowed()) {
                return;
            }
            granted = object instanceof Role r ? r.getRules() : ((ClusterRole) object).getRules();
        } else {
            RoleRef ref = object instanceof RoleBinding b ? b.getRoleRef() : ((ClusterRoleBinding) object).getRoleRef();
            if (ref == null || ref.getName() == null) {
                return; // invalid: the writer's validation says why
            }
            boolean cluster = "ClusterRole".equals(ref.getKind());
            if (authz.decide(Attributes.resource(user, "bind", BootstrapPolicy.RBAC, cluster ? "clusterroles" : "roles",
                    "", ns, ref.getName())).allowed()) {
                return;
            }
            granted = authz.roleRules(cluster ? "" : ns, ref.getName());
        }
        List<PolicyRule> missing = missing(authz.rulesFor(user, ns), granted == null ? List.of() : granted);
        if (!missing.isEmpty()) {
            String qualified = kind.plural() + "." + kind.group();
            String message = qualified + " \"" + name + "\" is forbidden: user \"" + user.name() + "\" (groups="
                    + goQuoted(user.groups()) + ") is attempting to grant RBAC permissions not currently held:\n"
                    + String.join("\n", describe(missing));
            throw new ApiException(new KubeStatus(403, "Forbidden", message,
                    new KubeStatus.Details(name, kind.group(), kind.plural(), List.of())));
        }
    }

    /** The servant rules, broken down to one verb on one thing each, that no owner rule covers (Covers). */
    static List<PolicyRule> missing(List<PolicyRule> owner, List<PolicyRule> servant) {
        List<PolicyRule> out = new ArrayList<>();
        for (PolicyRule rule : servant) {
            for (PolicyRule atom : breakdown(rule)) {
                if (owner.stream().noneMatch(o -> covers(o, atom))) {
                    out.add(atom);
                }
            }
        }
        return out;
    }

    private static List<PolicyRule> breakdown(PolicyRule r) {
        List<PolicyRule> out = new ArrayList<>();
        for (String verb : list(r.getVerbs())) {
            if (!list(r.getNonResourceURLs()).isEmpty()) {
                for (String url : r.getNonResourceURLs()) {
                    out.add(PolicyRule.newBuilder().setVerbs(List.of(verb)).setNonResourceURLs(List.of(url)).build());
                }
                continue;
            }
            for (String group : list(r.getApiGroups())) {
                for (String resource : list(r.getResources())) {
                    List<String> names = list(r.getResourceNames());
                    if (names.isEmpty()) {
                        out.add(atom(verb, group, resource, null));
                    }
                    for (String n : names) {
                        out.add(atom(verb, group, resource, n));
                    }
                }
            }
        }
        return out;
    }

    private static PolicyRule atom(String verb, String group, String resource, String name) {
        return PolicyRule.newBuilder().setVerbs(List.of(verb)).setApiGroups(List.of(group))
                .setResources(List.of(resource)).setResourceNames(name == null ? null : List.of(name)).build();
    }

    /** Whether {@code owner} covers the one-verb, one-thing rule {@code atom} (ruleCovers). */
    static boolean covers(PolicyRule owner, PolicyRule atom) {
        String verb = atom.getVerbs().get(0);
        if (!list(owner.getVerbs()).contains("*") && !list(owner.getVerbs()).contains(verb)) {
            return false;
        }
        if (atom.getNonResourceURLs() != null) {
            return PolicyRules.urlMatches(owner, atom.getNonResourceURLs().get(0));
        }
        List<String> groups = list(owner.getApiGroups());
        if (!groups.contains("*") && !groups.contains(atom.getApiGroups().get(0))) {
            return false;
        }
        List<String> resources = list(owner.getResources());
        String resource = atom.getResources().get(0);
        boolean resourceCovered = resources.contains("*") || resources.contains(resource)
                || (resource.contains("/") && resources.contains("*/" + resource.split("/", 2)[1]));
        if (!resourceCovered) {
            return false;
        }
        List<String> ownerNames = list(owner.getResourceNames());
        return ownerNames.isEmpty() || (atom.getResourceNames() != null
                && ownerNames.contains(atom.getResourceNames().get(0)));
    }

    /** CompactRules then CompactString: one line per group, resource and names, its verbs together, sorted. */
    private static List<String> describe(List<PolicyRule> missing) {
        Map<String, List<String>> verbs = new LinkedHashMap<>();
        Map<String, PolicyRule> first = new LinkedHashMap<>();
        for (PolicyRule r : missing) {
            String key = String.valueOf(r.getApiGroups()) + r.getResources() + r.getResourceNames() + r.getNonResourceURLs();
            verbs.computeIfAbsent(key, k -> new ArrayList<>()).add(r.getVerbs().get(0));
            first.putIfAbsent(key, r);
        }
        TreeSet<String> out = new TreeSet<>();
        first.forEach((key, r) -> {
            List<String> parts = new ArrayList<>();
            if (!list(r.getApiGroups()).isEmpty()) {
                parts.add("APIGroups:" + goQuoted(r.getApiGroups()));
            }
            if (!list(r.getResources()).isEmpty()) {
                parts.add("Resources:" + goQuoted(r.getResources()));
            }
            if (!list(r.getNonResourceURLs()).isEmpty()) {
                parts.add("NonResourceURLs:" + goQuoted(r.getNonResourceURLs()));
            }
            if (!list(r.getResourceNames()).isEmpty()) {
                parts.add("ResourceNames:" + goQuoted(r.getResourceNames()));
            }
            parts.add("Verbs:" + goQuoted(verbs.get(key)));
            out.add("{" + String.join(", ", parts) + "}");
        });
        return new ArrayList<>(out);
    }

    /** Go's %q of a []string: {@code ["a" "b"]}. */
    private static String goQuoted(List<String> values) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            s.append(i == 0 ? "" : " ").append('"').append(values.get(i)).append('"');
        }
        return s.append(']').toString();
    }

    private static List<String> list(List<String> l) {
        return l == null ? List.of() : l;
    }
}
