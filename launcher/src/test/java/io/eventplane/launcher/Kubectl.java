package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The real kubectl against a test's gateway: {@code HOME} is the test's directory and {@code KUBECONFIG} its
 * {@code kubeconfig} there (so {@code --record} records the command as the seed shows it; the cache is under HOME).
 * Tests that need it skip without kubectl on the PATH ({@link #path()} is null).
 */
final class Kubectl {
    record Result(int exit, String out) {
    }

    private final Path dir;

    /** kubectl with the kubeconfig already in {@code dir}. */
    Kubectl(Path dir) {
        this.dir = dir;
    }

    /** kubectl in {@code dir}, with a kubeconfig written there for {@code server}. */
    static Kubectl against(Path dir, String server) throws IOException {
        Kubeconfig.write(dir.resolve("kubeconfig"), server);
        return new Kubectl(dir);
    }

    /** kubectl on the PATH, or null. */
    static String path() {
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
        return runWithStdin(null, args);
    }

    /** kubectl reading {@code stdin} (null: none) on its standard input. */
    Result runWithStdin(String stdin, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(path())); // no flags: --record records the command line as typed
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("HOME", dir.toString());
        pb.environment().put("KUBECONFIG", dir.resolve("kubeconfig").toString());
        Process p = pb.start();
        if (stdin != null) {
            try (var in = p.getOutputStream()) {
                in.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
        } else {
            p.getOutputStream().close(); // no terminal: kubectl must not wait for a typed user name on a 401
        }
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** The output of a command that must succeed. */
    String ok(String... args) throws IOException, InterruptedException {
        Result r = run(args);
        assertEquals(0, r.exit(), () -> "kubectl " + String.join(" ", args) + ":\n" + r.out());
        return r.out();
    }

    /** The output of a command that must fail as kubectl does on a server's refusal (exit 1). */
    String fails(String... args) throws IOException, InterruptedException {
        Result r = run(args);
        assertEquals(1, r.exit(), () -> "kubectl " + String.join(" ", args) + " should fail:\n" + r.out());
        return r.out();
    }

    /** Runs the command until its output satisfies the condition (the cluster converges asynchronously), 60 s at most. */
    String until(Predicate<String> condition, String... args) throws IOException, InterruptedException {
        return until(condition, 60, args);
    }

    /** Runs the command every 100 ms until its output satisfies {@code condition}, for at most {@code seconds}. */
    String until(Predicate<String> condition, int seconds, String... args) throws IOException, InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String last = "";
        while (System.nanoTime() < end) {
            last = run(args).out();
            if (condition.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("kubectl " + String.join(" ", args) + " never matched in " + seconds
                + " s; last output:\n" + last);
    }
}
