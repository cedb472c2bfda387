package io.eventplane.gateway;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real kubectl from PATH against a gateway, with its own kubeconfig, cache and HOME in a directory. */
final class Kubectl {
    record Result(int exit, String out) {
    }

    private final Path dir;

    private Kubectl(Path dir) {
        this.dir = dir;
    }

    /** The kubectl executable on PATH, or null. */
    static String onPath() {
        for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File k = new File(p, "kubectl");
            if (k.canExecute()) {
                return k.getPath();
            }
        }
        return null;
    }

    /** Writes a kubeconfig in dir pointing at server (anonymous user, namespace default). */
    static Kubectl configure(Path dir, String server) throws IOException {
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
        return new Kubectl(dir);
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
}
