package io.eventplane.gateway.auth.authz;

import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.model.rbac.ClusterRole;
import io.eventplane.model.rbac.ClusterRoleBinding;
import io.eventplane.model.rbac.PolicyRule;
import io.eventplane.model.rbac.Role;
import io.eventplane.model.rbac.RoleBinding;
import io.eventplane.model.rbac.RoleRef;
import io.eventplane.model.rbac.Subject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The roles and bindings of one moment, indexed by subject: a decision looks up the bindings of the user's name and
 * of each of its groups (cluster-wide, then in the request's namespace) instead of scanning every binding. A service
 * account subject is indexed under its user name ({@code system:serviceaccount:<ns>:<name>}), as RBAC matches it.
 */
public final class RbacIndex {
    /** One binding of one subject: where its rules come from and how a decision describes it. */
    private record Grant(String source, String roleNamespace, String roleName) {
    }

    private final Map<String, ClusterRole> clusterRoles = new HashMap<>();
    private final Map<String, Role> roles = new HashMap<>();
    private final Map<String, List<Grant>> clusterGrants = new HashMap<>();
    /** Namespace, then subject key. */
    private final Map<String, Map<String, List<Grant>>> namespaceGrants = new HashMap<>();

    public static final RbacIndex EMPTY = new RbacIndex(List.of(), List.of(), List.of(), List.of());

    public RbacIndex(Collection<Role> roles, Collection<ClusterRole> clusterRoles, Collection<RoleBinding> roleBindings,
                     Collection<ClusterRoleBinding> clusterRoleBindings) {
        for (ClusterRole r : clusterRoles) {
            this.clusterRoles.put(r.getMetadata().getName(), r);
        }
        for (Role r : roles) {
            this.roles.put(r.getMetadata().getNamespace() + "/" + r.getMetadata().getName(), r);
        }
        for (ClusterRoleBinding b : clusterRoleBindings) {
            RoleRef ref = b.getRoleRef();
            if (ref == null || !"ClusterRole".equals(ref.getKind())) {
                continue;
            }
            for (Subject s : subjects(b.getSubjects())) {
                String key = key(s, "");
                if (key != null) {
                    clusterGrants.computeIfAbsent(key, k -> new ArrayList<>()).add(new Grant(
                            "ClusterRoleBinding \"" + b.getMetadata().getName() + "\" of ClusterRole \"" + ref.getName()
                                    + "\" to " + describe(s, ""), "", ref.getName()));
                }
            }
        }
        for (RoleBinding b : roleBindings) {
            RoleRef ref = b.getRoleRef();
            String ns = b.getMetadata().getNamespace();
            if (ref == null || ref.getKind() == null) {
                continue;
            }
            String roleNamespace = ref.getKind().equals("Role") ? ns : "";
            for (Subject s : subjects(b.getSubjects())) {
                String key = key(s, ns);
                if (key != null) {
                    namespaceGrants.computeIfAbsent(ns, n -> new HashMap<>())
                            .computeIfAbsent(key, k -> new ArrayList<>()).add(new Grant(
                                    "RoleBinding \"" + b.getMetadata().getName() + "/" + ns + "\" of " + ref.getKind()
                                            + " \"" + ref.getName() + "\" to " + describe(s, ns), roleNamespace,
                                    ref.getName()));
                }
            }
        }
    }

    /** RBAC's decision: allowed by the first binding whose role has a rule that covers the request, else no opinion. */
    public Decision authorize(Attributes a) {
        for (String key : keys(a.user())) {
            for (Grant g : clusterGrants.getOrDefault(key, List.of())) {
                if (PolicyRules.anyAllows(a, rules(g))) {
                    return Decision.allow("RBAC: allowed by " + g.source());
                }
            }
        }
        if (!a.namespace().isEmpty()) {
            Map<String, List<Grant>> inNamespace = namespaceGrants.getOrDefault(a.namespace(), Map.of());
            for (String key : keys(a.user())) {
                for (Grant g : inNamespace.getOrDefault(key, List.of())) {
                    if (PolicyRules.anyAllows(a, rules(g))) {
                        return Decision.allow("RBAC: allowed by " + g.source());
                    }
                }
            }
        }
        return Decision.noOpinion("");
    }

    /** Every rule that applies to {@code user} in {@code namespace} (cluster-wide ones included): a rules review. */
    public List<PolicyRule> rulesFor(UserInfo user, String namespace) {
        List<PolicyRule> out = new ArrayList<>();
        for (String key : keys(user)) {
            for (Grant g : clusterGrants.getOrDefault(key, List.of())) {
                out.addAll(rules(g));
            }
            if (namespace != null && !namespace.isEmpty()) {
                for (Grant g : namespaceGrants.getOrDefault(namespace, Map.of()).getOrDefault(key, List.of())) {
                    out.addAll(rules(g));
                }
            }
        }
        return out;
    }

    private List<PolicyRule> rules(Grant g) {
        return roleRules(g.roleNamespace(), g.roleName());
    }

    /** A role's rules: a Role in {@code namespace}, or a ClusterRole when it is empty; none when it does not exist. */
    public List<PolicyRule> roleRules(String namespace, String name) {
        if (namespace.isEmpty()) {
            ClusterRole r = clusterRoles.get(name);
            return r == null || r.getRules() == null ? List.of() : r.getRules();
        }
        Role r = roles.get(namespace + "/" + name);
        return r == null || r.getRules() == null ? List.of() : r.getRules();
    }

    private static List<String> keys(UserInfo user) {
        List<String> keys = new ArrayList<>(1 + user.groups().size());
        keys.add("User:" + user.name());
        for (String g : user.groups()) {
            keys.add("Group:" + g);
        }
        return keys;
    }

    /** The key a subject is indexed under; null for subjects that can never match. */
    private static String key(Subject s, String bindingNamespace) {
        String name = Objects.toString(s.getName(), "");
        switch (Objects.toString(s.getKind(), "")) {
            case "User":
                return "User:" + name;
            case "Group":
                return "Group:" + name;
            case "ServiceAccount":
                String ns = s.getNamespace() == null || s.getNamespace().isEmpty() ? bindingNamespace : s.getNamespace();
                return ns.isEmpty() ? null : "User:system:serviceaccount:" + ns + ":" + name;
            default:
                return null;
        }
    }

    private static String describe(Subject s, String bindingNamespace) {
        if ("ServiceAccount".equals(s.getKind())) {
            String ns = s.getNamespace() == null || s.getNamespace().isEmpty() ? bindingNamespace : s.getNamespace();
            return "ServiceAccount \"" + ns + "/" + s.getName() + "\"";
        }
        return s.getKind() + " \"" + s.getName() + "\"";
    }

    private static List<Subject> subjects(List<Subject> subjects) {
        return subjects == null ? List.of() : subjects;
    }
}
