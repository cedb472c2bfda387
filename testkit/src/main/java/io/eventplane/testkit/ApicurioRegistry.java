package io.eventplane.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Apicurio Registry (Confluent-compatible API) as a child process on 127.0.0.1.
 *
 * <p>Storage is in memory by default; {@link Builder#kafkaSql(String)} keeps it in a Kafka journal topic instead, so
 * schemas and ids survive a restart. The process output goes to {@code registry.log} in the work directory. A JVM
 * shutdown hook destroys the process if {@link #close()} was never called.
 */
public final class ApicurioRegistry implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ApicurioRegistry.class);
    private static final String HOST = "127.0.0.1";
    private static final String CCOMPAT_PATH = "/apis/ccompat/v7";
    private static final int PORT_RACE_ATTEMPTS = 3;
    private static final int LOG_TAIL_LINES = 40;
    /** In a work directory that outlives the process: the registry's pid, to stop a registry orphaned by a kill -9. */
    private static final String PID_FILE = "registry.pid";

    private final Builder options;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Path workDir;
    private Path logFile;
    private boolean ownsWorkDir;
    private int port;
    private int managementPort;
    // Volatile, not guarded by the monitor: the shutdown hook must be able to stop a registry that is starting.
    private volatile Process process;
    private Thread shutdownHook;
    private Duration startupDuration = Duration.ZERO;

    private ApicurioRegistry(Builder options) {
        this.options = options;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Extracts the distribution if needed, starts the registry and waits until its Confluent API answers.
     *
     * @return this registry, started
     */
    public synchronized ApicurioRegistry start() {
        if (process != null) {
            return this;
        }
        long begin = System.nanoTime();
        ApicurioDistribution distribution = options.distribution != null
                ? options.distribution : ApicurioDistribution.ensureExtracted();
        JdkLocator.Jdk jdk = resolveJdk(distribution);
        prepareWorkDir();
        stopLeftOver(distribution);
        boolean randomPorts = options.port == 0 || options.managementPort == 0;
        for (int attempt = 1; ; attempt++) {
            port = options.port != 0 ? options.port : FreePorts.next();
            managementPort = options.managementPort != 0 ? options.managementPort : FreePorts.next();
            launch(distribution, jdk);
            try {
                awaitReady(Duration.ofNanos(begin + options.startupTimeout.toNanos() - System.nanoTime()));
                break;
            } catch (RuntimeException e) {
                destroyProcess();
                // Another process may grab a "free" port between probing and binding: try fresh ports.
                if (!randomPorts || attempt >= PORT_RACE_ATTEMPTS || !logMentionsPortConflict()) {
                    throw e;
                }
                LOG.warn("Port taken while starting Apicurio Registry, retrying with new ports");
            }
        }
        startupDuration = Duration.ofNanos(System.nanoTime() - begin);
        LOG.info("Apicurio Registry {} ready at {} in {} ms (storage {}, log {})", distribution.version(), url(),
                startupDuration.toMillis(), options.kafkaSqlBootstrap == null ? "in-memory" : "kafkasql", logFile);
        return this;
    }

    /** The Confluent-compatible base URL, {@code http://127.0.0.1:<port>/apis/ccompat/v7}. */
    public String url() {
        requireStarted();
        return baseUrl() + CCOMPAT_PATH;
    }

    /** {@code http://127.0.0.1:<port>}, the root of every Apicurio API. */
    public String baseUrl() {
        requireStarted();
        return "http://" + HOST + ":" + port;
    }

    public int port() {
        requireStarted();
        return port;
    }

    public Path logFile() {
        requireStarted();
        return logFile;
    }

    /** Wall-clock time the last {@link #start()} took, extraction and readiness check included. */
    public Duration startupDuration() {
        return startupDuration;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Stops the registry process; a temporary work directory is then deleted. */
    @Override
    public synchronized void close() {
        if (process == null) {
            return;
        }
        destroyProcess();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // The hook is running or about to; nothing to undo.
            }
            shutdownHook = null;
        }
        if (ownsWorkDir) {
            EmbeddedKafka.deleteRecursively(workDir);
        }
    }

    private JdkLocator.Jdk resolveJdk(ApicurioDistribution distribution) {
        if (options.javaHome != null) {
            return JdkLocator.inspect(options.javaHome)
                    .filter(jdk -> jdk.featureVersion() >= ApicurioDistribution.MINIMUM_JDK)
                    .orElseThrow(() -> new IllegalStateException(options.javaHome + " is not a JDK "
                            + ApicurioDistribution.MINIMUM_JDK + "+ (needed by Apicurio Registry "
                            + distribution.version() + ")"));
        }
        return JdkLocator.find(ApicurioDistribution.MINIMUM_JDK).orElseThrow(() -> new IllegalStateException(
                "Apicurio Registry " + distribution.version() + " needs a JDK " + ApicurioDistribution.MINIMUM_JDK
                        + " or newer, and none was found in " + JdkLocator.searchedPlaces()
                        + ". Install one (e.g. `apt-get install openjdk-21-jdk-headless` or a Temurin 21/25 JDK)"
                        + " or point JAVA_HOME at it."));
    }

    private void prepareWorkDir() {
        try {
            if (options.workDir != null) {
                workDir = options.workDir.toAbsolutePath();
                Files.createDirectories(workDir);
                ownsWorkDir = false;
            } else {
                Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
                Files.createDirectories(tmp);
                workDir = Files.createTempDirectory(tmp, "eventplane-apicurio-").toAbsolutePath();
                ownsWorkDir = true;
            }
            Files.createDirectories(workDir.resolve("tmp"));
            logFile = workDir.resolve("registry.log");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the Apicurio work directory", e);
        }
    }

    private void launch(ApicurioDistribution distribution, JdkLocator.Jdk jdk) {
        List<String> command = new ArrayList<>();
        command.add(jdk.javaExecutable().toString());
        command.addAll(options.jvmOptions);
        systemProperties().forEach((name, value) -> command.add("-D" + name + "=" + value));
        command.add("-jar");
        command.add(distribution.runJar().toString());
        try {
            Files.writeString(logFile, "# " + String.join(" ", command) + System.lineSeparator(), StandardCharsets.UTF_8);
            process = new ProcessBuilder(command)
                    .directory(workDir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        if (!ownsWorkDir) {
            try {
                Files.writeString(workDir.resolve(PID_FILE), Long.toString(process.pid()), StandardCharsets.UTF_8);
            } catch (IOException e) {
                LOG.warn("cannot write {}: {}", workDir.resolve(PID_FILE), e.toString());
            }
        }
        if (shutdownHook == null) {
            shutdownHook = new Thread(this::destroyProcess, "apicurio-registry-shutdown");
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    /**
     * A registry started from this work directory by a process that was killed (kill -9 runs no shutdown hook) is
     * still running, an orphan bound to its old ports and broker: stop it, so that restarts do not pile them up.
     */
    private void stopLeftOver(ApicurioDistribution distribution) {
        Path pidFile = workDir.resolve(PID_FILE);
        if (ownsWorkDir || !Files.exists(pidFile)) {
            return;
        }
        try {
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.UTF_8).trim());
            String jar = distribution.runJar().toString();
            ProcessHandle.of(pid)
                    .filter(h -> h.info().commandLine().map(c -> c.contains(jar)).orElse(false))
                    .ifPresent(h -> {
                        LOG.warn("stopping the registry (pid {}) left running by a process that was killed", pid);
                        h.destroyForcibly();
                        h.onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> null).join();
                    });
            Files.deleteIfExists(pidFile);
        } catch (IOException | NumberFormatException e) {
            LOG.warn("cannot read {}: {}", pidFile, e.toString());
        }
    }

    Map<String, String> systemProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        // Quarkus binds 0.0.0.0 and a management port 9000 by default (stack.md pitfall 4).
        p.put("quarkus.http.host", HOST);
        p.put("quarkus.http.port", String.valueOf(port));
        p.put("quarkus.management.host", HOST);
        p.put("quarkus.management.port", String.valueOf(managementPort));
        p.put("java.io.tmpdir", workDir.resolve("tmp").toString());
        p.put("apicurio.storage.snapshot.location", workDir.resolve("tmp").toString());
        p.put("quarkus.log.console.color", "false");
        if (options.kafkaSqlBootstrap != null) {
            p.put("apicurio.storage.kind", "kafkasql");
            p.put("apicurio.kafkasql.bootstrap.servers", options.kafkaSqlBootstrap);
            p.put("apicurio.kafkasql.topic", options.kafkaSqlTopic);
            p.put("apicurio.kafkasql.snapshots.topic", options.kafkaSqlTopic + "-snapshots");
            p.put("apicurio.kafkasql.topic.auto-create", "true");
            // Its start-up reads three topics by polling each until a poll comes back empty, and waits for its group
            // assignment the same way: with the default 5 s per poll that is ~15 s of waiting on empty topics (the
            // registry was ready ~25 s after it started). Shorter polls end those loops sooner; none of them needs a
            // long one (a topic with data answers at once, and the snapshots topic stays empty: snapshots are off).
            p.put("apicurio.kafkasql.consumer.poll.timeout", "250");
        }
        p.putAll(options.properties);
        return p;
    }

    private void awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + Math.max(timeout.toNanos(), 0);
        URI probe = URI.create(url() + "/subjects");
        String lastAnswer = "no answer yet";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Apicurio Registry exited with " + process.exitValue()
                        + " while starting; last lines of " + logFile + ":\n" + logTail());
            }
            try {
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(5)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && process.isAlive()) {
                    return;
                }
                lastAnswer = "HTTP " + response.statusCode() + " " + response.body();
            } catch (IOException e) {
                lastAnswer = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Apicurio Registry", e);
            }
            pause(Duration.ofMillis(200));
        }
        throw new IllegalStateException("Apicurio Registry did not answer GET " + probe + " with 200 within "
                + timeout.toSeconds() + " s (last answer: " + lastAnswer + "); last lines of " + logFile + ":\n"
                + logTail());
    }

    private void destroyProcess() {
        Process running = process;
        if (running == null) {
            return;
        }
        process = null;
        running.descendants().forEach(ProcessHandle::destroy);
        running.destroy();
        try {
            if (!running.waitFor(15, TimeUnit.SECONDS)) {
                running.descendants().forEach(ProcessHandle::destroyForcibly);
                running.destroyForcibly();
                running.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            running.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private boolean logMentionsPortConflict() {
        String tail = logTail();
        return tail.contains("Address already in use") || tail.contains("Port already bound")
                || tail.contains("BindException");
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + logFile + ": " + e + ")";
        }
    }

    private void requireStarted() {
        if (logFile == null || port == 0) {
            throw new IllegalStateException("the registry is not started");
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Options for an {@link ApicurioRegistry}; every option has a sensible default. */
    public static final class Builder {
        private ApicurioDistribution distribution;
        private Path javaHome;
        private Path workDir;
        private int port;
        private int managementPort;
        private String kafkaSqlBootstrap;
        private String kafkaSqlTopic = "kafkasql-journal";
        private final Map<String, String> properties = new LinkedHashMap<>();
        // Small heap, serial GC and C1 only: a test registry stores little and should start fast on 2 cores.
        private final List<String> jvmOptions = new ArrayList<>(List.of(
                "-Xms64m", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        private Duration startupTimeout = Duration.ofSeconds(120);

        private Builder() {
        }

        /** An already extracted distribution; by default the testkit's Maven dependency is extracted and used. */
        public Builder distribution(ApicurioDistribution distribution) {
            this.distribution = Objects.requireNonNull(distribution, "distribution");
            return this;
        }

        /** The JDK (21+) to run the registry with; by default one is searched for, see {@link JdkLocator}. */
        public Builder javaHome(Path javaHome) {
            this.javaHome = Objects.requireNonNull(javaHome, "javaHome");
            return this;
        }

        /** Where {@code registry.log} and the process's temporary files go; unset means a temporary directory. */
        public Builder workDir(Path workDir) {
            this.workDir = Objects.requireNonNull(workDir, "workDir");
            return this;
        }

        /** The HTTP port on 127.0.0.1; 0 (the default) picks a random free port. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** The Quarkus management (health, metrics) port on 127.0.0.1; 0 (the default) picks a free port. */
        public Builder managementPort(int managementPort) {
            this.managementPort = managementPort;
            return this;
        }

        /** Keep the registry's data in Kafka ({@code apicurio.storage.kind=kafkasql}) so it survives restarts. */
        public Builder kafkaSql(String bootstrapServers) {
            this.kafkaSqlBootstrap = Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            return this;
        }

        /** The journal topic for {@link #kafkaSql}; its snapshots topic is {@code <topic>-snapshots}. */
        public Builder kafkaSqlTopic(String topic) {
            this.kafkaSqlTopic = Objects.requireNonNull(topic, "topic");
            return this;
        }

        /** A registry (Quarkus/Apicurio) configuration property passed as {@code -Dname=value}, applied last. */
        public Builder property(String name, String value) {
            properties.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        public Builder jvmOption(String option) {
            jvmOptions.add(Objects.requireNonNull(option, "option"));
            return this;
        }

        public Builder startupTimeout(Duration startupTimeout) {
            this.startupTimeout = Objects.requireNonNull(startupTimeout, "startupTimeout");
            return this;
        }

        public ApicurioRegistry build() {
            return new ApicurioRegistry(this);
        }
    }
}
