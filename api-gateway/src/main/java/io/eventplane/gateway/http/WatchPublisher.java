package io.eventplane.gateway.http;

import io.eventplane.gateway.wire.WatchStream;
import io.micronaut.core.io.buffer.ReadBuffer;
import io.micronaut.core.io.buffer.ReadBufferFactory;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * A watch stream as a reactive-streams publisher of raw chunks: a watch event, with the events that are ready behind
 * it (one write and one flush for what a burst queued, as kube-apiserver flushes when its queue is empty). A pump on its own thread
 * pulls from the (blocking) stream while the HTTP layer has demand; without demand it stops, and a watcher that keeps
 * the server waiting overflows its bounded view subscription and is closed.
 */
final class WatchPublisher implements Publisher<ReadBuffer> {
    private final WatchStream stream;
    private final Executor pumps;
    private final ReadBufferFactory buffers;
    private final AtomicBoolean subscribed = new AtomicBoolean();

    WatchPublisher(WatchStream stream, Executor pumps, ReadBufferFactory buffers) {
        this.stream = stream;
        this.pumps = pumps;
        this.buffers = buffers;
    }

    @Override
    public void subscribe(Subscriber<? super ReadBuffer> subscriber) {
        if (!subscribed.compareAndSet(false, true)) {
            subscriber.onSubscribe(new Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            subscriber.onError(new IllegalStateException("a watch stream has one subscriber"));
            return;
        }
        subscriber.onSubscribe(new Pump(subscriber));
    }

    /** At most this much is gathered into one chunk (one write, one flush). */
    static final int MAX_CHUNK = 256 * 1024;

    private final class Pump implements Subscription, Runnable {
        private final Subscriber<? super ReadBuffer> subscriber;
        private final AtomicLong demand = new AtomicLong();
        private final AtomicInteger work = new AtomicInteger();
        private volatile boolean cancelled;
        private volatile boolean done;
        private boolean headersFlushed;

        Pump(Subscriber<? super ReadBuffer> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                cancel();
                subscriber.onError(new IllegalArgumentException("request must be positive (rule 3.9)"));
                return;
            }
            demand.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
            if (work.getAndIncrement() == 0) {
                pumps.execute(this);
            }
        }

        /**
         * {@code first} and whatever else the stream has ready, up to {@link #MAX_CHUNK}: under a burst a watcher
         * gets its events in a few writes instead of one write and flush each (watch events are framed in the
         * stream, not by chunks).
         */
        private byte[] withReady(byte[] first) {
            byte[] more = first.length >= MAX_CHUNK ? null : stream.nextAvailable();
            if (more == null) {
                return first;
            }
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(Math.min(MAX_CHUNK,
                    Math.max(8192, (first.length + more.length) * 8)));
            out.writeBytes(first);
            out.writeBytes(more);
            while (out.size() < MAX_CHUNK && (more = stream.nextAvailable()) != null) {
                out.writeBytes(more);
            }
            return out.toByteArray();
        }

        @Override
        public void cancel() {
            cancelled = true;
            stream.close();
        }

        @Override
        public void run() {
            int missed = 1;
            try {
                while (true) {
                    while (!cancelled && !done && demand.get() > 0) {
                        if (!headersFlushed) {
                            // Micronaut writes the response head unflushed and flushes it with the first chunk: an
                            // empty first chunk (no bytes on the wire) sends the headers now, as kube-apiserver does,
                            // so that clients see the watch established before any event.
                            headersFlushed = true;
                            demand.decrementAndGet();
                            subscriber.onNext(buffers.adapt(new byte[0]));
                            continue;
                        }
                        byte[] chunk = stream.next();
                        if (chunk == null) {
                            done = true;
                            stream.close();
                            if (!cancelled) {
                                subscriber.onComplete();
                            }
                            return;
                        }
                        if (cancelled) {
                            return;
                        }
                        demand.decrementAndGet();
                        subscriber.onNext(buffers.adapt(withReady(chunk)));
                    }
                    if (cancelled || done) {
                        return;
                    }
                    missed = work.addAndGet(-missed);
                    if (missed == 0) {
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stream.close();
            } catch (Throwable t) {
                done = true;
                stream.close();
                if (!cancelled) {
                    subscriber.onError(t);
                }
            }
        }
    }
}
