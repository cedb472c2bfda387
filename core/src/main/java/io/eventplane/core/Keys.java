package io.eventplane.core;

/**
 * The only key format of the log: {@code Kind/namespace/name}, with an empty namespace for cluster-scoped kinds
 * ({@code Node//node-1}). Every command and change about one object carries its key, so Kafka keeps per-object order
 * and a key's whole history lives on one partition.
 */
public final class Keys {
    private Keys() {
    }

    public static String of(String kind, String namespace, String name) {
        return kind + "/" + (namespace == null ? "" : namespace) + "/" + name;
    }

    /** The prefix every key of one kind (and namespace, when given) starts with. */
    public static String prefix(String kind, String namespace) {
        return namespace == null ? kind + "/" : kind + "/" + namespace + "/";
    }

    public static String kind(String key) {
        return key.substring(0, key.indexOf('/'));
    }

    public static String namespace(String key) {
        int a = key.indexOf('/');
        return key.substring(a + 1, key.indexOf('/', a + 1));
    }

    public static String name(String key) {
        int a = key.indexOf('/');
        return key.substring(key.indexOf('/', a + 1) + 1);
    }
}
