package io.eventplane.gc;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.ViewWaiter;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ObjectChanged;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;

/** The writer, a view with a waiter, a user's command sender and whatever controllers a test adds, on fresh topics. */
final class GcLoop implements AutoCloseable {
    static final Duration DEADLINE = Duration.ofSeconds(60);
    final ViewWaiter waiter = new ViewWaiter();
    final Commands user = new Commands("test-user");
    EventplaneConfig config;
    io.eventplane.topology.WriterService writer;
    ObjectView view;
    CommandSender sender;
    private final java.util.List<AutoCloseable> controllers = new java.util.ArrayList<>();

    GcLoop start(Path dir) {
        SharedCluster cluster = SharedCluster.get();
        config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(), new Topics("t" + UUID.randomUUID()), 1);
        writer = new io.eventplane.topology.WriterService(config, dir.resolve("writer"), 20).start();
        view = new ObjectView(config, "test-view");
        view.addListener(waiter);
        view.start();
        sender = new CommandSender(config, "test-user");
        waiter.awaitTrue(DEADLINE, () -> writer.isReady() && view.isReady(), () -> "writer " + writer.state());
        return this;
    }

    <T extends AutoCloseable> T add(T controller, java.util.function.BooleanSupplier ready) {
        controllers.add(controller);
        waiter.awaitTrue(DEADLINE, ready::getAsBoolean, () -> controller + " not ready");
        return controller;
    }

    /** Creates the object and returns it as stored (with its uid). */
    @SuppressWarnings("unchecked")
    <T extends SpecificRecord> T create(T object) {
        var meta = ObjectAccess.meta(object);
        String kind = io.eventplane.core.kinds.Kinds.of(object).kind();
        sender.send(user.create(object));
        sender.flush();
        return (T) waiter.await(DEADLINE, () -> view.get(kind, meta.getNamespace() == null ? "" : meta.getNamespace(),
                meta.getName()).map(ObjectChanged::getObject), () -> kind + " " + meta.getName() + " not created");
    }

    void send(io.eventplane.log.Command command) {
        sender.send(command);
        sender.flush();
    }

    Optional<ObjectChanged> get(String kind, String namespace, String name) {
        return view.get(kind, namespace, name);
    }

    @Override
    public void close() {
        java.util.List<AutoCloseable> all = new java.util.ArrayList<>(controllers);
        all.add(sender);
        all.add(view);
        all.add(writer);
        for (AutoCloseable c : all) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing anyway
            }
        }
    }
}
