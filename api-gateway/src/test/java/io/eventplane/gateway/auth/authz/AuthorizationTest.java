package io.eventplane.gateway.auth.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.client.ObjectView;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.model.ConfigMapVolumeSource;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.Volume;
import io.eventplane.model.rbac.PolicyRule;
import io.eventplane.model.rbac.Role;
import io.eventplane.model.rbac.RoleBinding;
import io.eventplane.model.rbac.RoleRef;
import io.eventplane.model.rbac.Subject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The authorization chain over a store of roles, bindings and pods: RBAC, the Node authorizer, and the 403 text. */
class AuthorizationTest {
    private static final UserInfo ALICE = user("alice", "system:authenticated");
    private static final UserInfo NODE1 = user("system:node:n1", "system:nodes", "system:authenticated");

    private static UserInfo user(String name, String... groups) {
        return new UserInfo(name, "", List.of(groups), Map.of());
    }

    private static Authorization authorization(SpecificRecord... extra) {
        List<SpecificRecord> objects = new ArrayList<>(BootstrapPolicy.all());
        objects.addAll(List.of(extra));
        ObjectStore store = ObjectStore.of(objects);
        store.addIndex(ObjectView.PODS_BY_NODE, "Pod", c -> ((Pod) c.getObject()).getSpec().getNodeName());
        return new Authorization(store, true);
    }

