package io.eventplane.launcher;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.CustomKindsFeed;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.TopicSetup;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.ObjectMeta;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import org.apache.avro.specific.SpecificRecord;

/**
 * {@code eventplane bench crd}: a CustomResourceDefinition, then N custom objects of its kind and N ConfigMaps written
 * as bursts (the writer's events/s for each: decision, schema pruning/defaulting/validation, serialization, commit),
 * one-at-a-time create latency for both (send → the writer → the change in a view), and the list of all N as a
 * gateway builds it (the view's snapshot of the kind, each object encoded as JSON).
 */
final class CrdBench {
    private static final String CRD = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"widgets.bench.example.com"},
             "spec":{"group":"bench.example.com","scope":"Namespaced",
              "names":{"plural":"widgets","singular":"widget","kind":"Widget"},
              "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
               "schema":{"openAPIV3Schema":{"type":"object","properties":{
                "spec":{"type":"object","required":["size"],"properties":{
                 "size":{"type":"integer","minimum":1,"maximum":100},
                 "color":{"type":"string","enum":["red","green","blue"]},
                 "labels":{"type":"object","additionalProperties":{"type":"string"}},
                 "replicas":{"type":"integer","default":1}}},
                "status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}}""";

    private CrdBench() {
    }

    static void run(EventplaneConfig config, Path work, int objects, int samples, PrintStream out) throws Exception {
        TopicSetup.ensureTopics(config);
        Commands user = new Commands("bench");
        try (WriterService writer = new WriterService(config, work.resolve("crdbench-writer"), 200).start();
             ObjectView view = CustomKindsFeed.attach(new ObjectView(config, "crdbench-view", 1000).start());
             CommandSender sender = new CommandSender(config, "crdbench")) {
            await(() -> writer.isReady() && view.isReady(), Duration.ofSeconds(120));
            sender.send(user.create(KubeJson.get().parseObject(CRD.getBytes(StandardCharsets.UTF_8),
                    Kinds.CUSTOM_RESOURCE_DEFINITION, FieldValidation.STRICT, null))).get(60, java.util.concurrent.TimeUnit.SECONDS);
            sender.flush();
            await(() -> CustomKinds.byKind(WIDGET).isPresent(), Duration.ofSeconds(60));
            KindInfo widget = CustomKinds.byKind(WIDGET).orElseThrow().info();
            out.printf("crd bench: %,d custom objects (bench.example.com/v1 Widget) and %,d ConfigMaps%n", objects, objects);
            double customRate = burst(view, sender, user, WIDGET, objects, i -> widget(widget, "w-" + i));
            double configRate = burst(view, sender, user, "ConfigMap", objects, i -> configMap("cm-" + i));
            out.printf("writer, burst of %,d creates: custom objects %,.0f events/s, ConfigMaps %,.0f events/s%n",
                    objects, customRate, configRate);
            latency(out, "create latency, custom object", samples, view, sender, user, WIDGET,
                    i -> widget(widget, "lat-" + i));
            latency(out, "create latency, ConfigMap", samples, view, sender, user, "ConfigMap", i -> configMap("lat-" + i));
            list(out, "list all custom objects (view snapshot + JSON)", view, widget, objects);
            list(out, "list all ConfigMaps (view snapshot + JSON)", view, Kinds.CONFIG_MAP, objects);
        }
    }

    /** The bench kind's log name (a custom kind is named with its group). */
    private static final String WIDGET = "Widget.bench.example.com";

    private static double burst(ObjectView view, CommandSender sender, Commands user, String kind, int n,
                                IntFunction<SpecificRecord> make) throws Exception {
        int before = view.list(kind, "default").size();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            sender.send(user.create(make.apply(i)));
        }
        sender.flush();
        await(() -> view.list(kind, "default").size() >= before + n, Duration.ofMinutes(30));
        return n / ((System.nanoTime() - t0) / 1e9);
    }

    private static void latency(PrintStream out, String what, int samples, ObjectView view, CommandSender sender,
                                Commands user, String kind, IntFunction<SpecificRecord> make) throws Exception {
        long[] nanos = new long[samples];
        for (int i = 0; i < samples; i++) {
            String name = "lat-" + i;
            long t0 = System.nanoTime();
            sender.send(user.create(make.apply(i)));
            sender.flush();
            await(() -> view.get(kind, "default", name).isPresent(), Duration.ofSeconds(60));
            nanos[i] = System.nanoTime() - t0;
        }
        Arrays.sort(nanos);
        out.printf("%s (n=%d): p50 %.1f ms, p90 %.1f ms, p99 %.1f ms%n", what, samples,
                BenchCommand.pct(nanos, 50), BenchCommand.pct(nanos, 90), BenchCommand.pct(nanos, 99)); // pct is in ms
    }

    private static void list(PrintStream out, String what, ObjectView view, KindInfo kind, int n) {
        long[] nanos = new long[5];
        int size = 0;
        for (int r = 0; r < nanos.length; r++) {
            long t0 = System.nanoTime();
            ObjectNode list = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            ArrayNode items = list.putArray("items");
            for (ObjectChanged c : view.snapshot(kind.kind(), "default", x -> true).items()) {
                items.add(KubeJson.get().encodeObject(kind, (SpecificRecord) c.getObject()));
            }
            size = items.size();
            nanos[r] = System.nanoTime() - t0;
        }
        Arrays.sort(nanos);
        out.printf("%s, %,d items: p50 %.0f ms, max %.0f ms (5 runs)%n", what, size, BenchCommand.pct(nanos, 50),
                nanos[nanos.length - 1] / 1e6);
    }

    private static SpecificRecord widget(KindInfo kind, String name) {
        String json = """
                {"apiVersion":"%s","kind":"Widget","metadata":{"name":"%s","namespace":"default"},
                 "spec":{"size":7,"color":"green","labels":{"tier":"bench"}}}""".formatted(kind.apiVersion(), name);
        return KubeJson.get().parseObject(json.getBytes(StandardCharsets.UTF_8), kind, FieldValidation.STRICT, null);
    }

    private static SpecificRecord configMap(String name) {
        return ConfigMap.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setData(Map.of("size", "7", "color", "green", "tier", "bench")).build();
    }

    private static void await(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("crd bench: timed out after " + timeout);
            }
            Thread.sleep(5);
        }
    }
}
