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
 * A watch stream as a reactive-streams publisher of raw chunks, one chunk per watch event. A pump on its own thread
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
                        subscriber.onNext(buffers.adapt(chunk));
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
