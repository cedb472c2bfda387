package io.eventplane.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.gateway.wire.WatchStream;
import io.micronaut.core.io.buffer.ReadBuffer;
import io.micronaut.core.io.buffer.ReadBufferFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

class WatchPublisherTest {
    /** A stream whose events come in bursts: each burst is ready at once, the next only after the one before. */
    private static final class Bursts implements WatchStream {
        private final Deque<Deque<String>> bursts = new ArrayDeque<>();

        Bursts(List<List<String>> bursts) {
            bursts.forEach(b -> this.bursts.add(new ArrayDeque<>(b)));
        }

        @Override
        public byte[] next() {
            while (!bursts.isEmpty() && bursts.peekFirst().isEmpty()) {
                bursts.removeFirst();
            }
            return bursts.isEmpty() ? null : bytes(bursts.peekFirst().removeFirst());
        }

        @Override
        public byte[] nextAvailable() {
            return bursts.isEmpty() || bursts.peekFirst().isEmpty() ? null : bytes(bursts.peekFirst().removeFirst());
        }

        @Override
        public void close() {
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> chunks(WatchStream stream) {
        List<String> chunks = new ArrayList<>();
        boolean[] complete = {false};
        new WatchPublisher(stream, Runnable::run, ReadBufferFactory.getJdkFactory()).subscribe(
                new Subscriber<ReadBuffer>() {
                    @Override
                    public void onSubscribe(Subscription s) {
                        s.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(ReadBuffer b) {
                        chunks.add(b.toString(StandardCharsets.UTF_8));
                    }

                    @Override
                    public void onError(Throwable t) {
                        throw new AssertionError(t);
                    }

                    @Override
                    public void onComplete() {
                        complete[0] = true;
                    }
                });
        assertTrue(complete[0]);
        return chunks;
    }

    @Test
    @DisplayName("watch: events ready together leave in one chunk (one write, one flush); a lone event in its own")
    void readyEventsShareAChunk() {
        List<String> chunks = chunks(new Bursts(List.of(List.of("a\n", "b\n", "c\n"), List.of("d\n"),
                List.of("e\n", "f\n"))));
        // the first chunk is the empty one that sends the headers
        assertEquals(List.of("", "a\nb\nc\n", "d\n", "e\nf\n"), chunks);
    }

    @Test
    @DisplayName("watch: a burst is cut into chunks of at most MAX_CHUNK bytes, never inside an event")
    void chunksAreBounded() {
        String event = "x".repeat(1023) + "\n";
        List<String> burst = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            burst.add(event);
        }
        List<String> chunks = chunks(new Bursts(List.of(burst)));
        int total = 0;
        for (String c : chunks.subList(1, chunks.size())) {
            assertTrue(c.length() <= WatchPublisher.MAX_CHUNK + event.length(), "bounded: " + c.length());
            assertEquals(0, c.length() % event.length(), "whole events only");
            total += c.length();
        }
        assertEquals(600 * event.length(), total);
        assertTrue(chunks.size() - 1 >= 3, "600 KiB in several chunks: " + (chunks.size() - 1));
    }
}
