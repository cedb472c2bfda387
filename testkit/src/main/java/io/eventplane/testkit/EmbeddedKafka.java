package io.eventplane.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker (KRaft, combined broker and controller) running inside this JVM.
 *
 * <p>The log directory is formatted only on first use; restarting on the same directory keeps every topic, offset
 * and the cluster id (stored by Kafka in {@code meta.properties}). The controller quorum is static
 * ({@code controller.quorum.voters}), so a restart may pick different ports. {@link #start()} returns only when a
 * broker with <em>this</em> cluster id answers on the advertised address, not merely when a port is open.
 *
 * <pre>{@code
 * try (EmbeddedKafka kafka = EmbeddedKafka.builder().logDir(dir).build().start()) {
 *     producerProps.put("bootstrap.servers", kafka.bootstrapServers());
 * }
 * }</pre>
 */
public final class EmbeddedKafka implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
    private static final int NODE_ID = 1;
    private static final String HOST = "127.0.0.1";
    private static final String BROKER_LISTENER = "PLAINTEXT";
    private static final String CONTROLLER_LISTENER = "CONTROLLER";
    private static final int PORT_RACE_ATTEMPTS = 3;
    /** In the log directory: the broker's and the controller's port of its last start ("9092 9093"). */
    static final String PORTS_FILE = "eventplane-ports";

    private final Path configuredLogDir;
    private final int configuredPort;
    private final int configuredControllerPort;
    private final Map<String, String> extraProperties;
    private final Duration startupTimeout;

    private Path logDir;
    private boolean ownsLogDir;
    private String clusterId;
    private int port;
    private int controllerPort;
    private volatile KafkaRaftServer server;
    private Duration startupDuration = Duration.ZERO;

    private EmbeddedKafka(Builder builder) {
        this.configuredLogDir = builder.logDir;
        this.configuredPort = builder.port;
        this.configuredControllerPort = builder.controllerPort;
        this.extraProperties = Map.copyOf(builder.extraProperties);
        this.startupTimeout = builder.startupTimeout;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Formats the log directory if needed, starts the broker and waits until it answers with our cluster id.
     *
     * @return this broker, started
     */
    public synchronized EmbeddedKafka start() {
        if (server != null) {
            return this;
        }
        long begin = System.nanoTime();
        prepareLogDir();
        try {
            startIn(begin);
        } catch (RuntimeException e) {
            if (ownsLogDir) {
                deleteRecursively(logDir);
            }
            throw e;
        }
        return this;
    }

    private void startIn(long begin) {
        clusterId = formatIfNeeded();
        boolean randomPorts = configuredPort == 0 || configuredControllerPort == 0;
        int[] previous = previousPorts();
        for (int attempt = 1; ; attempt++) {
            boolean reuse = attempt == 1 && previous != null;
            port = configuredPort != 0 ? configuredPort : reuse ? previous[0] : FreePorts.next();
            controllerPort = configuredControllerPort != 0 ? configuredControllerPort
                    : reuse ? previous[1] : FreePorts.next();
            try {
                startServer();
                rememberPorts();
                break;
            } catch (RuntimeException e) {
                stopServerQuietly();
                // Another process may grab a "free" port between probing and binding: try fresh ports.
                if (!randomPorts || attempt >= PORT_RACE_ATTEMPTS || !causedByBind(e)) {
                    throw new IllegalStateException("Kafka broker in " + logDir + " failed to start", e);
                }
                LOG.warn("Port taken while starting the broker, retrying with new ports: {}", e.toString());
            }
        }
        try {
            awaitOurCluster(Duration.ofNanos(begin + startupTimeout.toNanos() - System.nanoTime()));
        } catch (RuntimeException e) {
            stopServerQuietly();
            throw e;
        }
        startupDuration = Duration.ofNanos(System.nanoTime() - begin);
        LOG.info("Kafka broker {} ready at {} in {} ms (log dir {})",
                clusterId, bootstrapServers(), startupDuration.toMillis(), logDir);
    }

    /**
     * The ports the broker had when it last ran on this directory, if both are free now: a restart takes them again,
     * so a client configured with the old bootstrap address keeps working. Taken ones are not tried: Kafka treats a
     * controller port it cannot bind as a fatal fault and halts the JVM, so no retry would follow.
     */
    private int[] previousPorts() {
        if (ownsLogDir) {
            return null; // a temporary directory: no earlier start
        }
        int[] saved;
        try {
            String[] text = Files.readString(logDir.resolve(PORTS_FILE), StandardCharsets.UTF_8).trim().split(" ");
            saved = new int[] {Integer.parseInt(text[0]), Integer.parseInt(text[1])};
        } catch (IOException | RuntimeException e) {
            return null; // first start, or not written by us: fresh ports
        }
        if (!FreePorts.isFree(saved[0]) || !FreePorts.isFree(saved[1])) {
            LOG.warn("the broker's ports of its last start ({} {}) are taken now: fresh ones", saved[0], saved[1]);
            return null;
        }
        return saved;
    }

    private void rememberPorts() {
        if (ownsLogDir) {
            return;
        }
        try {
            Files.writeString(logDir.resolve(PORTS_FILE), port + " " + controllerPort, StandardCharsets.UTF_8);
        } catch (IOException e) {
            LOG.warn("cannot record the broker's ports in {}: {}", logDir, e.toString());
        }
    }

    /** {@code 127.0.0.1:<port>}, the only listener clients may use. */
    public String bootstrapServers() {
        requireRunning();
        return HOST + ":" + port;
    }

    /** The cluster id stored in the log directory. */
    public String clusterId() {
        requireStarted();
        return clusterId;
    }

    public int port() {
        requireRunning();
        return port;
    }

    public int controllerPort() {
        requireRunning();
        return controllerPort;
    }

    public Path logDir() {
        requireStarted();
        return logDir;
    }

    /** Wall-clock time the last {@link #start()} took, formatting and readiness check included. */
    public Duration startupDuration() {
        return startupDuration;
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    /** Shuts the broker down cleanly; a temporary log directory is then deleted. */
    @Override
    public synchronized void close() {
        if (server == null) {
            return;
        }
        stopServerQuietly();
        if (ownsLogDir) {
            deleteRecursively(logDir);
        }
        LOG.info("Kafka broker {} stopped", clusterId);
    }

    private void prepareLogDir() {
        try {
            if (configuredLogDir != null) {
                logDir = configuredLogDir.toAbsolutePath();
                Files.createDirectories(logDir);
                ownsLogDir = false;
            } else {
                Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
                Files.createDirectories(tmp);
                logDir = Files.createTempDirectory(tmp, "eventplane-kafka-").toAbsolutePath();
                ownsLogDir = true;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create Kafka log directory", e);
        }
    }

    /** Formats a fresh directory and returns the cluster id, or reads the id of an already formatted one. */
    private String formatIfNeeded() {
        Path meta = logDir.resolve("meta.properties");
        if (Files.exists(meta)) {
            return readClusterId(meta);
        }
        String newClusterId = Uuid.randomUuid().toString();
        ByteArrayOutputStream formatterOutput = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(formatterOutput, true, StandardCharsets.UTF_8)) {
            new Formatter()
                    .setPrintStream(out)
                    .setNodeId(NODE_ID)
                    .setClusterId(newClusterId)
                    .setDirectories(List.of(logDir.toString()))
                    .setMetadataLogDirectory(logDir.toString())
                    .setControllerListenerName(CONTROLLER_LISTENER)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .setHasDynamicQuorum(false)
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format Kafka storage in " + logDir + ": "
                    + formatterOutput.toString(StandardCharsets.UTF_8), e);
        }
        LOG.info("Formatted Kafka storage in {} with cluster id {}", logDir, newClusterId);
        return newClusterId;
    }

    private static String readClusterId(Path meta) {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(meta)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + meta, e);
        }
        String id = properties.getProperty("cluster.id");
        if (id == null || id.isBlank()) {
            throw new IllegalStateException(meta + " has no cluster.id; delete the directory to reformat it");
        }
        return id;
    }

    private void startServer() {
        KafkaConfig config = new KafkaConfig(brokerProperties(), false);
        server = new KafkaRaftServer(config, Time.SYSTEM);
        server.startup();
    }

    Map<String, Object> brokerProperties() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", String.valueOf(NODE_ID));
        p.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
        p.put("listeners", BROKER_LISTENER + "://" + HOST + ":" + port + ","
                + CONTROLLER_LISTENER + "://" + HOST + ":" + controllerPort);
        p.put("advertised.listeners", BROKER_LISTENER + "://" + HOST + ":" + port);
        p.put("listener.security.protocol.map", BROKER_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("inter.broker.listener.name", BROKER_LISTENER);
        p.put("log.dirs", logDir.toString());
        p.put("metadata.log.dir", logDir.toString());
        // A single node: every internal topic has one replica (exactly_once_v2 needs the transaction settings).
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("default.replication.factor", "1");
        p.put("min.insync.replicas", "1");
        p.put("num.partitions", "1");
        p.put("auto.create.topics.enable", "false");
        p.put("group.initial.rebalance.delay.ms", "0");
        // The cleaner stays on (compaction) but 128 MiB of dedupe buffer is far more than one node needs.
        p.put("log.cleaner.dedupe.buffer.size", String.valueOf(16 * 1024 * 1024));
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "4");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("background.threads", "4");
        p.putAll(extraProperties);
        return p;
    }

    private void awaitOurCluster(Duration timeout) {
        Map<String, Object> adminConfig = Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, HOST + ":" + port,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.CLIENT_ID_CONFIG, "eventplane-embedded-kafka-readiness");
        long deadline = System.nanoTime() + Math.max(timeout.toNanos(), 0);
        String lastAnswer = "no answer yet";
        try (Admin admin = Admin.create(adminConfig)) {
            while (System.nanoTime() < deadline) {
                try {
                    DescribeClusterResult cluster = admin.describeCluster();
                    String answeredId = cluster.clusterId().get(5, TimeUnit.SECONDS);
                    boolean ourBrokerListed = cluster.nodes().get(5, TimeUnit.SECONDS).stream()
                            .anyMatch(node -> node.id() == NODE_ID && node.port() == port);
                    if (clusterId.equals(answeredId) && ourBrokerListed) {
                        return;
                    }
                    lastAnswer = "cluster id " + answeredId + ", nodes "
                            + cluster.nodes().get().stream().map(Node::toString).toList();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the Kafka broker", e);
                } catch (Exception e) {
                    lastAnswer = e.toString();
                }
                pause(Duration.ofMillis(100));
            }
        }
        throw new IllegalStateException("Kafka broker " + clusterId + " did not answer on " + HOST + ":" + port
                + " within " + timeout.toMillis() + " ms; last answer: " + lastAnswer);
    }

    private void stopServerQuietly() {
        KafkaRaftServer running = server;
        server = null;
        if (running == null) {
            return;
        }
        try {
            running.shutdown();
            running.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("Kafka broker shutdown failed", e);
        }
    }

    private static boolean causedByBind(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException
                    || (t.getMessage() != null && t.getMessage().contains("Address already in use"))) {
                return true;
            }
        }
        return false;
    }

    private void requireRunning() {
        if (server == null) {
            throw new IllegalStateException("the broker is not running");
        }
    }

    private void requireStarted() {
        if (clusterId == null) {
            throw new IllegalStateException("the broker is not started");
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

    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    LOG.debug("cannot delete {}", path, e);
                }
            });
        } catch (IOException e) {
            LOG.debug("cannot delete {}", dir, e);
        }
    }

    /** Options for an {@link EmbeddedKafka}; every option has a sensible default. */
    public static final class Builder {
        private Path logDir;
        private int port;
        private int controllerPort;
        private final Map<String, String> extraProperties = new LinkedHashMap<>();
        private Duration startupTimeout = Duration.ofSeconds(60);

        private Builder() {
        }

        /** A persistent log directory, formatted on first use; unset means a temporary one deleted on close. */
        public Builder logDir(Path logDir) {
            this.logDir = Objects.requireNonNull(logDir, "logDir");
            return this;
        }

        /** The client listener port on 127.0.0.1; 0 (the default) picks a random free port. */
        public Builder port(int port) {
            this.port = requirePort(port);
            return this;
        }

        /** The controller listener port on 127.0.0.1; 0 (the default) picks a random free port. */
        public Builder controllerPort(int controllerPort) {
            this.controllerPort = requirePort(controllerPort);
            return this;
        }

        /** A broker setting applied last, so it overrides the defaults. */
        public Builder brokerProperty(String name, String value) {
            extraProperties.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        public Builder brokerProperties(Map<String, String> properties) {
            properties.forEach(this::brokerProperty);
            return this;
        }

        public Builder startupTimeout(Duration startupTimeout) {
            this.startupTimeout = Objects.requireNonNull(startupTimeout, "startupTimeout");
            return this;
        }

        public EmbeddedKafka build() {
            return new EmbeddedKafka(this);
        }

        private static int requirePort(int port) {
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("port out of range: " + port);
            }
            return port;
        }
    }
}
