package io.eventplane.gateway.auth.authn;

import io.eventplane.gateway.auth.UserInfo;

/**
 * Whether a user may impersonate: kube-apiserver asks its authorizer for the verb {@code impersonate} on
 * {@code users}, {@code groups}, {@code serviceaccounts} (namespaced), {@code uids} or {@code userextras/<key>}.
 * The gateway asks its authorization ({@code Authorization#mayImpersonate}: RBAC, {@code system:masters} always);
 * {@link #MASTERS_ONLY} is for gateways built without one.
 */
@FunctionalInterface
public interface ImpersonationCheck {
    ImpersonationCheck MASTERS_ONLY = (user, resource, namespace, name) -> user.inGroup(UserInfo.MASTERS);

    /**
     * @param resource  {@code users}, {@code groups}, {@code serviceaccounts}, {@code uids} or {@code userextras/<key>}
     * @param namespace the service account's namespace, else null
     */
    boolean mayImpersonate(UserInfo requester, String resource, String namespace, String name);
}
