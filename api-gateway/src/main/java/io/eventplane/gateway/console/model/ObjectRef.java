package io.eventplane.gateway.console.model;

import java.util.List;

/** Any object, by kind, namespace and name, with the uids of its owners: what owner and dependent links need. */
public record ObjectRef(String key, String kind, String namespace, String name, String uid, long resourceVersion,
                        List<String> ownerUids) {
}
