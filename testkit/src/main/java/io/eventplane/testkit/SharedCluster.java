package io.eventplane.testkit;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * One Kafka broker and one Apicurio Registry per JVM, each started on first use and stopped by a shutdown hook.
 *
 * <p>Tests share them, so they must use unique names ({@link #uniqueName(String)}) for topics, subjects, consumer
 * groups and Streams application ids. Use {@code @ExtendWith(SharedClusterExtension.class)} or call
 * {@link #get()} directly.
 */
public final class SharedCluster {

    private static final Object INSTANCE_LOCK = new Object();
    private static final AtomicLong NAME_SEQUENCE = new AtomicLong();
    private static volatile SharedCluster instance;

    private final Lazy<EmbeddedKafka> kafka = new Lazy<>(() -> EmbeddedKafka.builder().build().start());
    private final Lazy<ApicurioRegistry> registry = new Lazy<>(() -> ApicurioRegistry.builder().build().start());
    private final Lazy<Admin> admin = new Lazy<>(() -> Admin.create(Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
            AdminClientConfig.CLIENT_ID_CONFIG, "eventplane-shared-cluster")));

    private SharedCluster() {
    }

    /** The JVM's shared cluster; nothing is started until a component is first used. */
    public static SharedCluster get() {
        SharedCluster current = instance;
        if (current != null) {
            return current;
        }
        synchronized (INSTANCE_LOCK) {
            if (instance == null) {
                SharedCluster created = new SharedCluster();
                Runtime.getRuntime().addShutdownHook(new Thread(created::stop, "shared-cluster-shutdown"));
                instance = created;
            }
            return instance;
        }
    }

    /** Starts the broker and the registry concurrently (the registry is a separate process) and waits for both. */
    public SharedCluster startAll() {
        CompletableFuture<ApicurioRegistry> registryStart = CompletableFuture.supplyAsync(registry::get);
        kafka.get();
        try {
            registryStart.get(5, TimeUnit.MINUTES);
        } catch (ExecutionException | CompletionException e) {
            throw new IllegalStateException("Apicurio Registry failed to start", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Apicurio Registry did not start within 5 minutes", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the shared cluster", e);
        }
        return this;
    }

    public EmbeddedKafka kafka() {
        return kafka.get();
    }

    public ApicurioRegistry registry() {
        return registry.get();
    }

    public String bootstrapServers() {
        return kafka().bootstrapServers();
    }

    /** The registry's Confluent-compatible base URL, for {@code schema.registry.url}. */
    public String registryUrl() {
        return registry().url();
    }

    /** An admin client shared by the JVM's tests; do not close it. */
    public Admin admin() {
        return admin.get();
    }

    /** Creates single-partition topics; topics that already exist are left as they are. */
    public void createTopics(String... names) {
        createTopics(Arrays.stream(names).map(name -> new NewTopic(name, 1, (short) 1)).toList());
    }

    /** Creates topics with the given partition count; topics that already exist are left as they are. */
    public void createTopics(int partitions, String... names) {
        createTopics(Arrays.stream(names).map(name -> new NewTopic(name, partitions, (short) 1)).toList());
    }

    /** Creates the topics and waits until the broker confirms each; existing topics are left as they are. */
    public void createTopics(Collection<NewTopic> topics) {
        CreateTopicsResult result = admin().createTopics(List.copyOf(topics));
        result.values().forEach((name, future) -> {
            try {
                future.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topic " + name, e.getCause());
                }
            } catch (TimeoutException e) {
                throw new IllegalStateException("topic " + name + " was not created within 30 s", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while creating topic " + name, e);
            }
        });
    }

    /** {@code <prefix>-<n>-<random>}: unique within the JVM and across the JVM's restarts on the shared broker. */
    public static String uniqueName(String prefix) {
        return prefix + "-" + NAME_SEQUENCE.incrementAndGet() + "-"
                + Long.toString(System.nanoTime() & 0xffffffL, 36);
    }

    private void stop() {
        admin.ifCreated(client -> client.close(Duration.ofSeconds(5)));
        registry.ifCreated(ApicurioRegistry::close);
        kafka.ifCreated(EmbeddedKafka::close);
    }

    /** A value created once, on first use; a failed creation is retried by the next caller. */
    private static final class Lazy<T> {
        private final Supplier<T> factory;
        private volatile T value;

        Lazy(Supplier<T> factory) {
            this.factory = factory;
        }

        T get() {
            T current = value;
            if (current != null) {
                return current;
            }
            synchronized (this) {
                if (value == null) {
                    value = factory.get();
                }
                return value;
            }
        }

        void ifCreated(java.util.function.Consumer<T> action) {
            T current = value;
            if (current != null) {
                try {
                    action.accept(current);
                } catch (RuntimeException e) {
                    // Shutting down: report and carry on with the other components.
                    System.err.println("SharedCluster: " + e);
                }
            }
        }
    }
}
