package io.eventplane.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.Requests;
import io.eventplane.core.Keys;
import io.eventplane.core.ResourceVersions;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.CommandOutcome;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Two writer processes on four partitions: a definition decided by one process, its objects by the other. The other
 * process learns the definition from the definitions topic only (this JVM's CustomKinds is fed by its own writer
 * instance and nothing else: the view here is not a shared one).
 */
class WriterDefinitionsAcrossPartitionsTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final int PARTITIONS = 4;
    Process other;
    WriterService writer;
    ObjectView view;
    Outcomes outcomes;
    CommandSender sender;

    @AfterEach
    void stop() {
        if (other != null) {
            other.destroyForcibly();
        }
        for (AutoCloseable c : new AutoCloseable[] {sender, outcomes, view, writer}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing what started
            }
        }
    }

    @Test
    @DisplayName("CRD-37: with 4 partitions and 2 writer processes, objects are decided by a process that never decided their definition; one Kind in two groups stays two kinds")
    void definitionsFromEveryPartition() throws Exception {
        SharedCluster cluster = SharedCluster.get();
        String prefix = "crdp" + UUID.randomUUID().toString().substring(0, 8);
        EventplaneConfig config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics(prefix), PARTITIONS);
        writer = new WriterService(config, Files.createTempDirectory("writer-here"), 20).start();
        other = otherWriter(cluster, prefix);
        await(() -> writer.isReady() && writer.activePartitions().size() == PARTITIONS / 2, WAIT,
                "the partitions split between the two processes");
        Set<Integer> here = writer.activePartitions();
        view = new ObjectView(config, "crdp-view").start();
        view.awaitReady(WAIT);
        outcomes = new Outcomes(config, "crdp-outcomes");
        sender = new CommandSender(config, "test");
        Requests requests = new Requests(sender, outcomes, view);
        Commands admin = new Commands("system:admin");

        // Two groups define Gadget; each definition lands on the other process's partition, the objects on ours.
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        String groupA = pickGroup("a" + suffix, here);
        String groupB = pickGroup("b" + suffix, here);
        String name = pickName(List.of(groupA, groupB), here);
        for (String group : List.of(groupA, groupB)) {
            CommandOutcome crd = requests.submit(admin.create(crd(group)), WAIT).get().outcome();
            assertTrue(crd.getAccepted(), crd.getMessage());
            assertTrue(!here.contains(ResourceVersions.partition(crd.getResourceVersion(), PARTITIONS)),
                    "the definition was decided by the other process");
        }
        for (String group : List.of(groupA, groupB)) {
            CommandOutcome created = createEventually(requests, admin, gadget(group, name));
            int partition = ResourceVersions.partition(created.getResourceVersion(), PARTITIONS);
            assertTrue(here.contains(partition), "the object was decided by this process");
            assertEquals("Gadget." + group, created.getKind());
        }
        assertNotEquals(view.get("Gadget." + groupA, "default", name).orElseThrow().getUid(),
                view.get("Gadget." + groupB, "default", name).orElseThrow().getUid());
        assertEquals(groupA + "/v1", ((CustomObject) view.get("Gadget." + groupA, "default", name).orElseThrow()
                .getObject()).getApiVersion());
    }

    /**
     * Creates the object, again while its definition is still on its way to this process (the definitions topic is
     * read a moment after the transaction that appended it commits); an unknown kind forever fails the test.
     */
    private static CommandOutcome createEventually(Requests requests, Commands admin, CustomObject object)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            CommandOutcome o = requests.submit(admin.create(object), WAIT).get().outcome();
            if (o.getAccepted() || System.nanoTime() > deadline) {
                assertTrue(o.getAccepted(), o.getMessage());
                return o;
            }
            Thread.sleep(100);
        }
    }

    private Process otherWriter(SharedCluster cluster, String prefix) throws Exception {
        Path logs = Path.of("target", "process-logs");
        logs.toFile().mkdirs();
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.eventplane",
                "-Dlog4j2.configurationFile=log4j2-test.xml", "-cp", System.getProperty("java.class.path"),
                WriterMain.class.getName()).redirectErrorStream(true)
                .redirectOutput(logs.resolve(prefix + "-writer.log").toFile());
        pb.environment().put("EVENTPLANE_KAFKA_BOOTSTRAP", cluster.bootstrapServers());
        pb.environment().put("EVENTPLANE_REGISTRY_URL", cluster.registryUrl());
        pb.environment().put("EVENTPLANE_TOPIC_PREFIX", prefix);
        pb.environment().put("EVENTPLANE_PARTITIONS", Integer.toString(PARTITIONS));
        pb.environment().put("EVENTPLANE_COMMIT_INTERVAL_MS", "20");
        pb.environment().put("EVENTPLANE_STATE_DIR", new File("target/" + prefix + "-writer").getAbsolutePath());
        return pb.start();
    }

    /** A group whose definition's key is on a partition this process does not decide. */
    private static String pickGroup(String stem, Set<Integer> here) {
        for (int i = 0; ; i++) {
            String group = stem + i + ".example.com";
            if (!here.contains(partition(Keys.of(Kinds.CUSTOM_RESOURCE_DEFINITION.kind(), "", "gadgets." + group)))) {
                return group;
            }
        }
    }

    /** A name whose objects' keys in every group are on partitions this process decides. */
    private static String pickName(List<String> groups, Set<Integer> here) {
        for (int i = 0; ; i++) {
            String name = "g" + i;
            if (groups.stream().allMatch(g -> here.contains(partition(Keys.of("Gadget." + g, "default", name))))) {
                return name;
            }
        }
    }

    /** The producer's default partitioner for a key. */
    private static int partition(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
    }

    static CustomResourceDefinition crd(String group) {
        String json = """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"gadgets.%s"},
                 "spec":{"group":"%s","scope":"Namespaced",
                  "names":{"plural":"gadgets","singular":"gadget","kind":"Gadget"},
                  "versions":[{"name":"v1","served":true,"storage":true,
                   "schema":{"openAPIV3Schema":{"type":"object","properties":{
                    "spec":{"type":"object","properties":{"size":{"type":"integer"}}}}}}}]}}""".formatted(group, group);
        return (CustomResourceDefinition) KubeJson.get().parseObject(json.getBytes(StandardCharsets.UTF_8),
                Kinds.CUSTOM_RESOURCE_DEFINITION, FieldValidation.STRICT, null);
    }

    static CustomObject gadget(String group, String name) {
        return CustomObject.newBuilder().setApiVersion(group + "/v1").setKind("Gadget")
                .setMetadata(io.eventplane.model.ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setContent("{\"spec\":{\"size\":3}}").build();
    }

    private static void await(java.util.function.BooleanSupplier condition, Duration timeout, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(100);
        }
    }
}
