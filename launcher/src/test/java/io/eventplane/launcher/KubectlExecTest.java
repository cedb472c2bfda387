package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl exec}, {@code cp}, {@code attach} and {@code debug} with the real kubectl, over the WebSocket
 * channel protocol: the simulated container's environment (variables, mounted files, hostname) and its built-in
 * shell.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlExecTest {
    private static final String OBJECTS = """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: settings
            data:
              key: value-1
              mode: fast
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: web
              labels: {app: web, tier: front}
              annotations:
                sim.eventplane.io/exec.app: |
                  - {command: "nginx -v", stderr: "nginx version: nginx/1.27.0\\n"}
            spec:
              containers:
              - name: app
                image: nginx:1.27
                ports: [{containerPort: 80}]
                env:
                - {name: MODE, valueFrom: {configMapKeyRef: {name: settings, key: mode}}}
                - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
                - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
                - {name: NODE_NAME, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
                - {name: MEMORY_LIMIT, valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}}
                resources:
                  limits: {memory: 64Mi}
                volumeMounts:
                - {name: config, mountPath: /etc/config}
                - {name: podinfo, mountPath: /etc/podinfo}
              volumes:
              - {name: config, configMap: {name: settings}}
              - name: podinfo
                downwardAPI:
                  items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: ticker
              annotations:
                sim.eventplane.io/log: "tick {n}"
                sim.eventplane.io/log-interval: 1s
                sim.eventplane.io/run-duration: 6s
            spec:
              restartPolicy: Never
              containers:
              - name: main
                image: busybox:1.36
            """;

    private KubectlCluster cluster;
    private Kubectl kubectl;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = KubectlCluster.start(tmp, "serviceaccount");
        kubectl = cluster.kubectl();
        Files.writeString(kubectl.dir().resolve("objects.yaml"), OBJECTS);
        kubectl.ok("apply", "-f", kubectl.dir().resolve("objects.yaml").toString());
        kubectl.until(o -> o.equals("true"), 60, "get", "pod", "web", "-o",
                "jsonpath={.status.containerStatuses[0].ready}");
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("POD-15.1 POD-15.2 POD-15.3 POD-15.4 POD-15.6 kubectl exec pod -- env: ConfigMap, downward API and service link variables")
    void env() throws Exception {
        String env = kubectl.ok("exec", "web", "--", "env");
        String ip = kubectl.ok("get", "pod", "web", "-o", "jsonpath={.status.podIP}");
        String node = kubectl.ok("get", "pod", "web", "-o", "jsonpath={.spec.nodeName}");
        assertTrue(env.contains("\nMODE=fast\n"), env);
        assertTrue(env.contains("\nPOD_NAME=web\n"), env);
        assertTrue(env.contains("\nPOD_IP=" + ip + "\n"), env);
        assertTrue(env.contains("\nNODE_NAME=" + node + "\n"), env);
        assertTrue(env.contains("\nMEMORY_LIMIT=64\n"), env);
        assertTrue(env.contains("\nHOSTNAME=web\n"), env);
        assertTrue(env.contains("\nKUBERNETES_SERVICE_HOST="), env);
        assertEquals("web\n", kubectl.ok("exec", "web", "-c", "app", "--", "hostname"));
    }

    @Test
    @DisplayName("POD-15.5 kubectl exec: cat and ls of mounted files, a declared response, stdin with -i")
    void filesAndStdin() throws Exception {
        assertEquals("value-1", kubectl.ok("exec", "web", "--", "cat", "/etc/config/key"));
        assertEquals("key\nmode\n", kubectl.ok("exec", "web", "--", "ls", "/etc/config"));
        assertEquals("app=\"web\"\ntier=\"front\"\n", kubectl.ok("exec", "web", "--", "cat", "/etc/podinfo/labels"));
        assertEquals("nginx version: nginx/1.27.0\n", kubectl.ok("exec", "web", "--", "nginx", "-v"));
        Kubectl.Result echoed = kubectl.runWithStdin("hello from stdin\nsecond line\n", "exec", "-i", "web", "--",
                "cat");
        assertEquals(0, echoed.exit(), echoed.out());
        assertEquals("hello from stdin\nsecond line\n", echoed.out());
        Kubectl.Result script = kubectl.runWithStdin("echo one\nhostname\n", "exec", "-i", "web", "--", "sh");
        assertEquals("one\nweb\n", script.out());
    }

    @Test
    @DisplayName("kubectl exec: the exit code comes back (sh -c 'exit 3' is 3; an unknown command is 127, sh: x: not found)")
    void exitCodes() throws Exception {
        Kubectl.Result three = kubectl.run("exec", "web", "--", "sh", "-c", "exit 3");
        assertEquals(3, three.exit(), three.out());
        assertTrue(three.out().contains("command terminated with exit code 3"), three.out());
        Kubectl.Result missing = kubectl.run("exec", "web", "--", "no-such-tool", "--flag");
        assertEquals(127, missing.exit(), missing.out());
        assertTrue(missing.out().contains("sh: no-such-tool: not found"), missing.out());
        Kubectl.Result wrong = kubectl.run("exec", "web", "-c", "nope", "--", "env");
        assertEquals(1, wrong.exit(), wrong.out());
        assertTrue(wrong.out().contains("container nope is not valid for pod web")
                || wrong.out().contains("container nope not found in pod web"), wrong.out());
    }

    @Test
    @DisplayName("kubectl cp pod:/etc/config/key ./x copies a mounted file out of the container (tar cf -)")
    void copyOut() throws Exception {
        Path target = kubectl.dir().resolve("copied-key");
        kubectl.ok("cp", "web:/etc/config/key", target.toString());
        assertEquals("value-1", Files.readString(target));
    }

    @Test
    @DisplayName("kubectl attach: the container's output until it ends")
    void attach() throws Exception {
        kubectl.until(o -> o.contains("running"), 60, "get", "pod", "ticker", "-o",
                "jsonpath={.status.containerStatuses[0].state}");
        String out = kubectl.ok("attach", "ticker", "-c", "main");
        assertTrue(out.matches("(?s).*tick \\d+\\n.*"), out);
    }

    @Test
    @DisplayName("POD-11.2 POD-11.4 kubectl debug -i --image=busybox --target=app: an ephemeral container is added, runs, and its process answers")
    void debug() throws Exception {
        Kubectl.Result debug = kubectl.run("debug", "web", "-i", "--image=busybox:1.36", "--target=app",
                "--container=debugger", "--", "sh", "-c", "echo hi from $HOSTNAME");
        assertEquals(0, debug.exit(), debug.out());
        assertTrue(debug.out().contains("hi from web"), debug.out());
        assertEquals("debugger", kubectl.ok("get", "pod", "web", "-o",
                "jsonpath={.spec.ephemeralContainers[0].name}"));
        kubectl.until(o -> o.contains("running"), 30, "get", "pod", "web", "-o",
                "jsonpath={.status.ephemeralContainerStatuses[0].state}");
        assertEquals("hi\n", kubectl.ok("exec", "web", "-c", "debugger", "--", "echo", "hi"));
        Kubectl.Result changed = kubectl.run("patch", "pod", "web", "--subresource=ephemeralcontainers",
                "--type=json", "-p", "[{\"op\":\"replace\",\"path\":\"/spec/ephemeralContainers/0/image\","
                        + "\"value\":\"alpine\"}]");
        assertTrue(changed.out().contains("existing ephemeral containers \"debugger\" may not be changed"),
                changed.out());
    }
}
