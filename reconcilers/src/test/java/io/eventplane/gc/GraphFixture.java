package io.eventplane.gc;

import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Container;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetSpec;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;

/** An in-memory owner graph of objects as the writer stores them, for the collector's decision tests. */
final class GraphFixture implements OwnerGraph {
    static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private final Map<String, ObjectChanged> objects = new TreeMap<>();
    private long rv = 10;

    ObjectChanged put(SpecificRecord object) {
        ObjectMeta m = ObjectAccess.meta(object);
        String kind = Kinds.of(object).kind();
        long position = ++rv;
        ObjectMeta stored = ObjectMeta.newBuilder(m).setResourceVersion(Long.toString(position)).build();
        ObjectChanged c = ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("t").setRequestId("r" + position).setTime(T0).build())
                .setType(ChangeType.CREATED).setKind(kind)
                .setNamespace(m.getNamespace() == null ? "" : m.getNamespace()).setName(m.getName())
                .setUid(m.getUid()).setResourceVersion(position)
                .setObject(ObjectAccess.withMeta(object, stored)).build();
        objects.put(Keys.of(kind, c.getNamespace(), c.getName()), c);
        return c;
    }

    void remove(ObjectChanged c) {
        objects.remove(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
    }

    static ObjectMeta meta(String namespace, String name, OwnerReference... owners) {
        return ObjectMeta.newBuilder().setNamespace(namespace).setName(name).setUid("uid-" + name)
                .setOwnerReferences(owners.length == 0 ? null : List.of(owners)).build();
    }

    static ObjectMeta deleting(ObjectMeta m, String... finalizers) {
        return ObjectMeta.newBuilder(m).setDeletionTimestamp(T0).setDeletionGracePeriodSeconds(0L)
                .setFinalizers(List.of(finalizers)).build();
    }

    static ReplicaSet replicaSet(ObjectMeta meta) {
        return ReplicaSet.newBuilder().setMetadata(meta).setSpec(ReplicaSetSpec.newBuilder().build()).build();
    }

    static Pod pod(ObjectMeta meta) {
        return Pod.newBuilder().setMetadata(meta).setSpec(PodSpec.newBuilder()
                .setContainers(List.of(Container.newBuilder().setName("c").setImage("nginx").build())).build()).build();
    }

    static Node node(ObjectMeta meta) {
        return Node.newBuilder().setMetadata(meta).build();
    }

    static OwnerReference ref(String kind, String name, boolean block) {
        return KubeObjects.ownerRef(kind, name, "uid-" + name).controller().blockOwnerDeletion(block).build();
    }

    @Override
    public Optional<ObjectChanged> get(String kind, String namespace, String name) {
        return Optional.ofNullable(objects.get(Keys.of(kind, namespace, name)));
    }

    @Override
    public Optional<ObjectChanged> byUid(String uid) {
        return objects.values().stream().filter(c -> uid.equals(c.getUid())).findFirst();
    }

    @Override
    public Collection<ObjectChanged> dependents(String ownerUid) {
        List<ObjectChanged> out = new ArrayList<>();
        for (ObjectChanged c : objects.values()) {
            if (GarbageCollectorDecider.ownerUids(c).contains(ownerUid)) {
                out.add(c);
            }
        }
        return out;
    }
}
