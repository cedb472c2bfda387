package io.eventplane.gateway;

import io.eventplane.client.CommandSender;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.CustomKindsFeed;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.Requests;
import io.eventplane.client.TopicSetup;
import io.eventplane.client.usage.UsageView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.alloc.AllocationRepair;
import io.eventplane.gateway.alloc.KubernetesService;
import io.eventplane.gateway.alloc.LogWriter;
import io.eventplane.gateway.alloc.ServiceAllocator;
import io.eventplane.gateway.alloc.ServiceNetwork;
import io.eventplane.gateway.api.ApiRouter;
import io.eventplane.gateway.api.Backend;
import io.eventplane.gateway.api.Readiness;
import io.eventplane.gateway.auth.authn.Authentication;
import io.eventplane.gateway.auth.authn.GatewaySecurity;
import io.eventplane.gateway.auth.authn.ServiceAccountTokens;
import io.eventplane.core.meta.ObjectAccess;
import java.util.Optional;
import io.eventplane.gateway.console.ConsoleRouter;
import io.eventplane.gateway.exec.ContainerStreams;
import io.eventplane.gateway.http.GatewayRuntime;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kubernetes API server of Eventplane, started programmatically (by {@link GatewayMain}, the launcher and tests):
 * it replays the event log into its view, then serves reads from the view and turns writes into commands for the
 * single writer. Several gateways may serve one log.
 */
