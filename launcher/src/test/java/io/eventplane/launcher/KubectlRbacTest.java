package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.gateway.api.RequestUser;
import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 authorization with the real kubectl: RBAC objects made by kubectl's generators (protobuf bodies), a user
 * bound to a namespaced Role who can do exactly what it grants and gets Kubernetes' 403 elsewhere, {@code kubectl auth
 * can-i} and {@code whoami}, and the Node authorizer's rule that a node touches only its own pods and Node. Skipped
 * without kubectl.
 *
 * <p>Users are named with {@code kubectl --as/--as-group}: TEST ONLY, {@link RequestUser} takes them as the user until
 * authentication lands, when they become real impersonation by the administrator (kubectl without them, in
 * system:masters), which yields the same user.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlRbacTest {
    private static final String IDENTITIES = RequestUser.TEST_IDENTITIES.toLowerCase().replace('_', '.');
    private KubectlCluster cluster;
    private Kubectl kubectl;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        System.setProperty(IDENTITIES, "true");
        cluster = KubectlCluster.start(tmp, "namespace,serviceaccount,clusterrole-aggregation");
        kubectl = cluster.kubectl();
        kubectl.ok("create", "namespace", "team");
        kubectl.until(o -> o.contains("default"), "get", "serviceaccounts", "-n", "team");
    }

    @AfterAll
    void stop() {
        System.clearProperty(IDENTITIES);
        if (cluster != null) {
            cluster.close();
        }
    }

    /** kubectl as {@code user} in {@code groups}. */
    private Kubectl.Result as(String user, String groups, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--as=" + user));
        if (!groups.isEmpty()) {
            all.add("--as-group=" + groups);
        }
        all.addAll(List.of(args));
        return kubectl.run(all.toArray(String[]::new));
    }

    private String asOk(String user, String... args) throws Exception {
        Kubectl.Result r = as(user, "", args);
        assertEquals(0, r.exit(), r.out());
        return r.out();
    }

    private String asFails(String user, String groups, String... args) throws Exception {
        Kubectl.Result r = as(user, groups, args);
        assertEquals(1, r.exit(), r.out());
        return r.out();
    }

    @Test
    @DisplayName("AUTHZ-RBAC: a user bound to a namespaced Role does exactly what it grants; elsewhere Kubernetes' 403")
    void namespacedRole() throws Exception {
        assertEquals("role.rbac.authorization.k8s.io/pod-reader created\n", kubectl.ok("create", "role", "pod-reader",
                "--verb=get,list,watch", "--resource=pods,pods/log", "-n", "team"));
        assertEquals("rolebinding.rbac.authorization.k8s.io/alice-reads created\n", kubectl.ok("create",
                "rolebinding", "alice-reads", "--role=pod-reader", "--user=alice", "--group=readers",
                "--serviceaccount=team:default", "-n", "team"));
        assertTrue(kubectl.ok("get", "role", "-n", "team").matches("NAME\\s+CREATED AT\\npod-reader\\s+\\d{4}-\\d\\d-\\d\\dT"
                + "\\d\\d:\\d\\d:\\d\\dZ\\n"));
        String wide = kubectl.ok("get", "rolebinding", "alice-reads", "-n", "team", "-o", "wide");
        assertTrue(wide.matches("NAME\\s+ROLE\\s+AGE\\s+USERS\\s+GROUPS\\s+SERVICEACCOUNTS\\n"
                + "alice-reads\\s+Role/pod-reader\\s+\\S+\\s+alice\\s+readers\\s+team/default\\n"), wide);
        kubectl.ok("run", "web", "--image=nginx:1.27", "-n", "team");
        kubectl.ok("create", "configmap", "settings", "-n", "team");

        assertTrue(asOk("alice", "get", "pods", "-n", "team").contains("web"));
        assertTrue(asOk("alice", "get", "pod", "web", "-n", "team", "-o", "name").equals("pod/web\n"));
        assertEquals("Error from server (Forbidden): pods is forbidden: User \"alice\" cannot list resource \"pods\" in "
                + "API group \"\" in the namespace \"default\"\n", asFails("alice", "", "get", "pods", "-n", "default"));
        assertEquals("Error from server (Forbidden): pods \"web\" is forbidden: User \"alice\" cannot delete resource "
                + "\"pods\" in API group \"\" in the namespace \"team\"\n",
                asFails("alice", "", "delete", "pod", "web", "-n", "team"));
        assertEquals("Error from server (Forbidden): configmaps \"settings\" is forbidden: User \"alice\" cannot get "
                + "resource \"configmaps\" in API group \"\" in the namespace \"team\"\n",
                asFails("alice", "", "get", "configmap", "settings", "-n", "team"));
        assertEquals("Error from server (Forbidden): nodes is forbidden: User \"alice\" cannot list resource \"nodes\" "
                + "in API group \"\" at the cluster scope\n", asFails("alice", "", "get", "nodes"));
        assertEquals("Error from server (Forbidden): deployments.apps is forbidden: User \"alice\" cannot list "
                + "resource \"deployments\" in API group \"apps\" in the namespace \"team\"\n",
                asFails("alice", "", "get", "deployments", "-n", "team"));
        // kubectl patch reads the object first, through the same subresource
        assertEquals("Error from server (Forbidden): pods \"web\" is forbidden: User \"alice\" cannot get resource "
                + "\"pods/status\" in API group \"\" in the namespace \"team\"\n", asFails("alice", "", "patch", "pod",
                "web", "-n", "team", "--subresource=status", "--type=merge", "-p", "{\"status\":{}}"));
        // the WebSocket upgrades are authorized too, with the create verb as Kubernetes 1.31+ asks of them
        Kubectl.Result exec = as("alice", "", "exec", "web", "-n", "team", "--", "env");
        assertTrue(exec.exit() != 0 && exec.out().contains("pods \"web\" is forbidden: User \"alice\" cannot create "
                + "resource \"pods/exec\" in API group \"\" in the namespace \"team\""), exec.out());
        // the group and the service account of the binding get the same
        assertEquals(0, as("bob", "readers", "get", "pods", "-n", "team").exit());
        assertEquals(0, as("system:serviceaccount:team:default", "", "get", "pods", "-n", "team").exit());
        assertEquals(1, as("bob", "", "get", "pods", "-n", "team").exit());
    }

    @Test
    @DisplayName("AUTHZ-ESCALATE: a namespace admin grants what it holds, and is refused a role or binding beyond it")
    void escalation() throws Exception {
        kubectl.ok("create", "rolebinding", "dave-admin", "--clusterrole=admin", "--user=dave", "-n", "team");
        assertEquals("role.rbac.authorization.k8s.io/pod-writer created\n",
                asOk("dave", "create", "role", "pod-writer", "--verb=create,delete", "--resource=pods", "-n", "team"));
        assertEquals("rolebinding.rbac.authorization.k8s.io/erin-views created\n",
                asOk("dave", "create", "rolebinding", "erin-views", "--clusterrole=view", "--user=erin", "-n", "team"));
        String refused = asFails("dave", "", "create", "role", "node-reader", "--verb=list", "--resource=nodes",
                "-n", "team");
        assertTrue(refused.contains("roles.rbac.authorization.k8s.io \"node-reader\" is forbidden: user \"dave\" "
                + "(groups=[\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n"
                + "{APIGroups:[\"\"], Resources:[\"nodes\"], Verbs:[\"list\"]}"), refused);
        assertTrue(asFails("dave", "", "create", "rolebinding", "erin-root", "--clusterrole=cluster-admin",
                "--user=erin", "-n", "team").contains("is attempting to grant RBAC permissions not currently held"));
    }

    @Test
    @DisplayName("AUTHZ-CANI: kubectl auth can-i answers yes/no from the bindings, --list shows the rules, whoami the user")
    void canIAndWhoami() throws Exception {
        kubectl.ok("create", "clusterrole", "lease-writer", "--verb=create,update", "--resource=leases.coordination.k8s.io");
        kubectl.ok("create", "rolebinding", "carol-leases", "--clusterrole=lease-writer", "--user=carol", "-n", "team");
        assertEquals("yes\n", asOk("carol", "auth", "can-i", "create", "leases.coordination.k8s.io", "-n", "team"));
        assertEquals("no\n", asFails("carol", "", "auth", "can-i", "create", "leases.coordination.k8s.io", "-n", "default"));
        assertEquals("no\n", asFails("carol", "", "auth", "can-i", "delete", "leases.coordination.k8s.io", "-n", "team"));
        assertEquals("yes\n", kubectl.ok("auth", "can-i", "delete", "nodes", "--all-namespaces"));
        String list = asOk("carol", "auth", "can-i", "--list", "-n", "team");
        assertTrue(list.matches("(?s).*leases\\.coordination\\.k8s\\.io\\s+\\[\\]\\s+\\[\\]\\s+\\[create update\\].*"), list);
        assertTrue(list.matches("(?s).*selfsubjectaccessreviews\\.authorization\\.k8s\\.io\\s+\\[\\]\\s+\\[\\]\\s+\\[create\\].*"),
                list);
        String whoami = asOk("carol", "auth", "whoami");
        assertTrue(whoami.matches("ATTRIBUTE\\s+VALUE\\nUsername\\s+carol\\nGroups\\s+\\[system:authenticated\\]\\n"), whoami);

        assertEquals("clusterrolebinding.rbac.authorization.k8s.io/carol-views created\n",
                kubectl.ok("create", "clusterrolebinding", "carol-views", "--clusterrole=view", "--user=carol"));
        assertEquals("yes\n", asOk("carol", "auth", "can-i", "list", "pods", "--all-namespaces"));
        String bindings = kubectl.ok("get", "clusterrolebinding", "carol-views", "--no-headers");
        assertTrue(bindings.matches("carol-views\\s+ClusterRole/view\\s+\\S+\\n"), bindings);
    }

    @Test
    @DisplayName("AUTHZ-NODE: a node reads and writes its own pods and Node only; another node's pods and Node are 403")
    void nodeAuthorizer() throws Exception {
        kubectl.ok("create", "configmap", "mounted", "-n", "team");
        kubectl.ok("create", "configmap", "unrelated", "-n", "team");
        kubectl.ok("run", "mine", "--image=nginx:1.27", "-n", "team", "--overrides={\"spec\":{\"nodeName\":\"node-1\","
                + "\"volumes\":[{\"name\":\"c\",\"configMap\":{\"name\":\"mounted\"}}]}}");
        kubectl.ok("run", "theirs", "--image=nginx:1.27", "-n", "team", "--overrides={\"spec\":{\"nodeName\":\"node-2\"}}");
        String node = "system:node:node-1";
        String nodes = "system:nodes";
        assertEquals(0, as(node, nodes, "get", "pod", "mine", "-n", "team").exit());
        assertEquals(0, as(node, nodes, "get", "configmap", "mounted", "-n", "team").exit());
        assertEquals("Error from server (Forbidden): configmaps \"unrelated\" is forbidden: User \"system:node:node-1\" "
                + "cannot get resource \"configmaps\" in API group \"\" in the namespace \"team\": no relationship found "
                + "between node 'node-1' and this object\n",
                asFails(node, nodes, "get", "configmap", "unrelated", "-n", "team"));
        assertEquals("Error from server (Forbidden): pods \"theirs\" is forbidden: User \"system:node:node-1\" cannot "
                + "get resource \"pods\" in API group \"\" in the namespace \"team\": no relationship found between node "
                + "'node-1' and this object\n", asFails(node, nodes, "get", "pod", "theirs", "-n", "team"));
        assertEquals("Error from server (Forbidden): pods \"theirs\" is forbidden: node \"node-1\" can only delete pods "
                + "with spec.nodeName set to itself\n",
                asFails(node, nodes, "delete", "pod", "theirs", "-n", "team", "--wait=false"));
        assertEquals("Error from server (Forbidden): nodes \"node-2\" is forbidden: node \"node-1\" is not allowed to "
                + "modify node \"node-2\"\n", asFails(node, nodes, "label", "node", "node-2", "rack=r1"));
        assertEquals(0, as(node, nodes, "label", "node", "node-1", "rack=r1").exit());
        assertEquals(0, as(node, nodes, "delete", "pod", "mine", "-n", "team", "--wait=false").exit());
        // the name alone is not a node: without the system:nodes group it is an ordinary user with no bindings
        assertEquals(1, as(node, "", "get", "pod", "theirs", "-n", "team").exit());
    }

    @Test
    @DisplayName("AUTHZ-AGGREGATE: a ClusterRole labelled aggregate-to-edit extends edit (the clusterrole-aggregation "
            + "controller); the bootstrap roles are already their own aggregate")
    void aggregation() throws Exception {
        kubectl.ok("create", "rolebinding", "frank-edits", "--clusterrole=edit", "--user=frank", "-n", "team");
        assertEquals("no\n", asFails("frank", "", "auth", "can-i", "create", "leases.coordination.k8s.io", "-n", "team"));
        kubectl.ok("create", "clusterrole", "lease-editor", "--verb=create,update",
                "--resource=leases.coordination.k8s.io");
        kubectl.ok("label", "clusterrole", "lease-editor", "rbac.authorization.k8s.io/aggregate-to-edit=true");
        kubectl.until(o -> o.contains("leases"), "get", "clusterrole", "edit", "-o", "jsonpath={.rules[*].resources}");
        assertEquals("yes\n", asOk("frank", "auth", "can-i", "create", "leases.coordination.k8s.io", "-n", "team"));
        kubectl.until(o -> o.contains("leases"), "get", "clusterrole", "admin", "-o",
                "jsonpath={.rules[*].resources}"); // edit is aggregated into admin in turn

        java.util.List<io.eventplane.model.rbac.ClusterRole> bootstrap =
                io.eventplane.gateway.auth.authz.BootstrapPolicy.clusterRoles();
        for (io.eventplane.model.rbac.ClusterRole role : bootstrap) {
            if (role.getAggregationRule() != null) {
                assertEquals(role.getRules(), io.eventplane.controllers.clusterroleaggregation
                        .ClusterRoleAggregationReconciler.aggregated(role, bootstrap), role.getMetadata().getName());
            }
        }
    }
}