    private static Role podReader() {
        return Role.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("pod-reader").setNamespace("team").build())
                .setRules(List.of(PolicyRule.newBuilder().setVerbs(List.of("get", "list", "watch"))
                        .setApiGroups(List.of("")).setResources(List.of("pods")).build())).build();
    }

    private static RoleBinding binding(String kind, String name) {
        return RoleBinding.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("b").setNamespace("team").build())
                .setRoleRef(RoleRef.newBuilder().setApiGroup("rbac.authorization.k8s.io").setKind("Role")
                        .setName("pod-reader").build())
                .setSubjects(List.of(Subject.newBuilder().setKind(kind).setName(name)
                        .setApiGroup(kind.equals("ServiceAccount") ? "" : "rbac.authorization.k8s.io").build())).build();
    }

    private static Attributes res(UserInfo u, String verb, String group, String resource, String sub, String ns,
                                  String name) {
        return Attributes.resource(u, verb, group, resource, sub, ns, name);
    }

    @Test
    @DisplayName("AUTHZ-RBAC: a RoleBinding grants its Role's rules in its namespace only, to its user, group or service account")
    void roleBindings() {
        Authorization a = authorization(podReader(), binding("User", "alice"));
        Decision allowed = a.decide(res(ALICE, "list", "", "pods", "", "team", ""));
        assertTrue(allowed.allowed());
        assertEquals("RBAC: allowed by RoleBinding \"b/team\" of Role \"pod-reader\" to User \"alice\"", allowed.reason());
        assertFalse(a.decide(res(ALICE, "list", "", "pods", "", "default", "")).allowed());
        assertFalse(a.decide(res(ALICE, "delete", "", "pods", "", "team", "web")).allowed());
        assertFalse(a.decide(res(ALICE, "get", "", "pods", "log", "team", "web")).allowed());
        assertFalse(a.decide(res(user("bob", "system:authenticated"), "list", "", "pods", "", "team", "")).allowed());

        Authorization byGroup = authorization(podReader(), binding("Group", "readers"));
        assertTrue(byGroup.decide(res(user("bob", "readers"), "get", "", "pods", "", "team", "x")).allowed());
        Authorization byAccount = authorization(podReader(), binding("ServiceAccount", "builder"));
        assertTrue(byAccount.decide(res(user("system:serviceaccount:team:builder"), "get", "", "pods", "", "team", "x"))
                .allowed());
        assertFalse(byAccount.decide(res(user("system:serviceaccount:other:builder"), "get", "", "pods", "", "team", "x"))
                .allowed());
    }

    @Test
    @DisplayName("AUTHZ-BOOTSTRAP: system:masters may do anything; authenticated users discover, review themselves and nothing else")
    void bootstrapRoles() {
        Authorization a = authorization();
        assertTrue(a.decide(res(user("root", "system:masters"), "delete", "", "nodes", "", "", "n1")).allowed());
        assertTrue(a.decide(Attributes.nonResource(ALICE, "get", "/apis/apps/v1")).allowed());
        assertTrue(a.decide(Attributes.nonResource(ALICE, "get", "/version")).allowed());
        assertTrue(a.decide(Attributes.nonResource(user("system:anonymous", "system:unauthenticated"), "get", "/healthz"))
                .allowed());
        assertFalse(a.decide(Attributes.nonResource(user("system:anonymous", "system:unauthenticated"), "get", "/apis"))
                .allowed());
        assertTrue(a.decide(res(ALICE, "create", "authorization.k8s.io", "selfsubjectaccessreviews", "", "", ""))
                .allowed());
        assertFalse(a.decide(res(ALICE, "list", "", "namespaces", "", "", "")).allowed());
        assertTrue(a.decide(res(user("system:kube-scheduler"), "create", "", "pods", "binding", "ns", "p")).allowed());
        assertTrue(a.decide(res(user("system:kube-controller-manager"), "create", "apps", "replicasets", "", "ns", ""))
                .allowed());
    }

    @Test
    @DisplayName("AUTHZ-BOOTSTRAP: /healthz, /readyz and /livez answer anyone before the bootstrap roles are in the view (always-allow paths); below them and elsewhere RBAC decides")
    void healthPathsAreAlwaysAllowed() {
        Authorization empty = new Authorization(ObjectStore.of(List.of()), true);
        UserInfo anonymous = user("system:anonymous", "system:unauthenticated");
        for (String path : List.of("/healthz", "/readyz", "/livez")) {
            assertTrue(empty.decide(Attributes.nonResource(anonymous, "get", path)).allowed(), path);
        }
        assertFalse(empty.decide(Attributes.nonResource(anonymous, "get", "/readyz/etcd")).allowed());
        assertFalse(empty.decide(Attributes.nonResource(anonymous, "get", "/version")).allowed());
        assertFalse(empty.decide(res(anonymous, "get", "", "pods", "", "default", "readyz")).allowed());
    }

    @Test
    @DisplayName("AUTHZ-403: Kubernetes' Forbidden messages for objects, collections, cluster scope, subresources and paths")
    void forbiddenMessages() {
        Authorization a = authorization();
        assertEquals("pods \"web\" is forbidden: User \"alice\" cannot get resource \"pods\" in API group \"\" in the "
                + "namespace \"team\"", message(a, res(ALICE, "get", "", "pods", "", "team", "web")));
        assertEquals("deployments.apps is forbidden: User \"alice\" cannot list resource \"deployments\" in API group "
                + "\"apps\" in the namespace \"team\"", message(a, res(ALICE, "list", "apps", "deployments", "", "team", "")));
        assertEquals("nodes is forbidden: User \"alice\" cannot watch resource \"nodes\" in API group \"\" at the cluster "
                + "scope", message(a, res(ALICE, "watch", "", "nodes", "", "", "")));
        assertEquals("deployments.apps \"d\" is forbidden: User \"alice\" cannot patch resource \"deployments/scale\" in "
                + "API group \"apps\" in the namespace \"team\"",
                message(a, res(ALICE, "patch", "apps", "deployments", "scale", "team", "d")));
        assertEquals("forbidden: User \"alice\" cannot post path \"/logs\"",
                message(a, Attributes.nonResource(ALICE, "post", "/logs")));
        assertEquals(403, Authorization.forbidden(res(ALICE, "get", "", "pods", "", "team", "web"), Decision.noOpinion(""))
                .code());
    }

    private static String message(Authorization a, Attributes attributes) {
        Decision d = a.decide(attributes);
        assertFalse(d.allowed());
        return Authorization.forbidden(attributes, d).message();
    }

    @Test
    @DisplayName("AUTHZ-ESCALATE: roles and bindings may grant only what their writer holds, unless it may escalate or bind")
    void escalation() {
        RoleBinding admin = RoleBinding.newBuilder(binding("User", "alice")).setRoleRef(RoleRef.newBuilder()
                .setApiGroup("rbac.authorization.k8s.io").setKind("ClusterRole").setName("admin").build()).build();
        Authorization a = authorization(admin);
        a.checkWrite(ALICE, true, io.eventplane.core.kinds.Kinds.ROLE, "team", "readers", podReader());
        Role nodes = Role.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("too-much").setNamespace("team")
                .build()).setRules(List.of(PolicyRule.newBuilder().setVerbs(List.of("list", "watch"))
                .setApiGroups(List.of("")).setResources(List.of("nodes", "pods")).build())).build();
        io.eventplane.gateway.wire.ApiException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.eventplane.gateway.wire.ApiException.class,
                () -> a.checkWrite(ALICE, true, io.eventplane.core.kinds.Kinds.ROLE, "team", "too-much", nodes));
        assertEquals("roles.rbac.authorization.k8s.io \"too-much\" is forbidden: user \"alice\" "
                + "(groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n"
                + "{APIGroups:[\"\"], Resources:[\"nodes\"], Verbs:[\"list\" \"watch\"]}", e.status().message());
        RoleBinding toClusterAdmin = RoleBinding.newBuilder(binding("User", "bob")).setRoleRef(RoleRef.newBuilder()
                .setApiGroup("rbac.authorization.k8s.io").setKind("ClusterRole").setName("cluster-admin").build()).build();
        assertEquals(403, org.junit.jupiter.api.Assertions.assertThrows(io.eventplane.gateway.wire.ApiException.class,
                () -> a.checkWrite(ALICE, true, io.eventplane.core.kinds.Kinds.ROLE_BINDING, "team", "b", toClusterAdmin))
                .status().code());
        RoleBinding toView = RoleBinding.newBuilder(toClusterAdmin).setRoleRef(RoleRef.newBuilder()
                .setApiGroup("rbac.authorization.k8s.io").setKind("ClusterRole").setName("view").build()).build();
        a.checkWrite(ALICE, true, io.eventplane.core.kinds.Kinds.ROLE_BINDING, "team", "b", toView);
        a.checkWrite(user("root", "system:masters"), true, io.eventplane.core.kinds.Kinds.ROLE_BINDING, "team", "b",
                toClusterAdmin);
    }

    private static Pod pod(String name, String node, String configMap) {
        PodSpec.Builder spec = PodSpec.newBuilder().setNodeName(node);
        if (configMap != null) {
            spec.setVolumes(List.of(Volume.newBuilder().setName("v")
                    .setConfigMap(ConfigMapVolumeSource.newBuilder().setName(configMap).build()).build()));
        }
        return Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("team").build())
                .setSpec(spec.build()).build();
    }

    @Test
    @DisplayName("AUTHZ-NODE: a node reads its pods and what they mount, writes its own pods, Node and Lease; others are refused")
    void nodeAuthorizer() {
        Authorization a = authorization(pod("mine", "n1", "settings"), pod("theirs", "n2", "other"));
        assertTrue(a.decide(res(NODE1, "get", "", "pods", "", "team", "mine")).allowed());
        assertTrue(a.decide(res(NODE1, "get", "", "configmaps", "", "team", "settings")).allowed());
        assertTrue(a.decide(res(NODE1, "patch", "", "pods", "status", "team", "mine")).allowed());
        assertTrue(a.decide(res(NODE1, "update", "coordination.k8s.io", "leases", "", "kube-node-lease", "n1")).allowed());
        assertTrue(a.decide(res(NODE1, "patch", "", "nodes", "status", "", "n1")).allowed());
        assertEquals("configmaps \"other\" is forbidden: User \"system:node:n1\" cannot get resource \"configmaps\" in API "
                + "group \"\" in the namespace \"team\": no relationship found between node 'n1' and this object",
                message(a, res(NODE1, "get", "", "configmaps", "", "team", "other")));
        assertEquals("pods \"theirs\" is forbidden: node \"n1\" can only update pod status for pods with spec.nodeName "
                + "set to itself", message(a, res(NODE1, "update", "", "pods", "status", "team", "theirs")));
        assertEquals("pods \"theirs\" is forbidden: node \"n1\" can only delete pods with spec.nodeName set to itself",
                message(a, res(NODE1, "delete", "", "pods", "", "team", "theirs")));
        assertEquals("nodes \"n2\" is forbidden: node \"n1\" is not allowed to modify node \"n2\"",
                message(a, res(NODE1, "patch", "", "nodes", "status", "", "n2")));
        assertEquals("leases.coordination.k8s.io \"n2\" is forbidden: User \"system:node:n1\" cannot update resource "
                + "\"leases\" in API group \"coordination.k8s.io\" in the namespace \"kube-node-lease\": can only access "
                + "node lease with the same name as the requesting node",
                message(a, res(NODE1, "update", "coordination.k8s.io", "leases", "", "kube-node-lease", "n2")));
        assertFalse(a.decide(res(NODE1, "create", "apps", "deployments", "", "team", "")).allowed());

        // NodeRestriction on what a node creates: mirror pods bound to itself, its own Node and Lease
        Pod mirror = Pod.newBuilder(pod("static", "n1", null)).setMetadata(ObjectMeta.newBuilder().setName("static")
                .setNamespace("team").setAnnotations(Map.of("kubernetes.io/config.mirror", "x")).build()).build();
        a.checkWrite(NODE1, true, io.eventplane.core.kinds.Kinds.POD, "team", "static", mirror);
        assertEquals("pods \"plain\" is forbidden: pod does not have \"kubernetes.io/config.mirror\" annotation, node "
                + "\"n1\" can only create mirror pods", org.junit.jupiter.api.Assertions.assertThrows(
                io.eventplane.gateway.wire.ApiException.class, () -> a.checkWrite(NODE1, true,
                        io.eventplane.core.kinds.Kinds.POD, "team", "plain", pod("plain", "n1", null))).status().message());
        Pod elsewhere = Pod.newBuilder(mirror).setSpec(PodSpec.newBuilder().setNodeName("n2").build()).build();
        assertEquals("pods \"static\" is forbidden: node \"n1\" can only create pods with spec.nodeName set to itself",
                org.junit.jupiter.api.Assertions.assertThrows(io.eventplane.gateway.wire.ApiException.class,
                        () -> a.checkWrite(NODE1, true, io.eventplane.core.kinds.Kinds.POD, "team", "static", elsewhere))
                        .status().message());
    }

    @Test
    @DisplayName("AUTHZ-IMPERSONATE: impersonation is RBAC's verb impersonate on users, groups, serviceaccounts, uids and userextras")
    void impersonateVerb() {
        io.eventplane.model.rbac.ClusterRole impersonator = io.eventplane.model.rbac.ClusterRole.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("impersonator").build())
                .setRules(List.of(
                        PolicyRule.newBuilder().setVerbs(List.of("impersonate")).setApiGroups(List.of(""))
                                .setResources(List.of("users")).setResourceNames(List.of("carol")).build(),
                        PolicyRule.newBuilder().setVerbs(List.of("impersonate")).setApiGroups(List.of(""))
                                .setResources(List.of("groups")).build(),
                        PolicyRule.newBuilder().setVerbs(List.of("impersonate"))
                                .setApiGroups(List.of("authentication.k8s.io"))
                                .setResources(List.of("userextras/scopes", "uids")).build())).build();
        io.eventplane.model.rbac.ClusterRoleBinding toAlice = io.eventplane.model.rbac.ClusterRoleBinding.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("alice-impersonates").build())
                .setRoleRef(RoleRef.newBuilder().setApiGroup("rbac.authorization.k8s.io").setKind("ClusterRole")
                        .setName("impersonator").build())
                .setSubjects(List.of(Subject.newBuilder().setKind("User").setName("alice")
                        .setApiGroup("rbac.authorization.k8s.io").build())).build();
        Authorization a = authorization(impersonator, toAlice, podReader(), binding("User", "alice"));
        assertTrue(a.mayImpersonate(ALICE, "users", null, "carol"));
        assertFalse(a.mayImpersonate(ALICE, "users", null, "dave"), "resourceNames limit whom");
        assertTrue(a.mayImpersonate(ALICE, "groups", null, "devs"));
        assertTrue(a.mayImpersonate(ALICE, "uids", null, "1234"));
        assertTrue(a.mayImpersonate(ALICE, "userextras/scopes", null, "view"));
        assertFalse(a.mayImpersonate(ALICE, "userextras/other", null, "x"));
        assertFalse(a.mayImpersonate(ALICE, "serviceaccounts", "team", "builder"));
        assertFalse(a.mayImpersonate(user("bob", "system:authenticated"), "users", null, "carol"));
        assertTrue(a.mayImpersonate(user("root", "system:masters"), "users", null, "anyone"));
        // the bootstrap edit role lets a namespace's editors act as its service accounts, and nowhere else
        Authorization edit = authorization(io.eventplane.model.rbac.RoleBinding.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("alice-edits").setNamespace("team").build())
                .setRoleRef(RoleRef.newBuilder().setApiGroup("rbac.authorization.k8s.io").setKind("ClusterRole")
                        .setName("edit").build())
                .setSubjects(List.of(Subject.newBuilder().setKind("User").setName("alice")
                        .setApiGroup("rbac.authorization.k8s.io").build())).build());
        assertTrue(edit.mayImpersonate(ALICE, "serviceaccounts", "team", "builder"));
        assertFalse(edit.mayImpersonate(ALICE, "serviceaccounts", "other", "builder"));
        assertFalse(edit.mayImpersonate(ALICE, "users", null, "carol"));
    }
}
