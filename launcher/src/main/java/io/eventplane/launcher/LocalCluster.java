package io.eventplane.launcher;

import io.eventplane.client.ServiceIdentities;
import io.eventplane.scheduler.Scheduler;
import io.eventplane.reconcile.ControllerRuntime;
import io.eventplane.reconcile.Controller;
import io.eventplane.controllers.ControllerManager;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.TopicSetup;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.gateway.auth.authn.GatewaySecurity;
import io.eventplane.client.pki.ClusterPki;
import io.eventplane.client.pki.CommandCredentials;
import io.eventplane.client.CommandSigning;
import io.eventplane.controllers.csrsigning.CsrSigningReconciler;
import io.eventplane.nodesim.NodeSimulator;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.ApicurioRegistry;
import io.eventplane.testkit.EmbeddedKafka;
import io.eventplane.topology.WriterGroup;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;

/**
 * Everything in one JVM but the registry (a child process on a JDK 21+): broker, writer, gateway, scheduler and node-sim,
 * started in dependency order, stopped in reverse. State lives under the data directory, so a second start comes back
 * with the same objects, rebuilt from the log.
 */
final class LocalCluster implements AutoCloseable {

    /**
     * @param insecureHttp plain HTTP without authentication (every request is {@code system:unsecured}, in
     *                     {@code system:masters}): for development only; TLS and credentials otherwise
     * @param tokenFile    a static token file (kube-apiserver's {@code --token-auth-file}), or null
     * @param anonymous    requests without credentials are {@code system:anonymous} instead of 401
     */
    record Settings(Path dataDir, int nodes, int port, String bindHost, boolean insecureHttp, Path tokenFile,
                    boolean anonymous) {
        /** Plain HTTP (the load test's and the console bench's own clusters, tests); {@code up} asks for TLS. */
        Settings(Path dataDir, int nodes, int port, String bindHost) {
            this(dataDir, nodes, port, bindHost, true, null, false);
        }
    }

    private final Settings settings;
    private final PrintStream out;
    private final long started = System.nanoTime();
    private final Deque<AutoCloseable> running = new ArrayDeque<>();
    private EmbeddedKafka kafka;
    private ApicurioRegistry registry;
    private GatewayServer gateway;
    private EventplaneConfig config;
    private final java.util.concurrent.atomic.AtomicBoolean startupDone = new java.util.concurrent.atomic.AtomicBoolean();

