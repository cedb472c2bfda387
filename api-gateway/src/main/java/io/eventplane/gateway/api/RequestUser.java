package io.eventplane.gateway.api;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.gateway.auth.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Who a request is from, for authorization, until authentication lands: then this becomes {@code request.user()}.
 *
 * <p>Today every request is the cluster's administrator (group {@code system:masters}), as the API was before
 * authorization. TEST ONLY: with {@value #TEST_IDENTITIES} set, a request may name its user as the bearer token
 * {@code eventplane-test/<user>[/<group>,<group>...]} (kubectl sends it from a kubeconfig's {@code token}); the
 * authenticated group is added as authenticators add it. This is not authentication and goes at the merge.
 */
public final class RequestUser {
    /** TEST ONLY: the setting ({@code eventplane.test.identities=true}) that lets tests name their user. */
    public static final String TEST_IDENTITIES = "EVENTPLANE_TEST_IDENTITIES";
    public static final String TEST_TOKEN_PREFIX = "eventplane-test/";
    static final UserInfo ADMIN = new UserInfo("kubernetes-admin", "",
            List.of(UserInfo.MASTERS, UserInfo.AUTHENTICATED), Map.of());

    private RequestUser() {
    }

    public static UserInfo of(ApiRequest request) {
        String auth = request.header("authorization");
        if (auth != null && auth.startsWith("Bearer " + TEST_TOKEN_PREFIX)
                && Boolean.parseBoolean(EventplaneConfig.setting(TEST_IDENTITIES, "false"))) {
            String[] parts = auth.substring(("Bearer " + TEST_TOKEN_PREFIX).length()).split("/", 2);
            List<String> groups = new ArrayList<>();
            if (parts.length > 1 && !parts[1].isEmpty()) {
                groups.addAll(List.of(parts[1].split(",")));
            }
            groups.add(UserInfo.AUTHENTICATED);
            return new UserInfo(parts[0], "", groups, Map.of());
        }
        return ADMIN;
    }
}