public final class GatewayServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayServer.class);
    /** How long a write waits for the writer before answering 504 (the command may still apply). */
    public static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration VIEW_CATCH_UP = Duration.ofMinutes(10);
    private static final int WATCH_BUFFER = 10_000;
    /** Recent changes the view keeps for watches that resume from an older resourceVersion. */
    private static final int WATCH_CACHE = 200_000;
    private static final Duration SERVICE_UPKEEP = Duration.ofSeconds(10);

    private final Deque<AutoCloseable> parts = new ArrayDeque<>();
    private final Readiness readiness = new Readiness();
    private ObjectView view;
    private Requests requests;
    private ExecutorService watchPumps;
    private ApplicationContext context;
    private EmbeddedServer server;
    private String host;
    private volatile Thread systemObjects;
    private volatile boolean systemObjectsSeen;
    private ServiceAllocator services;
    private java.util.concurrent.ScheduledExecutorService upkeep;
    private volatile boolean closed;
    private GatewaySecurity security = GatewaySecurity.insecure();
    private Authentication authentication;

    private GatewayServer() {
    }

    /**
     * Starts a gateway and returns once it serves: the view has caught up with the log.
     *
     * @param port     the port to listen on; 0 picks a free one
     * @param bindHost the address to bind ({@code 127.0.0.1}, {@code 0.0.0.0})
     */
    public static GatewayServer start(EventplaneConfig config, int port, String bindHost) {
        return start(config, port, bindHost, ServiceNetwork.fromEnvironment(), Map.of());
    }

    /** As {@link #start(EventplaneConfig, int, String)}, allocating Services' IPs and ports from {@code network}. */
    public static GatewayServer start(EventplaneConfig config, int port, String bindHost, ServiceNetwork network) {
        return start(config, port, bindHost, network, Map.of());
    }

    /**
     * As {@link #start(EventplaneConfig, int, String, ServiceNetwork)}, with readiness checks in place before the
     * first request is served, so that {@code /readyz} never answers ready before what its starter waits for (the
     * launcher's startup).
     */
    public static GatewayServer start(EventplaneConfig config, int port, String bindHost, ServiceNetwork network,
                                      Map<String, BooleanSupplier> checks) {
        return start(config, port, bindHost, network, checks, false, GatewaySecurity.insecure());
    }

    /** As above, serving and authenticating as {@code security} says (TLS and required credentials, or plain HTTP). */
    public static GatewayServer start(EventplaneConfig config, int port, String bindHost, ServiceNetwork network,
                                      Map<String, BooleanSupplier> checks, GatewaySecurity security) {
        return start(config, port, bindHost, network, checks, false, security);
    }

    /**
     * @param sharedView serve from the process's shared view (one process running the API with other services, as
     *                   {@code eventplane up} does: the log is decoded once) instead of a view of its own
     * @param security   TLS and required credentials, or plain HTTP
     */
    public static GatewayServer start(EventplaneConfig config, int port, String bindHost, ServiceNetwork network,
                                      Map<String, BooleanSupplier> checks, boolean sharedView,
                                      GatewaySecurity security) {
        GatewayServer g = new GatewayServer();
        checks.forEach(g.readiness::add);
        g.security = security;
        try {
            g.doStart(config, port, bindHost, network, sharedView);
            return g;
        } catch (RuntimeException e) {
            g.close();
            throw e;
        } catch (Exception e) {
            g.close();
            throw new IllegalStateException("the API gateway did not start: " + e, e);
        }
    }

    private void doStart(EventplaneConfig config, int port, String bindHost, ServiceNetwork network, boolean sharedView)
            throws Exception {
        String id = "gateway-" + UUID.randomUUID().toString().substring(0, 8);
        TopicSetup.ensureTopics(config);
        view = keep((sharedView ? ObjectView.shared(config, WATCH_CACHE) : new ObjectView(config, id, WATCH_CACHE))
                .indexPodsByNode().start());
        if (!sharedView) {
            CustomKindsFeed.attach(view); // the shared view feeds them already
        }
        Outcomes outcomes = keep(new Outcomes(config, id + "-outcomes"));
        CommandSender sender = keep(new CommandSender(config, id));
        requests = new Requests(sender, outcomes, view);
        long t0 = System.nanoTime();
        view.awaitReady(VIEW_CATCH_UP);
        LOG.info("{}: view caught up with the event log in {} ms ({} objects)", id,
                (System.nanoTime() - t0) / 1_000_000, view.size());
        readiness.add("view", view::isReady);
        // Ready once the system objects existed; later losses (kube-node-lease deleted) are repaired, not unready.
        readiness.add("system-objects", () -> systemObjectsSeen || (systemObjectsSeen = SystemObjects.present(view)));
        watchPumps = Executors.newCachedThreadPool(daemonThreads(id + "-watch-"));
        LogWriter writer = LogWriter.of(requests, WRITE_TIMEOUT);
        services = new ServiceAllocator(network, view, writer);
        UsageView usage = keep(UsageView.shared(config));
        Backend backend = new Backend(config, view, requests, WRITE_TIMEOUT, WATCH_BUFFER, watchPumps,
                Clock.systemUTC(), services, usage);
        host = bindHost;
        authentication = security.authentication(new Authentication.ServiceAccounts() {
            @Override
            public Optional<String> uid(String namespace, String name) {
                return liveUid(Kinds.SERVICE_ACCOUNT.kind(), namespace, name);
            }

            @Override
            public Optional<String> podUid(String namespace, String name) {
                return liveUid(Kinds.POD.kind(), namespace, name);
            }

            @Override
            public boolean checksPods() {
                return true;
            }
        }, Clock.systemUTC());
        // Pods get projected ServiceAccount tokens only where the cluster signs them (its key, with TLS); plain-HTTP
        // gateways (tests, --insecure-http) sign with a throwaway key and mount nothing, as before.
        ServiceAccountTokens projectedTokens = security.signsServiceAccountTokens()
                ? authentication.serviceAccountTokens() : null;
        ApiRouter router = new ApiRouter(backend, readiness, this::serverAddress, authentication.serviceAccountTokens(),
                projectedTokens != null);
        if (security.impersonation() == null) {
            authentication = authentication.withImpersonation(router.authorization()::mayImpersonate);
        }
        context = ApplicationContext.builder()
                .properties(micronautProperties(port, bindHost, security))
                .singletons(new GatewayRuntime(router, new ConsoleRouter(config, view, Clock.systemUTC(),
                        Path.of(EventplaneConfig.setting("EVENTPLANE_LOADTEST_REPORTS", "loadtest-reports")),
                        router.authorization()),
                        watchPumps, new ContainerStreams(view, Clock.systemUTC(), watchPumps, projectedTokens), authentication))
                .deduceEnvironment(false)
                .banner(false)
                .start();
        server = context.getBean(EmbeddedServer.class).start();
        LOG.info("{}: serving the Kubernetes API at {} and the web console at {}/ui/", id, url(), url());
        SystemObjects.ensure(view, requests, WRITE_TIMEOUT);
        maintainSystemObjects(id);
        maintainServices(id, writer);
    }

    /**
     * kube-apiserver's own Service upkeep, now and every {@link #SERVICE_UPKEEP}: the kubernetes Service and its
     * endpoints, and the allocation repair loop.
     */
    private void maintainServices(String id, LogWriter writer) {
        String address = KubernetesService.advertiseAddress(
                EventplaneConfig.setting("EVENTPLANE_ADVERTISE_ADDRESS", ""), host);
        KubernetesService kubernetes = new KubernetesService(services, writer, Clock.systemUTC(), port(), address);
        AllocationRepair repair = new AllocationRepair(services, Clock.systemUTC(), AllocationRepair.GRACE);
        Runnable pass = () -> {
            try {
                if (view.get(Keys.of(Kinds.NAMESPACE.kind(), "", KubernetesService.NAMESPACE)).isPresent()) {
                    kubernetes.ensure();
                }
                repair.run();
            } catch (RuntimeException e) {
                LOG.warn("{}: Service upkeep: {}", id, e.toString());
            }
        };
        pass.run();
        upkeep = Executors.newSingleThreadScheduledExecutor(daemonThreads(id + "-services-"));
        upkeep.scheduleWithFixedDelay(pass, SERVICE_UPKEEP.toMillis(), SERVICE_UPKEEP.toMillis(), TimeUnit.MILLISECONDS);
    }

    private Optional<String> liveUid(String kind, String namespace, String name) {
        return view.get(Keys.of(kind, namespace, name))
                .filter(c -> c.getObject() != null && c.getType() != io.eventplane.log.ChangeType.DELETED)
                .map(c -> ObjectAccess.meta((org.apache.avro.specific.SpecificRecord) c.getObject()).getUid());
    }

    private static Map<String, Object> micronautProperties(int port, String bindHost, GatewaySecurity security) {
        Map<String, Object> p = new HashMap<>();
        p.put("micronaut.application.name", "eventplane-gateway");
        p.put("micronaut.server.host", bindHost);
        if (security.tls()) {
            // HTTPS only; client certificates are asked for, not required (tokens are the other way in).
            String password = java.util.UUID.randomUUID().toString();
            p.put("micronaut.server.ssl.enabled", true);
            p.put("micronaut.server.ssl.build-self-signed", false);
            p.put("micronaut.server.ssl.port", port == 0 ? -1 : port);
            p.put("micronaut.server.ssl.key-store.path", "file:" + security.pki().servingKeyStore(password));
            p.put("micronaut.server.ssl.key-store.password", password);
            p.put("micronaut.server.ssl.key-store.type", "PKCS12");
            p.put("micronaut.server.ssl.trust-store.path", "file:" + security.pki().caTrustStore(password));
            p.put("micronaut.server.ssl.trust-store.password", password);
            p.put("micronaut.server.ssl.trust-store.type", "PKCS12");
            p.put("micronaut.server.ssl.client-authentication", "want");
            p.put("micronaut.server.dual-protocol", false);
        } else {
            p.put("micronaut.server.port", port == 0 ? -1 : port);
        }
        // Far above Kubernetes' 3 MiB: bodies up to this size reach us and get a 413 Status from the router.
        p.put("micronaut.server.max-request-size", 64L * 1024 * 1024);
        p.put("micronaut.server.multipart.enabled", false);
        // Watches stay open for up to an hour.
        p.put("micronaut.server.idle-timeout", "65m");
        p.put("micronaut.server.read-idle-timeout", "65m");
        p.put("micronaut.server.write-idle-timeout", "65m");
        p.put("micronaut.server.netty.max-initial-line-length", 65536);
        p.put("micronaut.server.netty.max-header-size", 65536);
        p.put("micronaut.server.cors.enabled", false);
        return p;
    }

    /**
     * Creates the system objects again whenever they are missing, as kube-apiserver's system namespaces controller
     * does: every 2 s until they first exist, then every 30 s (a deleted kube-node-lease comes back once it is gone).
     */
    private void maintainSystemObjects(String id) {
        Thread t = new Thread(() -> {
            while (!closed) {
                try {
                    Thread.sleep(SystemObjects.present(view) ? 30_000 : 2000);
                } catch (InterruptedException e) {
                    return;
                }
                if (!closed && !SystemObjects.present(view)) {
                    SystemObjects.ensure(view, requests, WRITE_TIMEOUT);
                }
            }
        }, id + "-system-objects");
        t.setDaemon(true);
        t.start();
        systemObjects = t;
    }

    /** {@code https://host:port} ({@code http://} with {@code --insecure-http}), with a loopback host when bound to every address. */
    public String url() {
        String h = host == null || host.equals("0.0.0.0") || host.equals("::") || host.isEmpty() ? "127.0.0.1" : host;
        if (h.contains(":") && !h.startsWith("[")) {
            h = "[" + h + "]";
        }
        return (security.tls() ? "https://" : "http://") + h + ":" + port();
    }

    private String serverAddress() {
        return url().substring(url().indexOf("://") + 3);
    }

    /** How this gateway serves and authenticates. */
    public GatewaySecurity security() {
        return security;
    }

    public int port() {
        return server.getPort();
    }

    /** Whether the view is caught up and every added check passes: what {@code /readyz} answers. */
    public boolean isReady() {
        return server != null && server.isRunning() && readiness.ready();
    }

    /** Adds a named check to {@code /readyz} (the launcher adds the broker, registry, writer...). */
    public void addReadinessCheck(String name, BooleanSupplier check) {
        readiness.add(name, check);
    }

    /** Where this gateway allocates Services' cluster IPs and node ports from. */
    public ServiceNetwork serviceNetwork() {
        return services.network();
    }

    /** The gateway's own view of the log (for components that run in the same process). */
    public ObjectView view() {
        return view;
    }

    @Override
    public void close() {
        closed = true;
        if (upkeep != null) {
            upkeep.shutdownNow();
        }
        Thread retry = systemObjects;
        if (retry != null) {
            retry.interrupt();
        }
        if (server != null) {
            try {
                server.stop();
            } catch (RuntimeException e) {
                LOG.warn("stopping the HTTP server: {}", e.toString());
            }
        }
        if (context != null && context.isRunning()) {
            context.close();
        }
        if (watchPumps != null) {
            watchPumps.shutdownNow();
            try {
                watchPumps.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        while (!parts.isEmpty()) {
            try {
                parts.pop().close();
            } catch (Exception e) {
                LOG.warn("closing the gateway: {}", e.toString());
            }
        }
    }

    private <T extends AutoCloseable> T keep(T part) {
        parts.push(part);
        return part;
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
