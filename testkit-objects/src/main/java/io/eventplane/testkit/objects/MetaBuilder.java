package io.eventplane.testkit.objects;

import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.apache.avro.specific.SpecificRecord;

/**
 * The metadata part of every builder. Map-valued settings (labels, annotations) add entries, in order; list-valued
 * ones set the list as given, and with no arguments leave the field unset. What is not set stays null, as a user
 * would send it.
 *
 * @param <B> the concrete builder, returned by every setting so that calls chain
 */
public abstract class MetaBuilder<B extends MetaBuilder<B>> {
    private final ObjectMeta.Builder meta = ObjectMeta.newBuilder();
    private final List<UnaryOperator<ObjectMeta.Builder>> metaEdits = new ArrayList<>();

    MetaBuilder(String name, String namespace) {
        meta.setName(name).setNamespace(namespace);
    }

    @SuppressWarnings("unchecked")
    final B self() {
        return (B) this;
    }

    /** The namespace; null for none (cluster-scoped kinds start without one). */
    public B namespace(String namespace) {
        meta.setNamespace(namespace);
        return self();
    }

    public B uid(String uid) {
        meta.setUid(uid);
        return self();
    }

    public B resourceVersion(String resourceVersion) {
        meta.setResourceVersion(resourceVersion);
        return self();
    }

    public B generation(long generation) {
        meta.setGeneration(generation);
        return self();
    }

    public B generateName(String prefix) {
        meta.setGenerateName(prefix);
        return self();
    }

    /** Adds labels given as key, value, key, value... */
    public B labels(String... keysAndValues) {
        return labels(KubeObjects.labels(keysAndValues));
    }

    /** Adds these labels (null or empty adds none). */
    public B labels(Map<String, String> labels) {
        meta.setLabels(added(meta.getLabels(), labels));
        return self();
    }

    /** Adds annotations given as key, value, key, value... */
    public B annotations(String... keysAndValues) {
        return annotations(KubeObjects.labels(keysAndValues));
    }

    /** Adds these annotations (null or empty adds none). */
    public B annotations(Map<String, String> annotations) {
        meta.setAnnotations(added(meta.getAnnotations(), annotations));
        return self();
    }

    /** The owner references (none: unset). */
    public B ownedBy(OwnerReference... owners) {
        meta.setOwnerReferences(listOrNull(owners));
        return self();
    }

    /** One owner reference to {@code owner}, as its controller (controller and blockOwnerDeletion true). */
    public B controlledBy(SpecificRecord owner) {
        return ownedBy(KubeObjects.controllerRef(owner));
    }

    /** The finalizers (none: unset). */
    public B finalizers(String... finalizers) {
        meta.setFinalizers(listOrNull(finalizers));
        return self();
    }

    public B createdAt(Instant creationTimestamp) {
        meta.setCreationTimestamp(creationTimestamp);
        return self();
    }

    /** Marked for deletion at {@code deletionTimestamp} (null: not terminating). */
    public B deletedAt(Instant deletionTimestamp) {
        meta.setDeletionTimestamp(deletionTimestamp);
        return self();
    }

    public B deletionGracePeriodSeconds(long seconds) {
        meta.setDeletionGracePeriodSeconds(seconds);
        return self();
    }

    /** Any other metadata, applied last. */
    public B meta(UnaryOperator<ObjectMeta.Builder> edit) {
        metaEdits.add(edit);
        return self();
    }

    final String name() {
        return meta.getName();
    }

    final ObjectMeta buildMeta() {
        ObjectMeta.Builder b = ObjectMeta.newBuilder(meta);
        for (UnaryOperator<ObjectMeta.Builder> edit : metaEdits) {
            b = edit.apply(b);
        }
        return b.build();
    }

    static Map<String, String> added(Map<String, String> current, Map<String, String> more) {
        if (more == null || more.isEmpty()) {
            return current;
        }
        Map<String, String> out = current == null ? new LinkedHashMap<>() : new LinkedHashMap<>(current);
        out.putAll(more);
        return out;
    }

    @SafeVarargs
    static <T> List<T> listOrNull(T... items) {
        return items == null || items.length == 0 ? null : new ArrayList<>(List.of(items));
    }
}
