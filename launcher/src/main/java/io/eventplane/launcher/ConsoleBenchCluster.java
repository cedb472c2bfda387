package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.core.Keys;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Container;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentCondition;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.Event;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.Namespace;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetSpec;
import io.eventplane.model.ReplicaSetStatus;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.model.Taint;
import io.eventplane.nodesim.NodePressure;
import io.eventplane.nodesim.NodeShape;
import io.eventplane.nodesim.NodeTemplates;
import io.eventplane.nodesim.SimNode;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A big cluster for {@code bench console}, written straight to a fresh event log (this measures the console, not the
 * writer): nodes (1% not ready, some under memory pressure, some cordoned), Deployments of 100 replicas in ten
 * namespaces with their ReplicaSets and running pods (a few pending or failed), and events, created over the last
 * hour so that time travel has a past to go to.
 */
final class ConsoleBenchCluster {
    static final Duration SPAN = Duration.ofMinutes(60);
    static final int REPLICAS = 100;
    private final EventplaneConfig config;
    private final int pods;
    private final int nodes;
    private final Instant start;
    private final boolean rewrite;
    private final long total;
    private long written;

    /** What was written: where to look, and when. */
    record Written(Instant start, Instant end, String someDeployment, String someNamespace) {
    }

    /**
     * @param rewrite also write a second version of every pod at the end (its status updated): then no pod of the past
     *                is the same as now, the worst case for rebuilding the past
     */
    ConsoleBenchCluster(EventplaneConfig config, int pods, int nodes, boolean rewrite, Instant now) {
        this.config = config;
        this.pods = pods;
        this.nodes = nodes;
        this.rewrite = rewrite;
        this.start = now.minus(SPAN).minusSeconds(60);
        int deployments = (pods + REPLICAS - 1) / REPLICAS;
        this.total = 11 + nodes + 2L * deployments + pods * (rewrite ? 2L : 1L) + pods / 15;
    }

    Written write(PrintStream out) {
        Map<String, Object> props = config.kafkaConfig();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        try (KafkaProducer<String, ObjectChanged> producer = new KafkaProducer<>(props, new StringSerializer(),
                LogSerdes.changes(config).serializer())) {
            for (int n = 0; n < 10; n++) {
                send(producer, "Namespace", "", "team-" + n, Namespace.newBuilder()
                        .setMetadata(meta("team-" + n, null, Map.of("team", "t" + n))).build());
            }
            for (int i = 1; i <= nodes; i++) {
                send(producer, "Node", "", "node-" + i, node(i));
            }
            workloads(producer, false, out);
            if (rewrite) {
                workloads(producer, true, out);
            }
            send(producer, "Namespace", "", "default", Namespace.newBuilder().setMetadata(meta("default", null, Map.of()))
                    .build());
        }
        return new Written(start, time(written), "web-42", "team-2");
    }

    /** Deployments, their ReplicaSets, pods and events; with {@code again}, a status update of every pod instead. */
    private void workloads(KafkaProducer<String, ObjectChanged> producer, boolean again, PrintStream out) {
        int pod = 0;
        int deployments = (pods + REPLICAS - 1) / REPLICAS;
        for (int d = 0; d < deployments; d++) {
            String ns = "team-" + d % 10;
            String name = "web-" + d;
            String hash = Integer.toHexString(0x5f000000 + d * 7919).substring(0, 8);
            int replicas = Math.min(REPLICAS, pods - pod);
            Deployment dep = deployment(ns, name, replicas, d);
            ReplicaSet rs = replicaSet(ns, name, hash, replicas, dep, d);
            if (!again) {
                send(producer, "Deployment", ns, name, dep);
                rs = replicaSet(ns, name, hash, replicas, dep, d);
                send(producer, "ReplicaSet", ns, name + "-" + hash, rs);
            } else {
                rs.getMetadata().setUid(uid("ReplicaSet", ns, name + "-" + hash));
            }
            for (int r = 0; r < replicas; r++, pod++) {
                Pod p = pod(ns, name, hash, rs, pod, d);
                if (again) {
                    p.getMetadata().setAnnotations(Map.of("bench.eventplane.io/revision", "2"));
                }
                send(producer, "Pod", ns, p.getMetadata().getName(), p, again ? ChangeType.STATUS_UPDATED : ChangeType.CREATED);
                if (!again && pod % 15 == 0) {
                    send(producer, "Event", ns, p.getMetadata().getName() + ".scheduled", event(p, pod));
                }
                if (pod % 50_000 == 0 && pod > 0) {
                    out.printf("  ... %,d pods written%s%n", pod, again ? " again" : "");
                }
            }
        }
    }

