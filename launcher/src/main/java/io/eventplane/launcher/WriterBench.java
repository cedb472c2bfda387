package io.eventplane.launcher;

import io.eventplane.client.CommandSender;
import io.eventplane.client.CommandSigning;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.Requests;
import io.eventplane.client.TopicSetup;
import io.eventplane.client.pki.CommandCredentials;
import io.eventplane.core.Keys;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.Command;
import io.eventplane.topology.WriterGroup;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code eventplane bench writer}: the single writer's throughput (commands in, changes appended with exactly-once)
 * and one create's latency (send → writer → event → view).
 *
 * <p>A measured round runs the writer, the broker, a producer of commands and a consumer that counts the committed
 * events, and nothing else of ours. The load generator does its own work before the clock starts: each command's
 * record is a copy of one encoded create with its name's number and its request id written over (so no Avro code
 * runs for the measured commands, and the load generator compiles nothing the writer runs), and the events are
 * counted by key, not decoded. After the rounds, a view built from the log checks that every object is there.
 * {@code --inline-load} measures as this bench did before: commands built and encoded as they are sent, and counted
 * by a view in the same process, so the figure includes that work and its compilation.
 */
final class WriterBench {
    private WriterBench() {
    }

    static int run(EventplaneConfig config, Path work, Options options, long t0, PrintStream out, PrintStream err)
            throws Exception {
        int commands = options.intValue("commands", 20_000);
        int samples = options.intValue("latency-samples", 500);
        // creates sent (and waited for) before the measured ones: registers schemas, fills caches, lets the JIT compile
        int warmup = Math.max(1, options.intValue("warmup", 200));
        long commitInterval = options.intValue("commit-interval", 200);
        // measured rounds of --commands creates each, one after another in the same process
        int rounds = Math.max(1, options.intValue("rounds", 1));
        // writer instances (one Kafka Streams application, one stream thread each) sharing the partitions' tasks
        int writers = options.intValue("writers", 1);
        boolean inline = options.named().containsKey("inline-load");
        long tw = System.nanoTime();
        TopicSetup.ensureTopics(config);
        try (WriterGroup writer = new WriterGroup(config, work.resolve("writer"), commitInterval, writers).start()) {
            // Every instance running, and no rebalance among them for a moment (they join one after another).
            for (int stable = 0; stable < (writers > 1 ? 50 : 1); stable = writer.isReady() ? stable + 1 : 0) {
                Thread.sleep(20);
            }
            Clients clients = new Clients(config);
            out.printf("startup: writer running and view ready in %.2f s (whole bench setup %.2f s)%n",
                    (System.nanoTime() - tw) / 1e9, (System.nanoTime() - t0) / 1e9);
            Commands build = new Commands("bench");
            warmUp(clients, build, warmup, out);
            if (!inline) {
                clients.close();
            }
            try (Load load = inline ? null : new Load(config)) {
                // Round 1 is what a freshly started writer does; later rounds show it warm (the JIT done compiling).
                for (int round = 1; round <= rounds; round++) {
                    String prefix = namePrefix(round);
                    String label = rounds == 1 ? "throughput"
                            : "throughput, round " + round + " of " + rounds + (round == 1 ? " (cold)" : " (warm)");
                    Measured m = inline ? inlineRound(clients, build, prefix, commands, label, out)
                            : load.round(PreparedCommands.of(config, build, prefix, commands), label, out);
                    out.printf(label + ": %,d commands -> %,d events appended and %s in %.2f s = %,.0f events/s "
                                    + "(send took %.2f s; exactly_once_v2, commit.interval.ms=%d, fresh commands commit at once, %d "
                                    + "partition(s), %d writer instance(s))%n",
                            commands, commands, inline ? "visible in a view" : "committed", m.seconds, commands / m.seconds,
                            m.sendSeconds, commitInterval, config.partitions(), writers);
                    // On a shared machine the rate depends on what else runs; the CPU per event does much less.
                    out.printf(label + ": this process (%s) used %.1f s of CPU = %.1f cores, %.3f ms of CPU per event%n",
                            inline ? "writer, broker, view, load generator" : "writer, broker, producer, counting consumer",
                            m.cpuSeconds, m.cpuSeconds / m.seconds, m.cpuSeconds * 1000 / commands);
                    StringBuilder roles = new StringBuilder();
                    m.threads.forEach((role, nanos) -> roles.append(String.format(" %s %.3f ms,", role,
                            nanos / 1e6 / commands)));
                    out.printf(label + ": CPU per event by thread:%s the rest (other JVM threads, threads that ended) "
                            + "%.3f ms%n", roles, m.cpuSeconds * 1000 / commands - m.threads.values().stream()
                            .mapToLong(Long::longValue).sum() / 1e6 / commands);
                }
            }
            if (options.named().containsKey("verbose")) {
                for (WriterService w : writer.instances()) {
                    w.threadMetrics().forEach((k, v) -> out.printf("  writer %s = %.3f%n", k, v));
                }
            }
            if (!inline) {
                long tv = System.nanoTime();
                clients = new Clients(config);
                for (int round = 1; round <= rounds; round++) {
                    int found = clients.view.listByNamePrefix("Pod", "default", namePrefix(round)).size();
                    if (found != commands) {
                        err.printf("bench: a view built from the log holds %,d of round %d's %,d pods%n", found, round,
                                commands);
                        return 1;
                    }
                }
                out.printf("check: a view built from the log holds all %,d pods of the measured round(s) (%.2f s)%n",
                        commands * rounds, (System.nanoTime() - tv) / 1e9);
            }
            try (Clients c = clients) {
                return latency(c, build, samples, out, err);
            }
        }
    }

