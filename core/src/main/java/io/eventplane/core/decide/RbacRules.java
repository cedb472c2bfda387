package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.rbac.ClusterRole;
import io.eventplane.model.rbac.ClusterRoleBinding;
import io.eventplane.model.rbac.PolicyRule;
import io.eventplane.model.rbac.Role;
import io.eventplane.model.rbac.RoleBinding;
import io.eventplane.model.rbac.RoleRef;
import io.eventplane.model.rbac.Subject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * rbac.authorization.k8s.io/v1 as Kubernetes validates it (pkg/apis/rbac/validation): names are path segments, rules
 * name verbs and either resources of API groups or non-resource URLs (cluster roles only), bindings refer to one role
 * of this API group (a ClusterRoleBinding to a ClusterRole) and their roleRef never changes; subjects are Users,
 * Groups or ServiceAccounts. Defaults (SetDefaults_Subject, SetDefaults_RoleRef): the RBAC group for users, groups and
 * role references.
 */
final class RbacRules {
    static final String GROUP = "rbac.authorization.k8s.io";

    private RbacRules() {
    }

    /** ValidateRBACName: path.IsValidPathSegmentName. */
    static Optional<StatusCause> pathSegmentName(String field, String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of(Causes.required(field, "name or generateName is required"));
        }
        for (String msg : pathSegmentErrors(name)) {
            return Optional.of(Causes.invalid(field, name, msg));
        }
        return Optional.empty();
    }

    private static List<String> pathSegmentErrors(String name) {
        List<String> out = new ArrayList<>();
        if (name.equals(".") || name.equals("..")) {
            out.add("may not be '" + name + "'");
            return out;
        }
        for (String illegal : List.of("/", "%")) {
            if (name.contains(illegal)) {
                out.add("may not contain '" + illegal + "'");
            }
        }
        return out;
    }

    static List<StatusCause> rules(List<PolicyRule> rules, boolean namespaced) {
        List<StatusCause> causes = new ArrayList<>();
        List<PolicyRule> all = rules == null ? List.of() : rules;
        for (int i = 0; i < all.size(); i++) {
            causes.addAll(rule(all.get(i), namespaced, "rules[" + i + "]"));
        }
        return causes;
    }

    /** ValidatePolicyRule. */
    static List<StatusCause> rule(PolicyRule rule, boolean namespaced, String path) {
        List<StatusCause> causes = new ArrayList<>();
        if (empty(rule.getVerbs())) {
            causes.add(Causes.required(path + ".verbs", "verbs must contain at least one value"));
        }
        if (!empty(rule.getNonResourceURLs())) {
            String shown = goStrings(rule.getNonResourceURLs());
            if (namespaced) {
                causes.add(Causes.invalidShown(path + ".nonResourceURLs", shown,
                        "namespaced rules cannot apply to non-resource URLs"));
            }
            if (!empty(rule.getApiGroups()) || !empty(rule.getResources()) || !empty(rule.getResourceNames())) {
                causes.add(Causes.invalidShown(path + ".nonResourceURLs", shown,
                        "rules cannot apply to both regular resources and non-resource URLs"));
            }
            return causes;
        }
        if (empty(rule.getApiGroups())) {
            causes.add(Causes.required(path + ".apiGroups", "resource rules must supply at least one api group"));
        }
        if (empty(rule.getResources())) {
            causes.add(Causes.required(path + ".resources", "resource rules must supply at least one resource"));
        }
        return causes;
    }

    static List<Subject> defaultSubjects(List<Subject> subjects) {
        if (subjects == null) {
            return null;
        }
        List<Subject> out = new ArrayList<>(subjects.size());
        for (Subject s : subjects) {
            boolean userOrGroup = "User".equals(s.getKind()) || "Group".equals(s.getKind());
            if (s.getApiGroup() == null && userOrGroup) {
                out.add(Subject.newBuilder(s).setApiGroup(GROUP).build());
            } else if (s.getApiGroup() == null && "ServiceAccount".equals(s.getKind())) {
                out.add(Subject.newBuilder(s).setApiGroup("").build());
            } else {
                out.add(s);
            }
        }
        return out;
    }

    static RoleRef defaultRoleRef(RoleRef ref) {
        if (ref != null && (ref.getApiGroup() == null || ref.getApiGroup().isEmpty())) {
            return RoleRef.newBuilder(ref).setApiGroup(GROUP).build();
        }
        return ref;
    }

    /** ValidateRoleBinding / ValidateClusterRoleBinding. */
    static List<StatusCause> binding(RoleRef ref, List<Subject> subjects, boolean namespaced) {
        List<StatusCause> causes = new ArrayList<>();
        RoleRef r = ref == null ? new RoleRef() : ref;
        String group = Objects.toString(r.getApiGroup(), "");
        if (!group.equals(GROUP)) {
            causes.add(Causes.notSupported("roleRef.apiGroup", group, List.of(GROUP)));
        }
        String kind = Objects.toString(r.getKind(), "");
        List<String> kinds = namespaced ? List.of("Role", "ClusterRole") : List.of("ClusterRole");
        if (!kinds.contains(kind)) {
            causes.add(Causes.notSupported("roleRef.kind", kind, kinds));
        }
        String name = Objects.toString(r.getName(), "");
        if (name.isEmpty()) {
            causes.add(Causes.required("roleRef.name"));
        } else {
            for (String msg : pathSegmentErrors(name)) {
                causes.add(Causes.invalid("roleRef.name", name, msg));
            }
        }
        List<Subject> all = subjects == null ? List.of() : subjects;
        for (int i = 0; i < all.size(); i++) {
            causes.addAll(subject(all.get(i), namespaced, "subjects[" + i + "]"));
        }
        return causes;
    }

    /** ValidateRoleBindingSubject. */
    static List<StatusCause> subject(Subject s, boolean namespaced, String path) {
        List<StatusCause> causes = new ArrayList<>();
        String name = Objects.toString(s.getName(), "");
        String group = Objects.toString(s.getApiGroup(), "");
        String kind = Objects.toString(s.getKind(), "");
        if (name.isEmpty()) {
            causes.add(Causes.required(path + ".name"));
        }
        switch (kind) {
            case "ServiceAccount" -> {
                if (!name.isEmpty()) {
                    Names.subdomain(path + ".name", name).ifPresent(causes::add);
                }
                if (!group.isEmpty()) {
                    causes.add(Causes.notSupported(path + ".apiGroup", group, List.of("")));
                }
                if (!namespaced && Objects.toString(s.getNamespace(), "").isEmpty()) {
                    causes.add(Causes.required(path + ".namespace"));
                }
            }
            case "User", "Group" -> {
                if (!group.equals(GROUP)) {
                    causes.add(Causes.notSupported(path + ".apiGroup", group, List.of(GROUP)));
                }
            }
            default -> causes.add(Causes.notSupported(path + ".kind", kind, List.of("ServiceAccount", "User", "Group")));
        }
        return causes;
    }

    static List<StatusCause> roleRefUnchanged(RoleRef old, RoleRef updated) {
        if (Objects.equals(old, updated)) {
            return List.of();
        }
        RoleRef r = updated == null ? new RoleRef() : updated;
        String shown = "rbac.RoleRef{APIGroup:\"" + Objects.toString(r.getApiGroup(), "") + "\", Kind:\""
                + Objects.toString(r.getKind(), "") + "\", Name:\"" + Objects.toString(r.getName(), "") + "\"}";
        return List.of(Causes.invalidShown("roleRef", shown, "cannot change roleRef"));
    }

    private static boolean empty(List<String> l) {
        return l == null || l.isEmpty();
    }

    /** Go's %#v of a []string, as field.Invalid shows it. */
    private static String goStrings(List<String> values) {
        StringBuilder s = new StringBuilder("[]string{");
        for (int i = 0; i < values.size(); i++) {
            s.append(i == 0 ? "" : ", ").append('"').append(values.get(i)).append('"');
        }
        return s.append('}').toString();
    }

    static final class RoleRules implements KindRules<Role> {
        @Override
        public Role prepareForCreate(Role role, Instant now) {
            return role;
        }

        @Override
        public Optional<StatusCause> validateName(String name) {
            return pathSegmentName("metadata.name", name);
        }

        @Override
        public List<StatusCause> validate(Role role) {
            return rules(role.getRules(), true);
        }
    }

    static final class ClusterRoleRules implements KindRules<ClusterRole> {
        @Override
        public ClusterRole prepareForCreate(ClusterRole role, Instant now) {
            return role;
        }

        @Override
        public Optional<StatusCause> validateName(String name) {
            return pathSegmentName("metadata.name", name);
        }

        @Override
        public List<StatusCause> validate(ClusterRole role) {
            return rules(role.getRules(), false);
        }
    }

    static final class RoleBindingRules implements KindRules<RoleBinding> {
        @Override
        public RoleBinding defaults(RoleBinding b) {
            return RoleBinding.newBuilder(b).setSubjects(defaultSubjects(b.getSubjects()))
                    .setRoleRef(defaultRoleRef(b.getRoleRef())).build();
        }

        @Override
        public RoleBinding prepareForCreate(RoleBinding b, Instant now) {
            return b;
        }

        @Override
        public Optional<StatusCause> validateName(String name) {
            return pathSegmentName("metadata.name", name);
        }

        @Override
        public List<StatusCause> validate(RoleBinding b) {
            return binding(b.getRoleRef(), b.getSubjects(), true);
        }

        @Override
        public List<StatusCause> validateUpdate(RoleBinding old, RoleBinding updated) {
            return roleRefUnchanged(old.getRoleRef(), updated.getRoleRef());
        }
    }

    static final class ClusterRoleBindingRules implements KindRules<ClusterRoleBinding> {
        @Override
        public ClusterRoleBinding defaults(ClusterRoleBinding b) {
            return ClusterRoleBinding.newBuilder(b).setSubjects(defaultSubjects(b.getSubjects()))
                    .setRoleRef(defaultRoleRef(b.getRoleRef())).build();
        }

        @Override
        public ClusterRoleBinding prepareForCreate(ClusterRoleBinding b, Instant now) {
            return b;
        }

        @Override
        public Optional<StatusCause> validateName(String name) {
            return pathSegmentName("metadata.name", name);
        }

        @Override
        public List<StatusCause> validate(ClusterRoleBinding b) {
            return binding(b.getRoleRef(), b.getSubjects(), false);
        }

        @Override
        public List<StatusCause> validateUpdate(ClusterRoleBinding old, ClusterRoleBinding updated) {
            return roleRefUnchanged(old.getRoleRef(), updated.getRoleRef());
        }
    }
}
