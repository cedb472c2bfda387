package io.eventplane.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Services as operating-system processes of their own (as the Helm chart runs them), on the test's class path, each
 * with its log under {@code target/fault-logs/<case>/}. {@link #kill} is {@code kill -9}: no shutdown hook runs, no
 * lease is released, no transaction is committed or aborted by the process.
 */
final class ServiceProcesses implements AutoCloseable {
    record Spec(String mainClass, List<String> args, Map<String, String> env, String heap) {
    }

    private final Path logs;
    private final Map<String, String> commonEnv;
    private final Map<String, Spec> specs = new LinkedHashMap<>();
    private final Map<String, Process> running = new LinkedHashMap<>();
    private final Map<String, Integer> starts = new HashMap<>();

    ServiceProcesses(String faultCase, Map<String, String> commonEnv) throws IOException {
        this.logs = Path.of("target", "fault-logs", faultCase);
        Files.createDirectories(logs);
        this.commonEnv = Map.copyOf(commonEnv);
    }

    Process start(String name, String mainClass, Map<String, String> env, String... args) throws IOException {
        return startWithHeap(name, "384m", mainClass, env, args);
    }

    /** As {@link #start}, with a heap of {@code heap} ({@code -Xmx}) rather than 384m. */
    Process startWithHeap(String name, String heap, String mainClass, Map<String, String> env, String... args)
            throws IOException {
        specs.put(name, new Spec(mainClass, List.of(args), Map.copyOf(env), heap));
        return launch(name);
    }

    /** Starts {@code name} again as it was first started. */
    Process restart(String name) throws IOException {
        return launch(name);
    }

    private Process launch(String name) throws IOException {
        Spec spec = specs.get(name);
        int n = starts.merge(name, 1, Integer::sum);
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + spec.heap(), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.eventplane",
                "-Dlog4j2.configurationFile=log4j2-test.xml",
                "-cp", System.getProperty("java.class.path"), spec.mainClass()));
        cmd.addAll(spec.args());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(logs.resolve(name + (n == 1 ? "" : "-" + n) + ".log").toFile());
        pb.environment().putAll(commonEnv);
        pb.environment().putAll(spec.env());
        Process p = pb.start();
        running.put(name, p);
        return p;
    }

    /** {@code kill -9} of the process and of every process it started. */
    void kill(String name) throws InterruptedException {
        Process p = running.get(name);
        List<ProcessHandle> children = p == null ? List.of() : p.descendants().toList();
        killAlone(name);
        children.forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * {@code kill -9} of the process only: the processes it started live on as orphans, as they do when a launcher
     * is killed. Returns them.
     */
    List<ProcessHandle> killAlone(String name) throws InterruptedException {
        Process p = running.remove(name);
        if (p == null) {
            return List.of();
        }
        List<ProcessHandle> children = p.descendants().toList();
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
        return children;
    }

    Process process(String name) {
        return running.get(name);
    }

    List<String> names() {
        return List.copyOf(specs.keySet());
    }

    Path log(String name) {
        return logs.resolve(name + ".log");
    }

    /** The log of the process's latest start ({@code <name>-<n>.log} after a restart). */
    Path latestLog(String name) {
        int n = starts.getOrDefault(name, 1);
        return logs.resolve(name + (n == 1 ? "" : "-" + n) + ".log");
    }

    @Override
    public void close() {
        running.values().forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
        running.clear();
    }
}
