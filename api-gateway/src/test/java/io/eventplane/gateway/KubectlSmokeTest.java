package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The real kubectl (the dispatcher on PATH picks kubectl 1.32 from /version) against the gateway; skipped without it. */
class KubectlSmokeTest {
    @RegisterExtension
    static final Kubectl kubectl = new Kubectl();

    @BeforeAll
    static void start() throws Exception {
        assertEquals(201, kubectl.gateway.post("/api/v1/nodes", GatewayFixture.node("node-1")).statusCode());
    }

    @Test
    @DisplayName("kubectl get nodes, apply -f (create then update), get pods -o wide, describe and delete work")
    void kubectlBasics() throws Exception {
        Kubectl.Result nodes = kubectl.run("get", "nodes");
        assertEquals(0, nodes.exit(), nodes.out());
        assertTrue(nodes.out().matches("(?s)NAME\\s+STATUS\\s+ROLES\\s+AGE\\s+VERSION.*node-1\\s+Ready\\s+worker.*"),
                nodes.out());

        Path pod = kubectl.dir().resolve("pod.yaml");
        Files.writeString(pod, """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: nginx
                  labels: {app: nginx}
                spec:
                  containers:
                  - name: nginx
                    image: nginx:1.27
                    ports:
                    - containerPort: 80
                """);
        Kubectl.Result created = kubectl.run("apply", "-f", pod.toString());
        assertEquals(0, created.exit(), created.out());
        assertTrue(created.out().contains("pod/nginx created"), created.out());
        Files.writeString(pod, Files.readString(pod).replace("{app: nginx}", "{app: nginx, tier: web}"));
        Kubectl.Result updated = kubectl.run("apply", "-f", pod.toString());
        assertEquals(0, updated.exit(), updated.out());
        assertTrue(updated.out().contains("pod/nginx configured"), updated.out());

        Kubectl.Result wide = kubectl.run("get", "pods", "-o", "wide");
        assertEquals(0, wide.exit(), wide.out());
        assertTrue(wide.out().matches("(?s)NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE\\s+IP\\s+NODE\\s+NOMINATED NODE\\s+"
                + "READINESS GATES.*nginx\\s+0/1\\s+Pending\\s+0.*"), wide.out());

        Kubectl.Result labels = kubectl.run("get", "pods", "-l", "tier=web", "-o", "name");
        assertEquals("pod/nginx", labels.out().trim());

        Kubectl.Result describe = kubectl.run("describe", "pod", "nginx");
        assertEquals(0, describe.exit(), describe.out());
        assertTrue(describe.out().contains("Port:") && describe.out().contains("80/TCP"), describe.out());

        Kubectl.Result deleted = kubectl.run("delete", "pod", "nginx", "--wait=true", "--timeout=30s");
        assertEquals(0, deleted.exit(), deleted.out());
        assertTrue(deleted.out().contains("pod \"nginx\" deleted"), deleted.out());
        Kubectl.Result gone = kubectl.run("get", "pod", "nginx");
        assertTrue(gone.out().contains("NotFound"), gone.out());
    }
}
