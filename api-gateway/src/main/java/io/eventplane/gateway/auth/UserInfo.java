package io.eventplane.gateway.auth;

import java.util.List;
import java.util.Map;

/**
 * Who a request is from, as authentication established it (Kubernetes' {@code user.Info}): the contract between
 * authentication (which produces it), authorization (which decides on it) and the audit (which records it).
 *
 * @param name   the user name ({@code alice}, {@code system:serviceaccount:ns:sa}, {@code system:node:n1},
 *               {@code system:anonymous})
 * @param uid    a unique id when the authenticator knows one, else empty
 * @param groups the groups, including the implicit {@code system:authenticated} or {@code system:unauthenticated}
 * @param extra  authenticator-specific attributes (e.g. a service account token's pod name), possibly empty
 */
public record UserInfo(String name, String uid, List<String> groups, Map<String, List<String>> extra) {

    public static final String ANONYMOUS = "system:anonymous";
    public static final String AUTHENTICATED = "system:authenticated";
    public static final String UNAUTHENTICATED = "system:unauthenticated";
    public static final String MASTERS = "system:masters";

    public UserInfo {
        uid = uid == null ? "" : uid;
        groups = groups == null ? List.of() : List.copyOf(groups);
        extra = extra == null ? Map.of() : Map.copyOf(extra);
    }

    public static UserInfo anonymous() {
        return new UserInfo(ANONYMOUS, "", List.of(UNAUTHENTICATED), Map.of());
    }

    public boolean inGroup(String group) {
        return groups.contains(group);
    }
}