    private static String uid(String kind, String ns, String name) {
        return UUID.nameUUIDFromBytes((kind + "/" + ns + "/" + name).getBytes()).toString();
    }

    private void send(KafkaProducer<String, ObjectChanged> producer, String kind, String ns, String name,
                      SpecificRecord object) {
        send(producer, kind, ns, name, object, ChangeType.CREATED);
    }

    private void send(KafkaProducer<String, ObjectChanged> producer, String kind, String ns, String name,
                      SpecificRecord object, ChangeType type) {
        written++;
        Instant t = time(written);
        ObjectMeta meta = (ObjectMeta) object.get(object.getSchema().getField("metadata").pos());
        meta.setUid(uid(kind, ns, name));
        meta.setResourceVersion(Long.toString(written));
        if (meta.getCreationTimestamp() == null) {
            meta.setCreationTimestamp(t);
        }
        meta.setGeneration(1L);
        ObjectChanged c = ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("bench").setRequestId("bench-" + written).setTime(t).build())
                .setType(type).setKind(kind).setNamespace(ns).setName(name).setUid(meta.getUid())
                .setResourceVersion(written).setObject(object).build();
        producer.send(new ProducerRecord<>(config.topics().events(), Keys.of(kind, ns, name), c));
    }

    /** Changes are spread evenly over the span, the last one a minute before now. */
    private Instant time(long i) {
        return start.plusMillis(SPAN.toMillis() * i / Math.max(1, total));
    }

    private static ObjectMeta meta(String name, String namespace, Map<String, String> labels) {
        return ObjectMeta.newBuilder().setName(name).setNamespace(namespace).setLabels(labels).build();
    }

    private Node node(int i) {
        Set<NodePressure.Kind> pressures = i % 200 == 7 ? Set.of(NodePressure.Kind.values()[0]) : Set.of();
        Node n = NodeTemplates.node(SimNode.of("node", i), NodeShape.defaults(), pressures, time(written + 1));
        NodeStatus status = n.getStatus();
        if (i % 100 == 3) { // 1% not ready: the Ready condition False
            List<NodeCondition> conditions = new ArrayList<>();
            for (NodeCondition c : status.getConditions()) {
                conditions.add("Ready".equals(c.getType()) ? NodeCondition.newBuilder(c).setStatus("False")
                        .setReason("KubeletNotReady").setMessage("container runtime is down").build() : c);
            }
            status = NodeStatus.newBuilder(status).setConditions(conditions).build();
        }
        NodeSpec spec = n.getSpec();
        if (i % 200 == 11) { // cordoned
            spec = NodeSpec.newBuilder(spec).setUnschedulable(true).setTaints(List.of(Taint.newBuilder()
                    .setKey("node.kubernetes.io/unschedulable").setEffect("NoSchedule").build())).build();
        }
        return Node.newBuilder(n).setSpec(spec).setStatus(status).build();
    }

    private static String image(int d) {
        return "registry.example/web:1." + (d % 7);
    }

    private static String cpu(int d) {
        return (50 + 50 * (d % 4)) + "m"; // 50m..200m: nodes fill unevenly, so the grid has something to show
    }

    private static PodTemplateSpec template(String name, int d) {
        return PodTemplateSpec.newBuilder().setMetadata(ObjectMeta.newBuilder().setLabels(Map.of("app", name)).build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("app")
                        .setImage(image(d)).setResources(ResourceRequirements.newBuilder()
                                .setRequests(Map.of("cpu", cpu(d), "memory", "256Mi")).build()).build())).build())
                .build();
    }

    private Deployment deployment(String ns, String name, int replicas, int d) {
        Instant t = time(written + 1);
        return Deployment.newBuilder().setMetadata(meta(name, ns, Map.of("app", name)))
                .setSpec(DeploymentSpec.newBuilder().setReplicas(replicas)
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(Map.of("app", name)).build())
                        .setTemplate(template(name, d)).build())
                .setStatus(DeploymentStatus.newBuilder().setObservedGeneration(1L).setReplicas(replicas)
                        .setUpdatedReplicas(replicas).setReadyReplicas(replicas).setAvailableReplicas(replicas)
                        .setConditions(List.of(
                                DeploymentCondition.newBuilder().setType("Available").setStatus("True")
                                        .setReason("MinimumReplicasAvailable").setMessage("Deployment has minimum availability.")
                                        .setLastUpdateTime(t).setLastTransitionTime(t).build(),
                                DeploymentCondition.newBuilder().setType("Progressing").setStatus("True")
                                        .setReason("NewReplicaSetAvailable").setMessage("ReplicaSet \"" + name
                                                + "\" has successfully progressed.")
                                        .setLastUpdateTime(t).setLastTransitionTime(t).build()))
                        .build())
                .build();
    }

    private static OwnerReference owner(String kind, String apiVersion, String name, String uid) {
        return OwnerReference.newBuilder().setApiVersion(apiVersion).setKind(kind).setName(name).setUid(uid)
                .setController(true).setBlockOwnerDeletion(true).build();
    }

    private ReplicaSet replicaSet(String ns, String name, String hash, int replicas, Deployment owner, int d) {
        ObjectMeta m = meta(name + "-" + hash, ns, Map.of("app", name, "pod-template-hash", hash));
        m.setOwnerReferences(List.of(owner("Deployment", "apps/v1", name, owner.getMetadata().getUid())));
        return ReplicaSet.newBuilder().setMetadata(m)
                .setSpec(ReplicaSetSpec.newBuilder().setReplicas(replicas)
                        .setSelector(LabelSelector.newBuilder().setMatchLabels(Map.of("app", name, "pod-template-hash", hash)).build())
                        .setTemplate(template(name, d)).build())
                .setStatus(ReplicaSetStatus.newBuilder().setReplicas(replicas).setFullyLabeledReplicas(replicas)
                        .setReadyReplicas(replicas).setAvailableReplicas(replicas).setObservedGeneration(1L).build())
                .build();
    }

    /** Running on a node, but one in 200 still pending (no node) and one in 500 failed. */
    private Pod pod(String ns, String name, String hash, ReplicaSet owner, int i, int d) {
        Pod running = (Pod) ViewBench.runningPod(i, nodes).getObject();
        String podName = name + "-" + hash + "-" + String.format("%05x", i & 0xfffff);
        ObjectMeta m = meta(podName, ns, Map.of("app", name, "pod-template-hash", hash));
        m.setOwnerReferences(List.of(owner("ReplicaSet", "apps/v1", owner.getMetadata().getName(),
                owner.getMetadata().getUid())));
        // Fill nodes unevenly (node k gets its pods from a stride), so requested CPU varies across the grid.
        String node = "node-" + (1 + (int) ((i * 2654435761L >>> 7) % nodes));
        PodSpec spec = PodSpec.newBuilder(running.getSpec()).setNodeName(node)
                .setContainers(template(name, d).getSpec().getContainers()).build();
        PodStatus status = running.getStatus();
        if (i % 200 == 199) {
            spec.setNodeName(null);
            status = PodStatus.newBuilder().setPhase("Pending").build();
        } else if (i % 500 == 17) {
            status = PodStatus.newBuilder(status).setPhase("Failed").setReason("Evicted")
                    .setMessage("The node was low on resource: memory.").build();
        }
        return Pod.newBuilder().setMetadata(m).setSpec(spec).setStatus(status).build();
    }

    private Event event(Pod p, int i) {
        boolean warning = i % 150 == 0;
        Instant t = time(written + 1);
        return Event.newBuilder().setMetadata(meta(p.getMetadata().getName() + ".scheduled", p.getMetadata().getNamespace(), null))
                .setInvolvedObject(ObjectReference.newBuilder().setKind("Pod").setApiVersion("v1")
                        .setNamespace(p.getMetadata().getNamespace()).setName(p.getMetadata().getName())
                        .setUid(uid("Pod", p.getMetadata().getNamespace(), p.getMetadata().getName())).build())
                .setReason(warning ? "BackOff" : "Scheduled").setType(warning ? "Warning" : "Normal")
                .setMessage(warning ? "Back-off restarting failed container app" : "Successfully assigned "
                        + p.getMetadata().getNamespace() + "/" + p.getMetadata().getName() + " to " + p.getSpec().getNodeName())
                .setReportingComponent(warning ? "kubelet" : "default-scheduler").setFirstTimestamp(t).setLastTimestamp(t)
                .setCount(1).build();
    }
}
