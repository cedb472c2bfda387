package io.eventplane.gateway.api;

import io.eventplane.gateway.auth.UserInfo;

/**
 * Who a request is from, for authorization: {@link ApiRequest#user()}, as authentication established it
 * (impersonation applied and checked). On a plain-HTTP gateway (tests, {@code --insecure-http}) a request without
 * credentials is {@code system:unsecured} in {@code system:masters}, which may impersonate: that is how tests name
 * their user with {@code kubectl --as/--as-group}.
 */
public final class RequestUser {
    /**
     * Kept for the tests and the bench that set it (authorization tests name their users with impersonation); it no
     * longer changes anything: impersonation is real, and on plain HTTP everyone may impersonate.
     */
    public static final String TEST_IDENTITIES = "EVENTPLANE_TEST_IDENTITIES";

    private RequestUser() {
    }

    public static UserInfo of(ApiRequest request) {
        return request.user();
    }
}