    /** What the names of a round's pods start with. */
    private static String namePrefix(int round) {
        return "tp" + round + "-";
    }

    /** The view, verdicts and command producer the warm-up, the check and the latency samples go through. */
    private static final class Clients implements AutoCloseable {
        final ObjectView view;
        final Outcomes outcomes;
        final CommandSender sender;
        final Requests requests;

        Clients(EventplaneConfig config) throws Exception {
            view = new ObjectView(config, "bench-view", 1000).start();
            outcomes = new Outcomes(config, "bench-outcomes");
            sender = new CommandSender(config, "bench");
            requests = new Requests(sender, outcomes, view);
            view.awaitReady(Duration.ofSeconds(60));
        }

        @Override
        public void close() {
            sender.close();
            outcomes.close();
            view.close();
        }
    }

    /**
     * Registers schemas, fills caches, lets the JIT compile. Beyond a few hundred, sent in bulk as the inline load
     * sends (so that the same paths compile), then waited for.
     */
    private static void warmUp(Clients clients, Commands build, int warmup, PrintStream out) throws Exception {
        long tWarm = System.nanoTime();
        for (int i = 0; i < Math.min(warmup, 200); i++) {
            clients.requests.submit(build.create(BenchCommand.pod("warm-" + i)), Duration.ofSeconds(30)).get();
        }
        if (warmup > 200) {
            AtomicLong warmed = countCreated(clients.view, "warm-bulk-");
            for (int i = 200; i < warmup; i++) {
                clients.sender.send(build.create(BenchCommand.pod("warm-bulk-" + i)));
            }
            clients.sender.flush();
            while (warmed.get() < warmup - 200) {
                Thread.sleep(5);
            }
        }
        out.printf("warm-up: %,d creates in %.2f s before the measured ones%n", warmup,
                (System.nanoTime() - tWarm) / 1e9);
    }

    /** What one measured round took: wall seconds, of which sending, the process's CPU, and CPU by thread role. */
    private record Measured(double seconds, double sendSeconds, double cpuSeconds, Map<String, Long> threads) {
    }

    /** Starts the clock and the CPU counters; {@link #sent} marks the end of sending, {@link #stop} reads them. */
    private static final class Clock {
        final long start = System.nanoTime();
        final long cpuStart = CpuUsage.processCpuNanos();
        final Map<String, Long> threadsStart = BenchCommand.threadCpuByRole();
        private long sent;
        private long lastPrint;

        void sent() {
            sent = System.nanoTime();
            lastPrint = sent;
        }

        Measured stop() {
            double secs = (System.nanoTime() - start) / 1e9;
            double cpu = (CpuUsage.processCpuNanos() - cpuStart) / 1e9;
            Map<String, Long> threads = new java.util.TreeMap<>();
            BenchCommand.threadCpuByRole().forEach((role, end) -> threads.put(role, end - threadsStart.getOrDefault(role, 0L)));
            return new Measured(secs, (sent - start) / 1e9, cpu, threads);
        }

