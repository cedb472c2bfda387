package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The real kubectl from PATH against a gateway of its own (a {@link GatewayFixture}), with its own kubeconfig, cache
 * and HOME in a temporary directory. A test class registers it as an extension,
 * {@code @RegisterExtension static final Kubectl kubectl = new Kubectl();}; without kubectl on PATH the class is
 * skipped before any cluster starts.
 */
final class Kubectl implements BeforeAllCallback, AfterAllCallback {
    record Result(int exit, String out) {
    }

    final GatewayFixture gateway = new GatewayFixture();
    private Path dir;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        assumeTrue(onPath() != null, "kubectl is not on PATH");
        gateway.start();
        dir = Files.createTempDirectory(context.getRequiredTestClass().getSimpleName());
        writeKubeconfig(gateway.url());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        gateway.stop();
    }

    /** Where kubeconfig, cache and HOME live; tests write their manifests here too. */
    Path dir() {
        return dir;
    }

    /** The kubectl executable on PATH, or null. */
    private static String onPath() {
        for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File k = new File(p, "kubectl");
            if (k.canExecute()) {
                return k.getPath();
            }
        }
        return null;
    }

    /** A kubeconfig pointing at server (anonymous user, namespace default). */
    private void writeKubeconfig(String server) throws IOException {
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
                """.formatted(server));
    }

    Result run(String... args) throws IOException, InterruptedException {
        return run(java.util.Map.of(), args);
    }

    /** Runs kubectl with extra environment variables (KUBE_EDITOR for edit). */
    Result run(java.util.Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(onPath(), "--kubeconfig", dir.resolve("kubeconfig").toString(),
                "--cache-dir", dir.resolve("cache").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("HOME", dir.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** Runs kubectl and asserts it exits 0. */
    Result ok(String... args) throws IOException, InterruptedException {
        Result r = run(args);
        assertEquals(0, r.exit(), () -> "kubectl " + String.join(" ", args) + ":\n" + r.out());
        return r;
    }
}
