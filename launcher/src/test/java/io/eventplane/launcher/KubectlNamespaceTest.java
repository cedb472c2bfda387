package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 with the real kubectl: a namespace's life (create, a Deployment in it, delete: Terminating, new content
 * refused, contents deleted, namespace gone) and a ResourceQuota refusing a pod, against the API gateway, the writer,
 * the scheduler, simulated nodes and the controllers on a real broker. Skipped without kubectl.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlNamespaceTest {
    private KubectlCluster cluster;
    private Kubectl kubectl;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = KubectlCluster.start(tmp, "replicaset,deployment,garbagecollector,namespace,serviceaccount,"
                + "resourcequota");
        kubectl = cluster.kubectl();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("kubectl delete ns: Terminating, new content refused, the Deployment and its pods deleted, the namespace gone")
    void namespaceLife() throws Exception {
        assertEquals("namespace/shop created\n", kubectl.ok("create", "namespace", "shop"));
        kubectl.until(o -> o.contains("default"), "get", "serviceaccounts", "-n", "shop");
        assertEquals("deployment.apps/web created\n",
                kubectl.ok("create", "deployment", "web", "--image=nginx:1.27", "--replicas=2", "-n", "shop"));
        kubectl.until(o -> o.split("Running").length == 3, "get", "pods", "-n", "shop", "--no-headers");
        // a finalizer of our own holds one object, so the namespace stays Terminating while we look at it
        assertEquals("configmap/hold created\n", kubectl.ok("create", "configmap", "hold", "-n", "shop"));
        kubectl.ok("patch", "configmap", "hold", "-n", "shop", "--type=merge", "-p", "{\"metadata\":{\"finalizers\":[\"example.com/hold\"]}}");

        assertEquals("namespace \"shop\" deleted\n", kubectl.ok("delete", "namespace", "shop", "--wait=false"));
        assertTrue(kubectl.ok("get", "namespace", "shop", "--no-headers").matches("shop\\s+Terminating\\s+\\S+\\n"));
        // kubectl's create generators wrap the server's message (kubectl create configmap does so against Kubernetes too)
        assertEquals("error: failed to create configmap: configmaps \"late\" is forbidden: unable to create new content in "
                + "namespace shop because it is being terminated\n",
                kubectl.fails("create", "configmap", "late", "-n", "shop"));
        assertEquals("Error from server (Conflict): Operation cannot be fulfilled on namespaces \"shop\": The system is "
                + "ensuring all content is removed from this namespace.  Upon completion, this namespace will "
                + "automatically be purged by the system.\n", kubectl.fails("delete", "namespace", "shop", "--wait=false"));
        kubectl.until(o -> o.contains("Some content in the namespace has finalizers remaining: example.com/hold in 1 resource "
                + "instances"), "get", "namespace", "shop", "-o", "jsonpath={.status.conditions}");
        kubectl.until(o -> o.startsWith("No resources found"), "get", "deployments,replicasets,pods", "-n", "shop");

        kubectl.ok("patch", "configmap", "hold", "-n", "shop", "--type=merge", "-p", "{\"metadata\":{\"finalizers\":null}}");
        kubectl.ok("wait", "--for=delete", "namespace/shop", "--timeout=60s");
        assertEquals("Error from server (NotFound): namespaces \"shop\" not found\n", kubectl.fails("get", "namespace", "shop"));
        assertEquals("Error from server (Forbidden): namespaces \"default\" is forbidden: this namespace may not be "
                + "deleted\n", kubectl.fails("delete", "namespace", "default"));
    }

    @Test
    @DisplayName("kubectl create quota; a pod beyond it is refused with Kubernetes' exact message")
    void quota() throws Exception {
        kubectl.ok("create", "namespace", "quoted");
        kubectl.until(o -> o.contains("default"), "get", "serviceaccounts", "-n", "quoted");
        Kubectl.Result created = kubectl.run("create", "quota", "pods", "--hard=pods=1,limits.cpu=1", "-n", "quoted");
        assertEquals("resourcequota/pods created\n", created.out(), created.out());
        kubectl.until(o -> o.contains("pods: 0/1"), "get", "quota", "pods", "-n", "quoted", "--no-headers");

        assertEquals("Error from server (Forbidden): pods \"bare\" is forbidden: failed quota: pods: must specify "
                + "limits.cpu for: bare\n", kubectl.fails("run", "bare", "--image=nginx:1.27", "-n", "quoted"));
        String overrides = "--overrides={\"spec\":{\"containers\":[{\"name\":\"%s\",\"image\":\"nginx:1.27\","
                + "\"resources\":{\"limits\":{\"cpu\":\"500m\"}}}]}}";
        assertEquals("pod/first created\n", kubectl.ok("run", "first", "--image=nginx:1.27", "-n", "quoted",
                overrides.formatted("first")));
        assertEquals("Error from server (Forbidden): pods \"second\" is forbidden: exceeded quota: pods, requested: "
                + "pods=1, used: pods=1, limited: pods=1\n", kubectl.fails("run", "second", "--image=nginx:1.27", "-n", "quoted",
                overrides.formatted("second")));
        String described = kubectl.ok("describe", "quota", "pods", "-n", "quoted");
        assertTrue(described.matches("(?s).*limits\\.cpu\\s+500m\\s+1\\n.*pods\\s+1\\s+1\\n.*"), described);
    }

    @Test
    @DisplayName("kubectl create serviceaccount: pods run as default or as the one they name, a missing one is refused, default comes back when deleted")
    void serviceAccounts() throws Exception {
        kubectl.ok("create", "namespace", "accounts");
        kubectl.until(o -> o.contains("default"), "get", "serviceaccounts", "-n", "accounts");
        assertEquals("serviceaccount/builder created\n", kubectl.ok("create", "serviceaccount", "builder", "-n", "accounts"));
        kubectl.ok("run", "plain", "--image=nginx:1.27", "-n", "accounts");
        assertEquals("default", kubectl.ok("get", "pod", "plain", "-n", "accounts", "-o",
                "jsonpath={.spec.serviceAccountName}"));
        kubectl.ok("run", "built", "--image=nginx:1.27", "-n", "accounts",
                "--overrides={\"spec\":{\"serviceAccountName\":\"builder\"}}");
        assertEquals("builder", kubectl.ok("get", "pod", "built", "-n", "accounts", "-o",
                "jsonpath={.spec.serviceAccountName}"));
        assertEquals("Error from server (Forbidden): pods \"lost\" is forbidden: error looking up service account "
                + "accounts/ghost: serviceaccount \"ghost\" not found\n", kubectl.fails("run", "lost",
                "--image=nginx:1.27", "-n", "accounts", "--overrides={\"spec\":{\"serviceAccountName\":\"ghost\"}}"));

        String uid = kubectl.ok("get", "sa", "default", "-n", "accounts", "-o", "jsonpath={.metadata.uid}");
        kubectl.ok("delete", "sa", "default", "-n", "accounts");
        kubectl.until(o -> !o.isEmpty() && !o.equals(uid) && !o.contains("NotFound"), "get", "sa", "default", "-n",
                "accounts", "-o", "jsonpath={.metadata.uid}");
    }

    @Test
    @DisplayName("kubectl create priorityclass --global-default: one only; a pod without a class gets its value")
    void globalDefaultPriority() throws Exception {
        kubectl.ok("create", "namespace", "ranked");
        kubectl.until(o -> o.contains("default"), "get", "serviceaccounts", "-n", "ranked");
        assertEquals("priorityclass.scheduling.k8s.io/everyone created\n",
                kubectl.ok("create", "priorityclass", "everyone", "--value=10", "--global-default"));
        try {
            assertEquals("error: failed to create priorityclass: priorityclasses.scheduling.k8s.io \"second\" is "
                    + "forbidden: PriorityClass everyone is marked as default. Only one default can exist\n",
                    kubectl.fails("create", "priorityclass", "second", "--value=20", "--global-default"));
            kubectl.ok("run", "plain", "--image=nginx:1.27", "-n", "ranked");
            assertEquals("everyone 10", kubectl.ok("get", "pod", "plain", "-n", "ranked", "-o",
                    "jsonpath={.spec.priorityClassName} {.spec.priority}"));
            kubectl.ok("run", "critical", "--image=nginx:1.27", "-n", "ranked",
                    "--overrides={\"spec\":{\"priorityClassName\":\"system-cluster-critical\"}}");
            assertEquals("2000000000", kubectl.ok("get", "pod", "critical", "-n", "ranked", "-o",
                    "jsonpath={.spec.priority}"));
        } finally {
            kubectl.ok("delete", "priorityclass", "everyone");
        }
    }
}
