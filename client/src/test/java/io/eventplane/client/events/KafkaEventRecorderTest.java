package io.eventplane.client.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.log.Command;
import io.eventplane.log.Verb;
import io.eventplane.model.Event;
import io.eventplane.model.ObjectReference;
import io.eventplane.testkit.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The recorder's queue, sender thread and aggregation against an in-memory writer (no Kafka). */
class KafkaEventRecorderTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    private static final Duration IDLE = Duration.ofSeconds(10);
    private static final ObjectReference NGINX = EventAggregationTest.NGINX;
    private static final String FAILED = "0/3 nodes are available: 3 Insufficient cpu.";

    private final VirtualClock clock = new VirtualClock(T0);
    private final InMemoryEventStore store = new InMemoryEventStore();
    private KafkaEventRecorder recorder;

    private KafkaEventRecorder recorder(int capacity, int inFlight) {
        recorder = new KafkaEventRecorder(store, new Commands("test", clock), clock,
                new EventOrigin("default-scheduler", null, "default-scheduler-test"), capacity, inFlight);
        return recorder;
    }

    @AfterEach
    void close() {
        if (recorder != null) {
            recorder.close();
        }
    }

    private void idle() throws InterruptedException {
        assertTrue(recorder.awaitIdle(IDLE), "the recorder wrote everything");
    }

    private Event only() {
        List<Event> all = store.all();
        assertEquals(1, all.size(), "one Event: " + all);
        return all.get(0);
    }

    @Test
    @DisplayName("a repeated event within 10 minutes updates one Event: count, lastTimestamp, series")
    void repeatsAggregate() throws Exception {
        KafkaEventRecorder r = recorder(100, 10);
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();
        clock.advance(Duration.ofMinutes(4));
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();
        clock.advance(Duration.ofMinutes(9));
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();

        Event e = only();
        assertEquals(3, e.getCount());
        assertEquals(T0, e.getFirstTimestamp());
        assertEquals(T0.plus(Duration.ofMinutes(13)), e.getLastTimestamp());
        assertEquals(3, e.getSeries().getCount());
        assertEquals("Warning", e.getType());
        assertEquals(List.of(Verb.CREATE, Verb.UPDATE, Verb.UPDATE), store.commands.stream().map(Command::getVerb).toList());
        for (Command c : store.commands.subList(1, 3)) {
            assertTrue(((Event) c.getObject()).getMetadata().getResourceVersion() != null,
                    "an update carries the resourceVersion it was decided on");
        }
        assertEquals(3, r.written());
    }

    @Test
    @DisplayName("a burst of the same event is merged while a write is in flight: every occurrence counts, fewer writes")
    void burstsMerge() throws Exception {
        store.hold();
        KafkaEventRecorder r = recorder(100, 10);
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        store.awaitHeld(1);
        for (int i = 0; i < 9; i++) {
            r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        }
        store.release();
        idle();

        assertEquals(10, only().getCount());
        assertEquals(2, store.commands.size(), "one create, then one update for the nine merged repeats");
    }

    @Test
    @DisplayName("another message, reason or object is another Event")
    void differentEvents() throws Exception {
        KafkaEventRecorder r = recorder(100, 10);
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        r.record(NGINX, EventType.Warning, "FailedScheduling", "0/3 nodes are available: 3 Insufficient memory.");
        r.record(NGINX, EventType.Normal, "Scheduled", "Successfully assigned default/nginx to node-1");
        r.record(ObjectReference.newBuilder(NGINX).setName("web").setUid("uid-web").build(), EventType.Normal,
                "Scheduled", "Successfully assigned default/web to node-1");
        idle();

        assertEquals(4, store.all().size());
        store.all().forEach(e -> assertEquals(1, e.getCount()));
    }

    @Test
    @DisplayName("a repeat after 10 quiet minutes starts the Event over (count 1), under the same name")
    void quietWindowStartsOver() throws Exception {
        KafkaEventRecorder r = recorder(100, 10);
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();
        clock.advance(Duration.ofMinutes(11));
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();

        Event e = only();
        assertEquals(1, e.getCount());
        assertEquals(T0.plus(Duration.ofMinutes(11)), e.getFirstTimestamp());
    }

    @Test
    @DisplayName("after a restart, a repeat finds the Event an earlier recorder wrote and counts it up")
    void restartFindsTheEvent() throws Exception {
        KafkaEventRecorder earlier = recorder(100, 10);
        earlier.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();
        earlier.close();

        KafkaEventRecorder later = recorder(100, 10);
        clock.advance(Duration.ofMinutes(1));
        later.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();

        assertEquals(2, only().getCount());
    }

    @Test
    @DisplayName("an update that conflicts (someone else wrote the Event) re-reads it and is retried once")
    void conflictRetriesOnce() throws Exception {
        KafkaEventRecorder r = recorder(100, 10);
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();
        Event mine = only();
        store.writeBehindTheRecordersBack("default", mine.getMetadata().getName(),
                Event.newBuilder(mine).setCount(5).build());

        clock.advance(Duration.ofSeconds(10));
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();

        assertEquals(6, only().getCount(), "counted on top of what the other writer stored");
        assertEquals(List.of(Verb.CREATE, Verb.UPDATE, Verb.UPDATE), store.commands.stream().map(Command::getVerb).toList());
        assertEquals(0, r.failed());
    }

    @Test
    @DisplayName("an update that conflicts twice is given up, logged and counted")
    void secondConflictGivesUp() throws Exception {
        KafkaEventRecorder r = recorder(100, 10);
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();
        store.forceConflicts(2);
        r.record(NGINX, EventType.Warning, "FailedScheduling", FAILED);
        idle();

        assertEquals(1, only().getCount());
        assertEquals(1, r.failed());
        assertEquals(3, store.commands.size(), "the create, the update and its one retry");
    }

    @Test
    @DisplayName("an Event deleted behind the recorder's back is created again")
    void deletedIsCreatedAgain() throws Exception {
        KafkaEventRecorder r = recorder(100, 10);
        r.record(NGINX, EventType.Normal, "Scheduled", "Successfully assigned default/nginx to node-1");
        idle();
        InMemoryEventStore fresh = store;
        String name = only().getMetadata().getName();
        fresh.delete("default", name);

        r.record(NGINX, EventType.Normal, "Scheduled", "Successfully assigned default/nginx to node-1");
        idle();

        assertEquals(1, only().getCount());
        assertEquals(List.of(Verb.CREATE, Verb.UPDATE, Verb.CREATE), store.commands.stream().map(Command::getVerb).toList());
    }

    @Test
    @DisplayName("recording never blocks: with the writer stalled, a full queue drops occurrences and counts them")
    void fullQueueDrops() throws Exception {
        store.hold();
        KafkaEventRecorder r = recorder(2, 1);
        r.record(NGINX, EventType.Normal, "Pulling", "Pulling image \"nginx\"");
        store.awaitHeld(1); // one write in flight: the sender thread takes nothing more

        // The write stays held until release(): had record() waited for room, this loop would never end.
        for (int i = 0; i < 9; i++) {
            r.record(NGINX, EventType.Normal, "Reason" + i, "message " + i);
        }
        assertEquals(7, r.dropped(), "two waited in the queue, seven were dropped");
        store.release();
        idle();
        assertEquals(3, store.all().size());
        assertEquals(3, r.written());
    }

    @Test
    @DisplayName("a recorder for another source (a kubelet on node-1) shares the queue and sets source.host")
    void otherSource() throws Exception {
        KafkaEventRecorder r = recorder(100, 10);
        EventRecorder kubelet = r.from(EventOrigin.kubelet("node-1"));
        kubelet.record(ObjectReferences.withFieldPath(NGINX, "spec.containers{nginx}"), EventType.Normal, "Started",
                "Started container nginx");
        idle();

        Event e = only();
        assertEquals("kubelet", e.getSource().getComponent());
        assertEquals("node-1", e.getSource().getHost());
        assertEquals("kubelet", e.getReportingComponent());
        assertEquals("node-1", e.getReportingInstance());
        assertEquals("spec.containers{nginx}", e.getInvolvedObject().getFieldPath());
    }
}
