package io.eventplane.client.events;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import org.apache.avro.specific.SpecificRecord;

/** References to objects, for the {@code involvedObject} of an Event. Pure. */
public final class ObjectReferences {
    private ObjectReferences() {
    }

    /** The object as it is now: kind, apiVersion, namespace (none for cluster-scoped kinds), name, uid, resourceVersion. */
    public static ObjectReference of(SpecificRecord object) {
        KindInfo kind = Kinds.of(object);
        ObjectMeta meta = ObjectAccess.meta(object);
        return ObjectReference.newBuilder()
                .setKind(kind.objectKind())
                .setApiVersion(kind.apiVersion())
                .setNamespace(kind.namespaced() ? meta.getNamespace() : null)
                .setName(meta.getName())
                .setUid(meta.getUid())
                .setResourceVersion(meta.getResourceVersion())
                .build();
    }

    /**
     * A Node as the kubelet refers to it in its events: the uid is the node's name, not its metadata.uid, and
     * {@code kubectl describe node} searches events by that same reference.
     */
    public static ObjectReference node(String nodeName) {
        return ObjectReference.newBuilder().setKind(Kinds.NODE.kind()).setApiVersion(Kinds.NODE.apiVersion())
                .setName(nodeName).setUid(nodeName).build();
    }

    /** The same reference narrowed to a part of the object, e.g. {@code spec.containers{nginx}}. */
    public static ObjectReference withFieldPath(ObjectReference ref, String fieldPath) {
        return ObjectReference.newBuilder(ref).setFieldPath(fieldPath).build();
    }

    /** {@code spec.containers{name}} or {@code spec.initContainers{name}}: how the kubelet names a container. */
    public static String containerPath(boolean init, String containerName) {
        return (init ? "spec.initContainers{" : "spec.containers{") + containerName + "}";
    }
}