        /** Prints how far a round is, at most once a second. */
        void progress(long seen, int commands, PrintStream out) {
            if (System.nanoTime() - lastPrint > 1_000_000_000L) {
                lastPrint = System.nanoTime();
                out.printf("  ... %,d / %,d events (%.1f s)%n", seen, commands, (lastPrint - start) / 1e9);
            }
        }
    }

    /** A round as before step 11: each command built and encoded as it is sent, the events counted by a view. */
    private static Measured inlineRound(Clients clients, Commands build, String prefix, int commands, String label,
                                        PrintStream out) throws InterruptedException {
        AtomicLong seen = countCreated(clients.view, prefix);
        out.printf(label + ": sending %,d creates...%n", commands);
        Clock clock = new Clock();
        for (int i = 0; i < commands; i++) {
            clients.sender.send(build.create(BenchCommand.pod(prefix + i)));
        }
        clients.sender.flush();
        clock.sent();
        while (seen.get() < commands) {
            Thread.sleep(5);
            clock.progress(seen.get(), commands, out);
        }
        return clock.stop();
    }

    /** The measured rounds' producer of prepared commands and the consumer that counts committed events by key. */
    private static final class Load implements AutoCloseable {
        private final KafkaProducer<byte[], byte[]> producer;
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final String topic;

        Load(EventplaneConfig config) {
            topic = config.topics().commands();
            producer = new KafkaProducer<>(CommandSender.producerConfig(config, "bench-load"),
                    new ByteArraySerializer(), new ByteArraySerializer());
            Map<String, Object> props = config.kafkaConfig();
            props.put(ConsumerConfig.CLIENT_ID_CONFIG, "bench-count");
            props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
            consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            List<TopicPartition> parts = new ArrayList<>();
            for (int p = 0; p < config.partitions(); p++) {
                parts.add(new TopicPartition(config.topics().events(), p));
            }
            consumer.assign(parts);
            consumer.seekToEnd(parts);
            parts.forEach(consumer::position);
            producer.partitionsFor(topic);
        }

