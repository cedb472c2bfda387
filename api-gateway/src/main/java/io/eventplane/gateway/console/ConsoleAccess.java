package io.eventplane.gateway.console;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.api.ApiRequest;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.auth.authz.Attributes;
import io.eventplane.gateway.auth.authz.Authorization;
import io.eventplane.gateway.console.model.ClusterRows;
import java.util.ArrayList;
import java.util.List;

/**
 * What each of the console's views reads, as the API's authorization asks it: a view shows a list only to a user who
 * may {@code list} its kinds (cluster-wide, or in the namespace the view is narrowed to), one object to who may
 * {@code get} it, the audit to who may list {@code audit} in {@code eventplane.io} (as its API does); the live change
 * feed (counts of changes by kind, no objects) to any authenticated user; anything else (load-test reports) to who
 * may {@code get} its path. The first refusal is Kubernetes' 403.
 */
final class ConsoleAccess {
    private static final String EVENTPLANE_GROUP = "eventplane.io";

    private final Authorization authorization;

    ConsoleAccess(Authorization authorization) {
        this.authorization = authorization;
    }

    /** @throws io.eventplane.gateway.wire.ApiException Kubernetes' 403 for the first read the user may not do */
    void check(ApiRequest request, List<String> parts) {
        if (authorization == null) {
            return;
        }
        for (Attributes a : reads(request.user(), request, parts)) {
            authorization.check(a);
        }
    }

    static List<Attributes> reads(UserInfo user, ApiRequest request, List<String> parts) {
        String namespace = ClusterQueries.blankToNull(request.param("namespace"));
        List<Attributes> out = new ArrayList<>();
        switch (parts.get(0)) {
            case "overview" -> {
                out.add(list(user, Kinds.NODE, null));
                out.add(list(user, Kinds.POD, null));
            }
            case "nodes" -> out.add(list(user, Kinds.NODE, null));
            case "pods" -> out.add(list(user, Kinds.POD, namespace));
            case "events" -> out.add(list(user, Kinds.EVENT, namespace));
            case "workloads" -> ClusterRows.workloadKinds().stream().sorted().forEach(k ->
                    Kinds.byKind(k).ifPresent(kind -> out.add(list(user, kind, namespace))));
            case "object", "history" -> {
                if (parts.size() == 4) {
                    Kinds.byKind(parts.get(1)).ifPresent(kind -> out.add(Attributes.resource(user, "get", kind.group(),
                            kind.plural(), "", kind.namespaced() ? parts.get(2) : "", parts.get(3))));
                }
            }
            case "audit" -> out.add(Attributes.resource(user, "list", EVENTPLANE_GROUP, "audit", "", "", ""));
            case "changes" -> {
                // which kinds changed and how often, no object: any authenticated user (the lists it triggers check)
            }
            default -> out.add(Attributes.nonResource(user, "get", request.path()));
        }
        return out;
    }

    private static Attributes list(UserInfo user, KindInfo kind, String namespace) {
        return Attributes.resource(user, "list", kind.group(), kind.plural(), "", namespace, "");
    }
}
