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
 * authorization. TEST ONLY: with {@value #TEST_IDENTITIES} set, a request's {@code Impersonate-User} and
 * {@code Impersonate-Group} headers ({@code kubectl --as=alice --as-group=g}) are taken as the user, with the
 * authenticated group added, without any check: kubectl sends no bearer token over plain HTTP, and real impersonation
 * (the administrator acting as that user, checked) gives tests the same user once authentication lands. This is not
 * authentication and goes at the merge.
 */
public final class RequestUser {
    /** TEST ONLY: the setting ({@code eventplane.test.identities=true}) that lets tests name their user. */
    public static final String TEST_IDENTITIES = "EVENTPLANE_TEST_IDENTITIES";
    static final UserInfo ADMIN = new UserInfo("kubernetes-admin", "",
            List.of(UserInfo.MASTERS, UserInfo.AUTHENTICATED), Map.of());

    private RequestUser() {
    }

    public static UserInfo of(ApiRequest request) {
        String user = request.header("impersonate-user");
        if (user != null && !user.isEmpty()
                && Boolean.parseBoolean(EventplaneConfig.setting(TEST_IDENTITIES, "false"))) {
            List<String> groups = new ArrayList<>();
            List<String> asGroups = request.headers().get("impersonate-group");
            if (asGroups != null) {
                groups.addAll(asGroups);
            }
            groups.add(UserInfo.AUTHENTICATED);
            return new UserInfo(user, "", groups, Map.of());
        }
        return ADMIN;
    }
}
