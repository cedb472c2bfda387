package io.eventplane.benchmarks;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.ObjectStore;
import io.eventplane.client.log.LogCodec;
import io.eventplane.client.log.RawChange;
import io.eventplane.core.Keys;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.decide.Decision;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import io.eventplane.model.Pod;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-record hot paths of the control plane, one running pod (as node-sim reports it) at a time: the Avro serde
 * (Confluent wire format, in-memory registry) for a change and for a status update as components send it (identity
 * and status only) and as a whole pod, the writer's decisions (create, bind, status update), applying a change to a
 * view's store and reading it back, the JSON/YAML codec the API uses both ways, and the replay's header parse.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.eventplane", "-Xmx1g"})
public class HotPathBenchmarks {
    static final String RUNNING_POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-7d4b9c8f5-x2k9p","namespace":"default",
             "uid":"0b6f1c1e-7c59-4d1f-9d0a-3b8f0f3c2a11","resourceVersion":"1234","generation":1,
             "creationTimestamp":"2026-11-21T10:00:00Z","labels":{"app":"web","pod-template-hash":"7d4b9c8f5"},
             "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7d4b9c8f5",
               "uid":"5e0a7b1c-1111-4c2d-8e3f-aaaaaaaaaaaa","controller":true,"blockOwnerDeletion":true}]},
             "spec":{"nodeName":"node-17","restartPolicy":"Always","terminationGracePeriodSeconds":30,
               "dnsPolicy":"ClusterFirst","schedulerName":"default-scheduler","serviceAccountName":"default",
               "containers":[{"name":"nginx","image":"nginx:1.14.2","ports":[{"containerPort":80,"protocol":"TCP"}],
                 "resources":{"requests":{"cpu":"100m","memory":"64Mi"},"limits":{"cpu":"500m","memory":"128Mi"}},
                 "imagePullPolicy":"IfNotPresent","terminationMessagePath":"/dev/termination-log",
                 "terminationMessagePolicy":"File"}],
               "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
                 {"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}]},
             "status":{"phase":"Running","hostIP":"10.1.0.17","podIP":"10.244.3.9","podIPs":[{"ip":"10.244.3.9"}],
               "startTime":"2026-11-21T10:00:01Z","qosClass":"Burstable",
               "conditions":[{"type":"PodReadyToStartContainers","status":"True","lastTransitionTime":"2026-11-21T10:00:02Z"},
                 {"type":"Initialized","status":"True","lastTransitionTime":"2026-11-21T10:00:01Z"},
                 {"type":"Ready","status":"True","lastTransitionTime":"2026-11-21T10:00:03Z"},
                 {"type":"ContainersReady","status":"True","lastTransitionTime":"2026-11-21T10:00:03Z"},
                 {"type":"PodScheduled","status":"True","lastTransitionTime":"2026-11-21T10:00:00Z"}],
               "containerStatuses":[{"name":"nginx","image":"nginx:1.14.2","imageID":"docker.io/library/nginx@sha256:0",
                 "containerID":"sim://0b6f1c1e","ready":true,"started":true,"restartCount":0,
                 "state":{"running":{"startedAt":"2026-11-21T10:00:02Z"}}}]}}
            """;

    private byte[] podJson;
    private Pod pod;
    private ObjectChanged change;
    private byte[] wire;
    private Serializer<ObjectChanged> serializer;
    private Deserializer<ObjectChanged> deserializer;
    private LogCodec logCodec;
    private ObjectDecider decider;
    private Command create;
    private long position;
    private ObjectChanged created;
    private ObjectChanged bound;
    private Command bind;
    private Command statusUpdate;
    private Command wholeStatusUpdate;
    private Serializer<Command> commandSerializer;
    private Deserializer<Command> commandDeserializer;
    private byte[] statusUpdateWire;
    private ObjectStore store;
    private ObjectChanged[] storeChanges;
    private int next;

    @Setup
    public void setUp() {
        podJson = RUNNING_POD.getBytes(StandardCharsets.UTF_8);
        pod = KubeJson.get().parseObject(podJson, Pod.class, FieldValidation.STRICT, new ArrayList<>());
        Envelope envelope = Envelope.newBuilder().setActor("bench").setRequestId("r-1")
                .setTime(Instant.parse("2026-11-21T10:00:05Z")).build();
        change = ObjectChanged.newBuilder().setEnvelope(envelope).setType(ChangeType.STATUS_UPDATED).setKind("Pod")
                .setNamespace("default").setName(pod.getMetadata().getName()).setUid(pod.getMetadata().getUid())
                .setResourceVersion(1234).setPreviousResourceVersion(1200).setObject(pod).build();
        EventplaneConfig config = new EventplaneConfig("unused:9092", "mock://benchmarks");
        serializer = LogSerdes.changes(config).serializer();
        deserializer = LogSerdes.changes(config).deserializer();
        wire = serializer.serialize(config.topics().events(), change);
        logCodec = new LogCodec(config);
        decider = new ObjectDecider(RulesRegistry.standard());
        Pod fresh = KubeJson.get().parseObject(podJson, Pod.class, FieldValidation.STRICT, new ArrayList<>());
        fresh.setStatus(null);
        fresh.getSpec().setNodeName(null);
        fresh.getMetadata().setUid(null);
        fresh.getMetadata().setResourceVersion(null);
        fresh.getMetadata().setCreationTimestamp(null);
        create = Command.newBuilder().setEnvelope(envelope).setVerb(Verb.CREATE).setKind("Pod").setNamespace("default")
                .setName(fresh.getMetadata().getName()).setPreconditions(new Preconditions()).setObject(fresh).build();
        Decision made = decider.decide(create, null, 1);
        created = made.change().orElseThrow();
        bind = Command.newBuilder(create).setVerb(Verb.BIND).setObject(null).setNodeName("node-17")
                .setPreconditions(Preconditions.newBuilder().setUid(created.getUid()).build()).build();
        bound = decider.decide(bind, created, 2).change().orElseThrow();
        Pod running = ObjectAccess.with((Pod) bound.getObject(), "status", pod.getStatus());
        Commands commands = new Commands("bench");
        statusUpdate = Command.newBuilder(commands.updateStatus(running)).setEnvelope(envelope).build();
        wholeStatusUpdate = Command.newBuilder(statusUpdate).setObject(running).build();
        commandSerializer = LogSerdes.commands(config).serializer();
        commandDeserializer = LogSerdes.commands(config).deserializer();
        statusUpdateWire = commandSerializer.serialize(config.topics().commands(), statusUpdate);
        if (!decider.decide(statusUpdate, bound, 3).outcome().getAccepted()) {
            throw new IllegalStateException("the benchmark's status update is rejected");
        }
        // Indexed as the shared view is (pods by node): a status update keeps the indexed value.
        store = new ObjectStore().addIndex("pods-by-node", "Pod", c -> ((Pod) c.getObject()).getSpec().getNodeName());
        storeChanges = new ObjectChanged[20_000];
        for (int i = 0; i < storeChanges.length; i++) {
            String name = String.format("web-7d4b9c8f5-%05d", i);
            storeChanges[i] = ObjectChanged.newBuilder(change).setName(name).setResourceVersion(2000 + i)
                    .setObject(ObjectAccess.withMeta(pod, ObjectAccess.with(pod.getMetadata(), "name", name))).build();
            store.apply(storeChanges[i]);
        }
    }

    @Benchmark
    public byte[] avroSerialize() {
        return serializer.serialize("ep.events", change);
    }

    @Benchmark
    public ObjectChanged avroDeserialize() {
        return deserializer.deserialize("ep.events", wire);
    }

    @Benchmark
    public Decision writerDecideBind() {
        return decider.decide(bind, created, ++position);
    }

    /** A node-sim status update (identity and status only) against the bound pod: the most frequent decision. */
    @Benchmark
    public Decision writerDecideStatusUpdate() {
        return decider.decide(statusUpdate, bound, ++position);
    }

    @Benchmark
    public byte[] statusUpdateSerialize() {
        return commandSerializer.serialize("ep.commands", statusUpdate);
    }

    /** The same status update carrying the whole pod, as components sent it before: what the slim one saves. */
    @Benchmark
    public byte[] statusUpdateWholePodSerialize() {
        return commandSerializer.serialize("ep.commands", wholeStatusUpdate);
    }

    @Benchmark
    public Command statusUpdateDeserialize() {
        return commandDeserializer.deserialize("ep.commands", statusUpdateWire);
    }

    /** A view applying one change to a store of 20,000 pods (its indexes, its previous object). */
    @Benchmark
    public ObjectChanged viewApply() {
        ObjectChanged c = storeChanges[next++ % storeChanges.length];
        return store.apply(c);
    }

    /** A point read of a store of 20,000 pods, as the scheduler and node-sim do for every pod they look at. */
    @Benchmark
    public Object viewGet() {
        ObjectChanged c = storeChanges[next++ % storeChanges.length];
        return store.get(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
    }

    @Benchmark
    public RawChange replayHeaderParse() {
        return logCodec.parse(wire);
    }

    @Benchmark
    public Decision writerDecideCreate() {
        return decider.decide(create, null, ++position);
    }

    @Benchmark
    public Pod jsonDecode() {
        return KubeJson.get().parseObject(podJson, Pod.class, FieldValidation.STRICT, new ArrayList<>());
    }

    @Benchmark
    public byte[] jsonEncode() {
        return KubeJson.get().toJsonBytes(pod);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final KindInfo POD = Kinds.of("Pod");

    /** A watch event's object as the gateway writes it: straight from the record to the generator, no tree. */
    @Benchmark
    public byte[] jsonWriteWatchObject() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
        try (JsonGenerator g = JSON.getFactory().createGenerator(out)) {
            KubeJson.get().writeObject(POD, pod, g);
        }
        return out.toByteArray();
    }
}
