package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.parse;
import static io.eventplane.core.decide.Decisions.rejected;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.rbac.ClusterRole;
import io.eventplane.model.rbac.ClusterRoleBinding;
import io.eventplane.model.rbac.Role;
import io.eventplane.model.rbac.RoleBinding;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** rbac.authorization.k8s.io/v1 validation and defaults with Kubernetes' messages (issue 23). */
class RbacRulesTest {
    private final Decisions decisions = new Decisions();

    @Test
    @DisplayName("AUTHZ-KINDS: a Role's rules need verbs, groups and resources; namespaced rules take no URLs; names are path segments")
    void roleValidation() {
        assertEquals(List.of(
                "rules[0].verbs: Required value: verbs must contain at least one value",
                "rules[0].apiGroups: Required value: resource rules must supply at least one api group",
                "rules[0].resources: Required value: resource rules must supply at least one resource",
                "rules[1].nonResourceURLs: Invalid value: []string{\"/healthz\"}: namespaced rules cannot apply to "
                        + "non-resource URLs"),
                rejected(decisions.create(parse(Role.class, """
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: Role
                        metadata: {name: r, namespace: default}
                        rules:
                        - {}
                        - {verbs: [get], nonResourceURLs: [/healthz]}
                        """))));
        assertEquals(List.of("metadata.name: Invalid value: \"a/b\": may not contain '/'"),
                rejected(decisions.create(parse(ClusterRole.class, """
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRole
                        metadata: {name: a/b}
                        """))));
        assertEquals(List.of("rules[0].nonResourceURLs: Invalid value: []string{\"/x\"}: rules cannot apply to both "
                        + "regular resources and non-resource URLs"),
                rejected(decisions.create(parse(ClusterRole.class, """
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRole
                        metadata: {name: mixed}
                        rules: [{verbs: [get], nonResourceURLs: [/x], resources: [pods]}]
                        """))));
        decisions.create(parse(ClusterRole.class, """
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata: {name: "system:health"}
                rules: [{verbs: [get], nonResourceURLs: [/healthz]}]
                """));
    }

    @Test
    @DisplayName("AUTHZ-KINDS: bindings refer to a role of the RBAC group, subjects are checked by kind, roleRef never changes")
    void bindingValidation() {
        assertEquals(List.of(
                "roleRef.kind: Unsupported value: \"Role\": supported values: \"ClusterRole\"",
                "subjects[0].namespace: Required value",
                "subjects[1].kind: Unsupported value: \"Robot\": supported values: \"ServiceAccount\", \"User\", \"Group\""),
                rejected(decisions.create(parse(ClusterRoleBinding.class, """
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: ClusterRoleBinding
                        metadata: {name: b}
                        roleRef: {kind: Role, name: r}
                        subjects: [{kind: ServiceAccount, name: default}, {kind: Robot, name: r2}]
                        """))));
        ObjectChanged created = decisions.createdChange(parse(RoleBinding.class, """
                apiVersion: rbac.authorization.k8s.io/v1
                kind: RoleBinding
                metadata: {name: b, namespace: default}
                roleRef: {kind: Role, name: r}
                subjects: [{kind: User, name: alice}, {kind: ServiceAccount, name: default}]
                """));
        RoleBinding stored = (RoleBinding) created.getObject();
        assertEquals("rbac.authorization.k8s.io", stored.getRoleRef().getApiGroup());
        assertEquals("rbac.authorization.k8s.io", stored.getSubjects().get(0).getApiGroup());
        assertEquals("", stored.getSubjects().get(1).getApiGroup());
        assertEquals(List.of("roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", "
                        + "Kind:\"ClusterRole\", Name:\"r\"}: cannot change roleRef"),
                rejected(decisions.update(created, parse(RoleBinding.class, """
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: RoleBinding
                        metadata: {name: b, namespace: default}
                        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: r}
                        """))));
    }
}
