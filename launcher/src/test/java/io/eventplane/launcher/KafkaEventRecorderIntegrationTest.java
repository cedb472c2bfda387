package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.ViewWaiter;
import io.eventplane.client.events.EventOrigin;
import io.eventplane.client.events.EventType;
import io.eventplane.client.events.KafkaEventRecorder;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Event;
import io.eventplane.model.ObjectReference;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.topology.WriterGroup;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Two recorders of one source (as two processes would be) on a real writer: they count on the same Event. */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaEventRecorderIntegrationTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final ObjectReference POD = ObjectReference.newBuilder().setKind("Pod").setApiVersion("v1")
            .setNamespace("default").setName("web").setUid("uid-web").build();

    private final ViewWaiter waiter = new ViewWaiter();
    private WriterGroup writer;
    private ObjectView viewA;
    private ObjectView viewB;
    private CommandSender senderA;
    private CommandSender senderB;
    private KafkaEventRecorder a;
    private KafkaEventRecorder b;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        SharedCluster cluster = SharedCluster.get();
        EventplaneConfig config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics("t" + UUID.randomUUID()), EventplaneConfig.configuredPartitions());
        writer = new WriterGroup(config, dir.resolve("writer"), 20).start();
        viewA = new ObjectView(config, "view-a");
        viewA.addListener(waiter);
        viewA.start();
        viewB = new ObjectView(config, "view-b").start();
        senderA = new CommandSender(config, "a");
        senderB = new CommandSender(config, "b");
        waiter.awaitTrue(DEADLINE, () -> writer.isReady() && viewA.isReady() && viewB.isReady(),
                () -> "writer " + writer.state());
        a = KafkaEventRecorder.start(config, senderA, viewA, "kubelet-a", Clock.systemUTC(), EventOrigin.kubelet("node-1"));
        b = KafkaEventRecorder.start(config, senderB, viewB, "kubelet-b", Clock.systemUTC(), EventOrigin.kubelet("node-1"));
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {a, b, senderA, senderB, viewA, viewB, writer}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing anyway
            }
        }
    }

    private List<Event> events() {
        return viewA.list(Kinds.EVENT.kind(), "default").stream().map(c -> (Event) c.getObject()).toList();
    }

    @Test
    @DisplayName("a repeat recorded by another instance, and then by the first whose idea of the Event is stale, counts on one Event")
    void twoRecordersOneEvent() throws Exception {
        a.record(POD, EventType.Normal, "Pulled", "Container image \"nginx:1.14.2\" already present on machine");
        assertTrue(a.awaitIdle(DEADLINE));
        b.record(POD, EventType.Normal, "Pulled", "Container image \"nginx:1.14.2\" already present on machine");
        assertTrue(b.awaitIdle(DEADLINE));
        a.record(POD, EventType.Normal, "Pulled", "Container image \"nginx:1.14.2\" already present on machine");
        assertTrue(a.awaitIdle(DEADLINE));

        Event e = waiter.await(DEADLINE, () -> events().stream().filter(x -> x.getCount() == 3).findFirst(),
                () -> "events: " + events());

        assertEquals(1, events().size());
        assertEquals("kubelet", e.getSource().getComponent());
        assertEquals("node-1", e.getSource().getHost());
        assertEquals(3, e.getSeries().getCount());
        assertEquals(0, a.failed() + b.failed());
        assertEquals(0, a.dropped() + b.dropped());
        ObjectChanged stored = viewA.get(Kinds.EVENT.kind(), "default", e.getMetadata().getName()).orElseThrow();
        assertEquals(Long.toString(stored.getResourceVersion()), e.getMetadata().getResourceVersion());
    }
}
