package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The real kubectl against a test's gateway: its HOME and KUBECONFIG in the test's directory (the kubeconfig comes
 * from the environment, so that --record records the command as the seed shows it).
 */
final class Kubectl {
    record Result(int exit, String out) {
    }

    private final Path dir;

    /** @param dir holds {@code kubeconfig} ({@link Kubeconfig#write}) and serves as HOME */
    Kubectl(Path dir) {
        this.dir = dir;
    }

    /** kubectl's path, or null when it is not on PATH (the tests that need it are skipped then). */
    static String path() {
        for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File k = new File(p, "kubectl");
            if (k.canExecute()) {
                return k.getPath();
            }
        }
        return null;
    }

    Result run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(path()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("HOME", dir.toString());
        pb.environment().put("KUBECONFIG", dir.resolve("kubeconfig").toString());
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** The output of a command that must succeed. */
    String ok(String... args) throws Exception {
        Result r = run(args);
        assertEquals(0, r.exit(), () -> "kubectl " + String.join(" ", args) + ":\n" + r.out());
        return r.out();
    }

    /** Runs the command until its output satisfies the condition (the cluster converges asynchronously). */
    String until(Predicate<String> condition, String... args) throws Exception {
        String last = "";
        for (int i = 0; i < 300; i++) {
            last = run(args).out();
            if (condition.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("kubectl " + String.join(" ", args) + " never matched; last output:\n" + last);
    }
}
