package io.eventplane.client;

import io.eventplane.core.Keys;
import io.eventplane.log.ObjectChanged;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a controller reads: every current object by key, lists by kind and namespace in Kubernetes' list order, and
 * secondary indexes. {@link ObjectView} serves it from the log; {@link ObjectStore} alone serves it in memory (tests,
 * replays), so a controller's decisions run the same on both.
 */
public interface ClusterView {
    Optional<ObjectChanged> get(String key);

    default Optional<ObjectChanged> get(String kind, String namespace, String name) {
        return get(Keys.of(kind, namespace, name));
    }

    /** Objects of one kind, in one namespace or (null) all, in key order. */
    Collection<ObjectChanged> list(String kind, String namespace);

    /** The objects themselves (not their changes) of one kind, in one namespace or (null) all, in key order. */
    @SuppressWarnings("unchecked")
    default <T> List<T> objects(String kind, String namespace) {
        List<T> out = new java.util.ArrayList<>();
        for (ObjectChanged c : list(kind, namespace)) {
            out.add((T) c.getObject());
        }
        return out;
    }

    /** Objects of one kind in one namespace whose names start with {@code namePrefix}, in key order. */
    Collection<ObjectChanged> listByNamePrefix(String kind, String namespace, String namePrefix);

    /** The objects an index holds under {@code value}, in key order (empty when the index does not exist). */
    List<ObjectChanged> indexed(String index, String value);

    /**
     * Adds a secondary index over objects of {@code kind} unless one of that name exists. Lists by an indexed value
     * cost the size of the answer, not of the whole kind.
     */
    ClusterView addIndex(String name, String kind, Function<ObjectChanged, String> value);

    boolean hasIndex(String name);
}
