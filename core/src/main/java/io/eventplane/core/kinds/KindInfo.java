package io.eventplane.core.kinds;

import org.apache.avro.specific.SpecificRecord;

/**
 * What the control plane knows about one kind: where it is served, how it is keyed and which Avro record holds it.
 *
 * @param kind       the kind's name on the log (keys, commands, changes, stores, registries keyed by kind): the
 *                   Kubernetes kind for a compiled kind, e.g. {@code Pod}; {@code Kind.group} for a custom kind, e.g.
 *                   {@code Widget.example.com}, because two groups may each define a kind of one name (Kubernetes'
 *                   GroupKind, as {@code kubectl} spells it). {@link #objectKind()} is what objects say.
 * @param group      API group, empty for the core group
 * @param version    API version within the group
 * @param plural     the resource name in URLs, e.g. {@code pods}
 * @param singular   the singular resource name, e.g. {@code pod}
 * @param shortNames kubectl short names, e.g. {@code po}
 * @param namespaced whether objects live in a namespace
 * @param hasStatus  whether the kind has a status subresource (updates through the main resource keep status)
 * @param type       the generated Avro class
 */
public record KindInfo(String kind, String group, String version, String plural, String singular,
                       java.util.List<String> shortNames, boolean namespaced, boolean hasStatus,
                       Class<? extends SpecificRecord> type) {

    /** A custom kind's log name: {@code Kind.group} ({@link #kind()}). */
    public static String customKind(String objectKind, String group) {
        return objectKind + "." + group;
    }

    /**
     * The Kubernetes kind, as objects, lists, discovery and owner references say it: {@link #kind()} without a custom
     * kind's group (a Kubernetes kind has no dot).
     */
    public String objectKind() {
        int dot = kind.indexOf('.');
        return dot < 0 ? kind : kind.substring(0, dot);
    }

    /** {@code v1} for the core group, {@code group/version} otherwise: the object's apiVersion. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }
}
