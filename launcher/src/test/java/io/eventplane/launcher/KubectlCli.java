package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** The real kubectl from PATH with a kubeconfig, cache and HOME of its own in {@code dir}, against one server. */
final class KubectlCli {
    record Result(int exit, String out) {
    }

    private final Path dir;

    KubectlCli(Path dir, String server) throws IOException {
        this.dir = dir;
        Kubeconfig.write(dir.resolve("kubeconfig"), server);
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

    /** Where the kubeconfig lives; tests write their manifests here too. */
    Path dir() {
        return dir;
    }

    Result run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(onPath(), "--kubeconfig", dir.resolve("kubeconfig").toString(),
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

    /** Runs kubectl, asserts it exits 0 and answers its output. */
    String ok(String... args) throws IOException, InterruptedException {
        Result r = run(args);
        assertEquals(0, r.exit(), () -> "kubectl " + String.join(" ", args) + ":\n" + r.out());
        return r.out();
    }

    /** Runs kubectl every 200 ms until its output satisfies {@code condition}, for at most {@code seconds}. */
    String until(Predicate<String> condition, int seconds, String... args) throws IOException, InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String last = "";
        while (System.nanoTime() < end) {
            last = run(args).out();
            if (condition.test(last)) {
                return last;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("kubectl " + String.join(" ", args) + " never matched in " + seconds + " s; last output:\n" + last);
    }
}