        Measured round(PreparedCommands commands, String label, PrintStream out) {
            int n = commands.size();
            out.printf(label + ": sending %,d prepared creates...%n", n);
            Clock clock = new Clock();
            for (int i = 0; i < n; i++) {
                producer.send(new ProducerRecord<>(topic, null, commands.keys[i], commands.values[i],
                        commands.headers));
            }
            producer.flush();
            clock.sent();
            long seen = 0;
            byte[] prefix = commands.keyPrefix;
            while (seen < n) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    byte[] key = r.key();
                    if (key != null && key.length >= prefix.length
                            && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)) {
                        seen++;
                    }
                }
                clock.progress(seen, n, out);
            }
            return clock.stop();
        }

        @Override
        public void close() {
            producer.close();
            consumer.close();
        }
    }

    /** Samples one create at a time: send → writer → event → view. */
    private static int latency(Clients clients, Commands build, int samples, PrintStream out, PrintStream err)
            throws Exception {
        long[] latencies = new long[samples];
        for (int i = 0; i < samples; i++) {
            Command c = build.create(BenchCommand.pod("lat-" + i));
            long s = System.nanoTime();
            Requests.Result r = clients.requests.submit(c, Duration.ofSeconds(30)).get();
            latencies[i] = System.nanoTime() - s;
            if (!r.accepted()) {
                err.println("bench: create rejected: " + r.outcome().getMessage());
                return 1;
            }
        }
        if (samples > 0) {
            Arrays.sort(latencies);
            out.printf("create latency (n=%d, one at a time, send -> writer -> event -> view): p50 %.1f ms, "
                            + "p90 %.1f ms, p99 %.1f ms, max %.1f ms%n", samples, BenchCommand.pct(latencies, 50),
                    BenchCommand.pct(latencies, 90), BenchCommand.pct(latencies, 99), latencies[samples - 1] / 1e6);
        }
        return 0;
    }

    /** A count of the changes to objects named {@code prefix}... that the view applies from now on. */
    private static AtomicLong countCreated(ObjectView view, String prefix) {
        AtomicLong count = new AtomicLong();
        view.addListener(c -> {
            if (c.getName().startsWith(prefix)) {
                count.incrementAndGet();
            }
        });
        return count;
    }

    /**
     * A round's command records, prepared before the clock: copies of one encoded create in which the name's number
     * (fixed width, so no length in the bytes changes) and the request id are written over, then checked by decoding
     * the last one.
     */
    static final class PreparedCommands {
        final byte[][] keys;
        final byte[][] values;
        final byte[] keyPrefix;
        final List<Header> headers;

        private PreparedCommands(int n, byte[] keyPrefix, List<Header> headers) {
            keys = new byte[n][];
            values = new byte[n][];
            this.keyPrefix = keyPrefix;
            this.headers = headers;
        }

        int size() {
            return keys.length;
        }

        static PreparedCommands of(EventplaneConfig config, Commands build, String prefix, int n) {
            int digits = Math.max(7, Integer.toString(n).length());
            String name0 = prefix + "0".repeat(digits);
            Command first = build.create(BenchCommand.pod(name0));
            byte[] value;
            try (var serializer = LogSerdes.commands(config).serializer()) {
                value = serializer.serialize(config.topics().commands(), first);
            }
            byte[] nameBytes = name0.getBytes(StandardCharsets.UTF_8);
            int[] nameAt = occurrences(value, nameBytes);
            String requestId = first.getEnvelope().getRequestId();
            int[] idAt = occurrences(value, requestId.getBytes(StandardCharsets.UTF_8));
            if (nameAt.length == 0 || idAt.length != 1) {
                throw new IllegalStateException("bench: cannot find the name and request id in an encoded create");
            }
            byte[] keyBytes = Keys.of(first.getKind(), first.getNamespace(), name0).getBytes(StandardCharsets.UTF_8);
            String credential = CommandSigning.credentialFor(first.getEnvelope().getActor());
            List<Header> headers = credential == null ? List.of() : List.of(
                    new RecordHeader(CommandCredentials.HEADER, credential.getBytes(StandardCharsets.UTF_8)));
            PreparedCommands out = new PreparedCommands(n,
                    Keys.of(first.getKind(), first.getNamespace(), prefix).getBytes(StandardCharsets.UTF_8), headers);
            int idDigits = 12;   // the request id's last group: 12 hex digits, here decimal ones
            for (int i = 0; i < n; i++) {
                byte[] v = value.clone();
                for (int at : nameAt) {
                    writeNumber(v, at + nameBytes.length - digits, digits, i);
                }
                writeNumber(v, idAt[0] + requestId.length() - idDigits, idDigits, i);
                byte[] k = keyBytes.clone();
                writeNumber(k, k.length - digits, digits, i);
                out.keys[i] = k;
                out.values[i] = v;
            }
            try (var deserializer = LogSerdes.commands(config).deserializer()) {
                Command last = deserializer.deserialize(config.topics().commands(), out.values[n - 1]);
                String name = prefix + String.format("%0" + digits + "d", n - 1);
                if (!last.getName().equals(name)
                        || !ObjectAccess.meta((SpecificRecord) last.getObject()).getName().equals(name)
                        || !last.getEnvelope().getRequestId().endsWith(String.format("%012d", n - 1))
                        || !new String(out.keys[n - 1], StandardCharsets.UTF_8).equals(
                                Keys.of(last.getKind(), last.getNamespace(), name))) {
                    throw new IllegalStateException("bench: a prepared create decodes as " + last);
                }
            }
            return out;
        }

        /** Where {@code part} starts in {@code bytes}, each occurrence. */
        static int[] occurrences(byte[] bytes, byte[] part) {
            List<Integer> at = new ArrayList<>();
            for (int i = 0; i + part.length <= bytes.length; i++) {
                if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                    at.add(i);
                    i += part.length - 1;
                }
            }
            return at.stream().mapToInt(Integer::intValue).toArray();
        }

        /** Writes {@code value} as {@code width} decimal digits (ASCII) at {@code offset}. */
        static void writeNumber(byte[] bytes, int offset, int width, long value) {
            for (int i = offset + width - 1; i >= offset; i--) {
                bytes[i] = (byte) ('0' + value % 10);
                value /= 10;
            }
        }
    }
}
