package io.eventplane.gateway.auth.authz;

/** Decides one request (kube-apiserver's authorizer.Authorizer). */
public interface Authorizer {
    Decision authorize(Attributes attributes);
}
