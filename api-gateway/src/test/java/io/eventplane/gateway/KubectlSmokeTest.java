package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The real kubectl (the dispatcher on PATH picks kubectl 1.32 from /version) against the gateway; skipped without it. */
class KubectlSmokeTest {
    private static GatewayFixture f;
    private static Path dir;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(kubectl() != null, "kubectl is not on PATH");
        f = GatewayFixture.start();
        dir = Files.createTempDirectory("kubectl");
        Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: eventplane
                  cluster:
                    server: %s
                contexts:
                - name: eventplane
                  context:
                    cluster: eventplane
                    user: anonymous
                    namespace: default
                current-context: eventplane
                users:
                - name: anonymous
                  user: {}
                """.formatted(f.url()));
        assertEquals(201, f.post("/api/v1/nodes", GatewayFixture.node("node-1")).statusCode());
    }

    @AfterAll
    static void stop() {
        if (f != null) {
            f.close();
        }
    }

    private static String kubectl() {
        for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File k = new File(p, "kubectl");
            if (k.canExecute()) {
                return k.getPath();
            }
        }
        return null;
    }

    private record Result(int exit, String out) {
    }

    private static Result run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(kubectl(), "--kubeconfig", dir.resolve("kubeconfig").toString(),
                "--cache-dir", dir.resolve("cache").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("HOME", dir.toString());
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("kubectl get nodes, apply -f (create then update), get pods -o wide, describe and delete work")
    void kubectlBasics() throws Exception {
        Result nodes = run("get", "nodes");
        assertEquals(0, nodes.exit(), nodes.out());
        assertTrue(nodes.out().matches("(?s)NAME\\s+STATUS\\s+ROLES\\s+AGE\\s+VERSION.*node-1\\s+Ready\\s+worker.*"),
                nodes.out());

        Path pod = dir.resolve("pod.yaml");
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
        Result created = run("apply", "-f", pod.toString());
        assertEquals(0, created.exit(), created.out());
        assertTrue(created.out().contains("pod/nginx created"), created.out());
        Files.writeString(pod, Files.readString(pod).replace("{app: nginx}", "{app: nginx, tier: web}"));
        Result updated = run("apply", "-f", pod.toString());
        assertEquals(0, updated.exit(), updated.out());
        assertTrue(updated.out().contains("pod/nginx configured"), updated.out());

        Result wide = run("get", "pods", "-o", "wide");
        assertEquals(0, wide.exit(), wide.out());
        assertTrue(wide.out().matches("(?s)NAME\\s+READY\\s+STATUS\\s+RESTARTS\\s+AGE\\s+IP\\s+NODE\\s+NOMINATED NODE\\s+"
                + "READINESS GATES.*nginx\\s+0/1\\s+Pending\\s+0.*"), wide.out());

        Result labels = run("get", "pods", "-l", "tier=web", "-o", "name");
        assertEquals("pod/nginx", labels.out().trim());

        Result describe = run("describe", "pod", "nginx");
        assertEquals(0, describe.exit(), describe.out());
        assertTrue(describe.out().contains("Port:") && describe.out().contains("80/TCP"), describe.out());

        Result deleted = run("delete", "pod", "nginx", "--wait=true", "--timeout=30s");
        assertEquals(0, deleted.exit(), deleted.out());
        assertTrue(deleted.out().contains("pod \"nginx\" deleted"), deleted.out());
        Result gone = run("get", "pod", "nginx");
        assertTrue(gone.out().contains("NotFound"), gone.out());
    }
}
