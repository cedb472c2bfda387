package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.SharedClusterExtension;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl port-forward} with the real kubectl: SPDY/3.1 tunnelled in WebSocket (kubectl 1.31+'s default),
 * each declared containerPort answered by the simulated responder naming the pod and container.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlPortForwardTest {
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: web
            spec:
              containers:
              - name: app
                image: nginx:1.27
                ports: [{containerPort: 8080}]
              - name: metrics
                image: busybox:1.36
                ports: [{containerPort: 9090}]
            """;
    private static final Pattern FORWARDING = Pattern.compile("Forwarding from 127\\.0\\.0\\.1:(\\d+) -> (\\d+)");

    private KubectlCluster cluster;
    private Kubectl kubectl;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = KubectlCluster.start(tmp, "serviceaccount");
        kubectl = cluster.kubectl();
        Files.writeString(kubectl.dir().resolve("pod.yaml"), POD);
        kubectl.ok("apply", "-f", kubectl.dir().resolve("pod.yaml").toString());
        kubectl.until(o -> o.equals("Running"), 60, "get", "pod", "web", "-o", "jsonpath={.status.phase}");
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("kubectl port-forward pod/web :8080 :9090: an HTTP GET to each local port reaches the container declaring it")
    void forwardsToTheDeclaringContainer() throws Exception {
        try (PortForward forward = PortForward.start(kubectl, "port-forward", "pod/web", ":8080", ":9090")) {
            int app = forward.localPort(8080);
            int metrics = forward.localPort(9090);
            String answer = get(app);
            assertTrue(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer);
            assertTrue(answer.endsWith("pod default/web container app port 8080\n"), answer);
            assertTrue(get(metrics).endsWith("pod default/web container metrics port 9090\n"));
            assertTrue(get(app).endsWith("container app port 8080\n"), "a second connection on the same forward");
        }
    }

    @Test
    @DisplayName("kubectl port-forward: two connections open at once each get their own answer")
    void concurrentConnections() throws Exception {
        try (PortForward forward = PortForward.start(kubectl, "port-forward", "pod/web", ":8080")) {
            int port = forward.localPort(8080);
            try (Socket first = new Socket("127.0.0.1", port); Socket second = new Socket("127.0.0.1", port)) {
                send(first, "GET /one HTTP/1.1\r\nHost: localhost\r\n");
                send(second, "GET /two HTTP/1.1\r\nHost: localhost\r\n\r\n");
                String secondAnswer = new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                send(first, "\r\n"); // the first request completes only after the second was answered
                String firstAnswer = new String(first.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(firstAnswer.endsWith("container app port 8080\n"), firstAnswer);
                assertTrue(secondAnswer.endsWith("container app port 8080\n"), secondAnswer);
            }
        }
    }

    @Test
    @DisplayName("kubectl port-forward to a port no container declares: the kubelet's connection-refused error, and kubectl ends")
    void undeclaredPort() throws Exception {
        try (PortForward forward = PortForward.start(kubectl, "port-forward", "pod/web", ":7777")) {
            int port = forward.localPort(7777);
            try (Socket socket = new Socket("127.0.0.1", port)) {
                send(socket, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
                assertEquals("", new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            String out = forward.awaitExit();
            assertTrue(out.contains("error forwarding port 7777 to pod"), out);
            assertTrue(out.contains("connection refused"), out);
            assertTrue(out.contains("lost connection to pod"), out);
        }
    }

    @Test
    @DisplayName("kubectl port-forward to a pod that does not exist: NotFound")
    void missingPod() throws Exception {
        String out = kubectl.fails("port-forward", "pod/nope", ":8080");
        assertTrue(out.contains("pods \"nope\" not found"), out);
    }

    private static String get(int port) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            send(socket, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void send(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** A running {@code kubectl port-forward}: its output lines as they come, and its end. */
    private static final class PortForward implements AutoCloseable {
        private final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final List<String> seen = new ArrayList<>();
        private final Thread reader;

        private PortForward(Process process) {
            this.process = process;
            reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // the process ended
                }
            }, "kubectl-port-forward-output");
            reader.setDaemon(true);
            reader.start();
        }

        static PortForward start(Kubectl kubectl, String... args) throws IOException {
            List<String> cmd = new ArrayList<>(List.of(Kubectl.path()));
            cmd.addAll(List.of(args));
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().put("HOME", kubectl.dir().toString());
            pb.environment().put("KUBECONFIG", kubectl.dir().resolve("kubeconfig").toString());
            Process p = pb.start();
            p.getOutputStream().close();
            return new PortForward(p);
        }

        /** The local port kubectl listens on for {@code remote} (its "Forwarding from 127.0.0.1:N -> remote"). */
        int localPort(int remote) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            for (String line : seen) {
                Integer local = forwarded(line, remote);
                if (local != null) {
                    return local;
                }
            }
            while (System.nanoTime() < end) {
                String line = lines.poll(100, TimeUnit.MILLISECONDS);
                if (line == null) {
                    if (!process.isAlive() && lines.isEmpty()) {
                        break;
                    }
                    continue;
                }
                seen.add(line);
                Integer local = forwarded(line, remote);
                if (local != null) {
                    return local;
                }
            }
            throw new AssertionError("kubectl never forwarded " + remote + "; output:\n" + String.join("\n", seen));
        }

        private static Integer forwarded(String line, int remote) {
            Matcher m = FORWARDING.matcher(line);
            return m.find() && Integer.parseInt(m.group(2)) == remote ? Integer.parseInt(m.group(1)) : null;
        }

        /** kubectl's whole output once it has ended by itself (it must, within 30 s). */
        String awaitExit() throws InterruptedException {
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), () -> "kubectl port-forward did not end:\n"
                    + String.join("\n", seen));
            reader.join(5_000); // the output ends with the process
            lines.drainTo(seen);
            return String.join("\n", seen);
        }

        @Override
        public void close() {
            process.destroy();

        }
    }
}
