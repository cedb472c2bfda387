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
 * The metadata part of every builder. What is not set stays null, as a user would send it. Map-valued settings
 * (labels, annotations, requests...) add entries and keep the order given (nothing here copies through Avro's
 * builders, whose deep copies re-hash maps); list-valued ones set the list as given, and with no arguments leave the
 * field unset. Edits ({@code meta(...)}, {@code spec(...)}, {@code status(...)}) apply last, at every build.
 *
 * @param <B> the concrete builder, returned by every setting so that calls chain
 */
public abstract class MetaBuilder<B extends MetaBuilder<B>> {
    private final ObjectMeta.Builder meta = ObjectMeta.newBuilder();
    // kept apart so that each build gets its own copy, in the order given
    private Map<String, String> labels;
    private Map<String, String> annotations;
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

    /** Adds these labels (an empty map still sets labels; null changes nothing). */
    public B labels(Map<String, String> labels) {
        this.labels = added(this.labels, labels);
        return self();
    }

    /** Adds annotations given as key, value, key, value... */
    public B annotations(String... keysAndValues) {
        return annotations(KubeObjects.labels(keysAndValues));
    }

    /** Adds these annotations (an empty map still sets annotations; null changes nothing). */
    public B annotations(Map<String, String> annotations) {
        this.annotations = added(this.annotations, annotations);
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
        return buildMeta(null);
    }

    /** The metadata, labelled {@code labelsIfNone} when no labels were given. */
    final ObjectMeta buildMeta(Map<String, String> labelsIfNone) {
        ObjectMeta.Builder b = meta.setLabels(copy(labels == null ? labelsIfNone : labels))
                .setAnnotations(copy(annotations));
        for (UnaryOperator<ObjectMeta.Builder> edit : metaEdits) {
            b = edit.apply(b);
        }
        return b.build();
    }

    /** current plus more; an empty {@code more} still makes an (empty) map, null changes nothing. */
    static Map<String, String> added(Map<String, String> current, Map<String, String> more) {
        if (more == null) {
            return current;
        }
        Map<String, String> out = current == null ? new LinkedHashMap<>() : new LinkedHashMap<>(current);
        out.putAll(more);
        return out;
    }

    static Map<String, String> copy(Map<String, String> map) {
        return map == null ? null : new LinkedHashMap<>(map);
    }

    @SafeVarargs
    static <T> List<T> listOrNull(T... items) {
        return items == null || items.length == 0 ? null : new ArrayList<>(List.of(items));
    }
}
