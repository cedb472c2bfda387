package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.TopicSetup;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateRunning;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodIP;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.schemas.Topics;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code eventplane bench view}: how the gateway serves reads at scale. Fills a fresh event log with N running pods
 * spread over M nodes (written straight to the log: this measures reads, not the writer), starts a gateway on it and
 * reports the replay rate, the heap the view takes, and list latencies over HTTP: pods of one node by field selector,
 * a 500-item page, and the whole list.
 */
final class ViewBench {
    private ViewBench() {
    }

    static void run(EventplaneConfig base, Path work, int pods, int nodes, PrintStream out) throws Exception {
        EventplaneConfig config = new EventplaneConfig(base.bootstrapServers(), base.registryUrl(),
                new Topics("viewbench" + UUID.randomUUID().toString().substring(0, 8)), 1);
        TopicSetup.ensureTopics(config);
        long t0 = System.nanoTime();
        Map<String, Object> props = config.kafkaConfig();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        try (KafkaProducer<String, ObjectChanged> producer = new KafkaProducer<>(props, new StringSerializer(),
                LogSerdes.changes(config).serializer())) {
            for (int i = 0; i < pods; i++) {
                ObjectChanged c = runningPod(i, nodes);
                producer.send(new ProducerRecord<>(config.topics().events(), "Pod/default/" + c.getName(), c));
                if ((i + 1) % 50_000 == 0) {
                    out.printf("  ... %,d pods written to the log%n", i + 1);
                }
            }
        }
        out.printf("view: wrote %,d running pods on %,d nodes to a fresh log in %.1f s%n", pods, nodes,
                (System.nanoTime() - t0) / 1e9);

        long heapBefore = usedHeapAfterGc();
        long replayStart = System.nanoTime();
        try (io.eventplane.client.ObjectView alone = new io.eventplane.client.ObjectView(config, "viewbench").start()) {
            alone.awaitReady(Duration.ofMinutes(10));
            double secs = (System.nanoTime() - replayStart) / 1e9;
            out.printf("view: a bare view rebuilt %,d objects from the log in %.2f s (%,.0f changes/s)%n",
                    alone.size(), secs, alone.size() / secs);
        }
        try (WriterService writer = new WriterService(config, work.resolve("viewbench-writer"), 20).start()) {
            long start = System.nanoTime();
            GatewayServer gateway = GatewayServer.start(config, 0, "127.0.0.1");
            try {
                double replay = (System.nanoTime() - start) / 1e9;
                long heapAfter = usedHeapAfterGc();
                out.printf("view: gateway ready in %.1f s (replayed %,d changes: %,.0f changes/s)%n", replay,
                        pods, pods / replay);
                out.printf("view: heap held by the gateway (and the writer) with %,d pods: %,d MiB more than before (%.1f KiB per pod)%n",
                        pods, (heapAfter - heapBefore) >> 20, (heapAfter - heapBefore) / 1024.0 / pods);
                HttpClient http = HttpClient.newHttpClient();
                String api = gateway.url() + "/api/v1/namespaces/default/pods";
                String table = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
                latency(out, http, "list the ~" + pods / nodes + " pods of one node (fieldSelector=spec.nodeName)",
                        i -> api + "?fieldSelector=spec.nodeName%3Dnode-" + (1 + i % nodes), "application/json", 300);
                latency(out, http, "list one page of 500 pods (limit=500, as kubectl get does)",
                        i -> api + "?limit=500", table, 100);
                latency(out, http, "list all " + pods + " pods (JSON)", i -> api, "application/json", 5);
            } finally {
                gateway.close();
            }
        }
    }

    interface Url {
        String at(int i);
    }

    private static void latency(PrintStream out, HttpClient http, String what, Url url, String accept, int n)
            throws Exception {
        long[] t = new long[n];
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            long s = System.nanoTime();
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(url.at(i))).header("Accept", accept)
                    .timeout(Duration.ofMinutes(2)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            t[i] = System.nanoTime() - s;
            if (r.statusCode() != 200) {
                throw new IllegalStateException(what + ": HTTP " + r.statusCode());
            }
            bytes = r.body().length;
        }
        Arrays.sort(t);
        out.printf("view: %s: p50 %.1f ms, p99 %.1f ms (n=%d, %,d bytes)%n", what, BenchCommand.pct(t, 50),
                BenchCommand.pct(t, 99), n, bytes);
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        java.lang.management.MemoryMXBean memory = java.lang.management.ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            memory.gc();
            Thread.sleep(300);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    static ObjectChanged runningPod(int i, int nodes) {
        Instant now = Instant.parse("2026-11-21T10:00:00Z");
        String name = "pod-" + i;
        String node = "node-" + (1 + i % nodes);
        String uid = UUID.nameUUIDFromBytes(name.getBytes()).toString();
        long rv = i + 1L;
        Pod seed = BenchCommand.pod(name);
        PodSpec spec = PodSpec.newBuilder(seed.getSpec()).setNodeName(node).setRestartPolicy("Always")
                .setTerminationGracePeriodSeconds(30L).setDnsPolicy("ClusterFirst").setSchedulerName("default-scheduler")
                .build();
        List<PodCondition> conditions = new ArrayList<>();
        for (String type : List.of("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled")) {
            conditions.add(PodCondition.newBuilder().setType(type).setStatus("True").setLastTransitionTime(now).build());
        }
        String ip = "10.244." + (i / 250 % 250) + "." + (i % 250 + 1);
        PodStatus status = PodStatus.newBuilder().setPhase("Running").setConditions(conditions)
                .setHostIP("10.1.0." + (1 + i % nodes % 250)).setPodIP(ip).setPodIPs(List.of(PodIP.newBuilder().setIp(ip).build()))
                .setStartTime(now).setQosClass("Burstable")
                .setContainerStatuses(List.of(ContainerStatus.newBuilder().setName("app").setImage("nginx:1.14.2")
                        .setImageID("docker.io/library/nginx@sha256:0").setContainerID("sim://" + uid).setReady(true)
                        .setStarted(true).setRestartCount(0)
                        .setState(ContainerState.newBuilder().setRunning(ContainerStateRunning.newBuilder()
                                .setStartedAt(now).build()).build()).build()))
                .build();
        Pod pod = Pod.newBuilder(seed).setMetadata(ObjectMeta.newBuilder(seed.getMetadata()).setUid(uid)
                .setResourceVersion(Long.toString(rv)).setGeneration(1L).setCreationTimestamp(now).build())
                .setSpec(spec).setStatus(status).build();
        return ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("bench").setRequestId("bench-" + i).setTime(now).build())
                .setType(ChangeType.CREATED).setKind("Pod").setNamespace("default").setName(name).setUid(uid)
                .setResourceVersion(rv).setObject(pod).build();
    }
}