    LocalCluster(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    void start() throws Exception {
        Path data = settings.dataDir();
        Files.createDirectories(data.resolve("logs"));
        step("data directory " + data);

        // After a kill -9 the controller refuses the broker's new incarnation (DuplicateBrokerRegistration) until the
        // old one's session expires, measured from the controller's own start: Kafka's 9 s session (meant for brokers
        // across a network) added ~10 s to every restart. In one process a dead incarnation is certain; 4 s with a
        // heartbeat every second still rides out a GC pause or a starved CPU.
        kafka = EmbeddedKafka.builder().logDir(data.resolve("kafka"))
                .brokerProperty("broker.session.timeout.ms", "4000")
                .brokerProperty("broker.heartbeat.interval.ms", "1000")
                .build().start();
        running.push(kafka);
        step("Kafka 4.3.1 broker (KRaft) ready at " + kafka.bootstrapServers() + ", cluster id " + kafka.clusterId());

        registry = ApicurioRegistry.builder().workDir(data.resolve("registry")).kafkaSql(kafka.bootstrapServers()).build().start();
        running.push(registry);
        step("Apicurio schema registry ready at " + registry.url() + " (schemas kept in Kafka)");

        config = new EventplaneConfig(kafka.bootstrapServers(), registry.url(), Topics.DEFAULT, partitions());
        TopicSetup.ensureTopics(config);
        ClusterPki pki = settings.insecureHttp() ? null
                : ClusterPki.loadOrCreate(data.resolve("pki"), java.util.List.of(settings.bindHost()));
        if (pki != null && EventplaneConfig.setting(CommandSigning.SECRET_FILE, "").isEmpty()) {
            // One process runs every service, so it holds the cluster's command secret: each command carries the
            // credential of its actor, and the writer refuses commands written to Kafka without one.
            Path secret = pki.directory().resolve(COMMAND_SECRET);
            CommandCredentials.loadOrCreate(secret);
            String property = CommandSigning.SECRET_FILE.toLowerCase().replace('_', '.');
            System.setProperty(property, secret.toString());
            running.push(() -> System.clearProperty(property));
        }
        WriterGroup writer = new WriterGroup(config, data.resolve("writer-state"), COMMIT_INTERVAL_MS).start();
        running.push(writer);
        awaitWriter(writer);
        step(config.partitions() == 1 && writer.instances().size() == 1
                ? "single writer (Kafka Streams, exactly_once_v2) running"
                : "writer (Kafka Streams, exactly_once_v2) running: " + writer.instances().size() + " instance(s) on "
                        + config.partitions() + " partitions");

        // Ready only once start() is done: scripts poll /readyz and then read the kubeconfig and the banner's files.
        GatewaySecurity security = (pki == null ? GatewaySecurity.insecure() : GatewaySecurity.tls(pki))
                .withTokenFile(settings.tokenFile()).withAnonymous(settings.anonymous());
        gateway = GatewayServer.start(config, settings.port(), settings.bindHost(),
                io.eventplane.gateway.alloc.ServiceNetwork.fromEnvironment(), java.util.Map.of("startup", startupDone::get),
                true, // one view for the API, scheduler, node-sim and controllers of this process: the log decoded once
                security);
        running.push(gateway);
        gateway.addReadinessCheck("kafka", kafka::isRunning);
        gateway.addReadinessCheck("registry", registry::isRunning);
        gateway.addReadinessCheck("writer", writer::isReady);
        step("API gateway serving " + gateway.url() + (pki == null
                ? " over plain HTTP without authentication (--insecure-http)"
                : " (TLS, cluster CA in " + pki.directory() + ")") + " (event log replayed into its view)");

        Controller scheduler = Scheduler.controller(config, "scheduler").identity(ServiceIdentities.scheduler()).start();
        running.push(scheduler);
        gateway.addReadinessCheck("scheduler", scheduler::isReady);

        NodeSimulator nodes = new NodeSimulator(config, settings.nodes(), io.eventplane.nodesim.NodeShape.defaults(), Clock.systemUTC());
        nodes.start();
        running.push(nodes);
        gateway.addReadinessCheck("node-sim", nodes::isReady);
        await("scheduler", scheduler::isReady, Duration.ofSeconds(60));
        await("node-sim", nodes::isReady, Duration.ofSeconds(60));
        step("scheduler running; node-sim registered " + settings.nodes() + " simulated node(s)");

        io.eventplane.client.log.SnapshotService snapshots =
                io.eventplane.client.log.SnapshotService.fromEnvironment(config).start();
        running.push(snapshots);
        if (pki != null && EventplaneConfig.setting(CsrSigningReconciler.SIGNING_DIR, "").isEmpty()) {
            // csrsigning signs with the cluster CA, as kube-controller-manager with --cluster-signing-*-file;
            // root-ca-cert-publisher publishes its certificate (kube-root-ca.crt, which pods' token volumes project)
            System.setProperty(CsrSigningReconciler.SIGNING_DIR.toLowerCase().replace('_', '.'),
                    pki.directory().toString());
        }
        // Every controller of kube-controller-manager's kind, one process, no leader election (one instance).
        ControllerRuntime controllers = ControllerManager.start(config, Clock.systemUTC(), "*", false);
        running.push(controllers);
        gateway.addReadinessCheck("controllers", controllers::isReady);
        await("controllers", controllers::isReady, Duration.ofSeconds(60));
        step("controllers running: " + String.join(", ", ControllerManager.select("*").stream()
                .map(ControllerManager.Definition::name).toList()));

        if (pki == null) {
            Kubeconfig.write(data.resolve("kubeconfig"), gateway.url());
        } else {
            Kubeconfig.write(data.resolve("kubeconfig"), gateway.url(), pki.caPem(),
                    Kubeconfig.Credential.certificate(pki.admin().certificatePem(), pki.admin().keyPem()),
                    ClusterPki.ADMIN_USER);
        }
        Connection.write(data.resolve(Connection.FILE), config);
        startupDone.set(true);
    }

    /** The cluster's command credential secret in the pki directory ({@link CommandCredentials}). */
    static final String COMMAND_SECRET = "commands.secret";

    /** The writer's longest transaction under load ({@code EVENTPLANE_COMMIT_INTERVAL_MS}, see WriterService). */
    static final long COMMIT_INTERVAL_MS =
            Long.parseLong(EventplaneConfig.setting("EVENTPLANE_COMMIT_INTERVAL_MS", "200"));

    private int partitions() throws Exception {
        String configured = EventplaneConfig.setting("EVENTPLANE_PARTITIONS", "");
        try (Admin admin = Admin.create(java.util.Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            var topics = admin.listTopics().names().get();
            if (topics.contains(Topics.DEFAULT.commands())) {
                // Existing log: its partition count is fixed (resourceVersions encode it).
                return admin.describeTopics(java.util.List.of(Topics.DEFAULT.commands())).allTopicNames().get()
                        .get(Topics.DEFAULT.commands()).partitions().size();
            }
        }
        return configured.isEmpty() ? 1 : Integer.parseInt(configured);
    }

    void printSummary() {
        Path kubeconfig = settings.dataDir().resolve("kubeconfig");
        out.printf("""

                Eventplane is ready in %.1f s.
                  API server:       %s   (GET %s/readyz)
                  Web console:      %s/ui/   (the cluster live, at any moment in the past, and its history)
                  Kafka bootstrap:  %s
                  Schema registry:  %s
                  kubeconfig:       %s
                  logs:             %s

                Try:  export KUBECONFIG=%s
                      kubectl get nodes
                Stop with Ctrl-C.
                %n""", seconds(), gateway.url(), gateway.url(), gateway.url(), kafka.bootstrapServers(), registry.url(), kubeconfig,
                settings.dataDir().resolve("logs"), kubeconfig);
    }

    private void step(String what) {
        out.printf("[%5.1fs] %s%n", seconds(), what);
    }

    private double seconds() {
        return (System.nanoTime() - started) / 1e9;
    }

    /**
     * The writer is ready once every instance runs and no store is being restored. A writer killed under exactly-once
     * restores its store whole from the changelog, which on a busy machine can outlast a fixed wait: the wait is 60 s
     * plus as long as a restoration is making progress (up to 10 minutes).
     */
    private void awaitWriter(WriterGroup writer) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(60).toNanos();
        long hardDeadline = start + Duration.ofMinutes(10).toNanos();
        boolean told = false;
        while (!writer.isReady()) {
            long now = System.nanoTime();
            if (writer.restoring() > 0) {
                deadline = Math.max(deadline, now + Duration.ofSeconds(30).toNanos());
                if (!told) {
                    told = true;
                    step("writer restoring its store from the changelog (after an unclean stop)");
                }
            }
            if (now > Math.min(deadline, hardDeadline)) {
                throw new IllegalStateException("the writer did not become ready within "
                        + Duration.ofNanos(now - start).toSeconds() + " s (" + writer.state() + ")");
            }
            Thread.sleep(50);
        }
    }

    private static void await(String what, BooleanSupplier ready, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ready.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " did not become ready within " + timeout.toSeconds() + " s");
            }
            Thread.sleep(50);
        }
    }

    /** The API server's URL. */
    String apiUrl() {
        return gateway.url();
    }

    EventplaneConfig config() {
        return config;
    }

    @Override
    public void close() {
        while (!running.isEmpty()) {
            AutoCloseable c = running.pop();
            try {
                c.close();
            } catch (Exception e) {
                out.println("eventplane: error while stopping " + c.getClass().getSimpleName() + ": " + e);
            }
        }
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
