package io.eventplane.gateway.auth.authn;

import io.eventplane.client.pki.ClusterPki;
import io.eventplane.gateway.auth.UserInfo;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;

/**
 * How a gateway serves and authenticates: TLS with the cluster's certificates (the default of {@code eventplane up})
 * or plain HTTP for development and tests ({@code --insecure-http}: every request without credentials is
 * {@code system:unsecured}, in {@code system:masters}); the static token file; whether requests without credentials
 * are {@code system:anonymous} rather than 401; who may impersonate.
 *
 * @param pki          the cluster's certificates and keys; null for plain HTTP
 * @param tokenFile    kube-apiserver's {@code --token-auth-file} CSV, or null
 * @param anonymous    requests without credentials are {@code system:anonymous} (kube-apiserver's
 *                     {@code --anonymous-auth}); off by default here
 * @param impersonation who may impersonate whom; null: the gateway's authorization decides (RBAC's verb
 *                      {@code impersonate}, as kube-apiserver asks it)
 */
public record GatewaySecurity(ClusterPki pki, Path tokenFile, boolean anonymous, ImpersonationCheck impersonation) {

    /** Plain HTTP; requests without credentials are {@code system:unsecured} (tests and {@code --insecure-http}). */
    public static GatewaySecurity insecure() {
        return new GatewaySecurity(null, null, false, null);
    }

    /** TLS with the cluster's certificates, authentication required. */
    public static GatewaySecurity tls(ClusterPki pki) {
        return new GatewaySecurity(pki, null, false, null);
    }

    public GatewaySecurity withTokenFile(Path file) {
        return new GatewaySecurity(pki, file, anonymous, impersonation);
    }

    public GatewaySecurity withAnonymous(boolean on) {
        return new GatewaySecurity(pki, tokenFile, on, impersonation);
    }

    public GatewaySecurity withImpersonation(ImpersonationCheck check) {
        return new GatewaySecurity(pki, tokenFile, anonymous, check);
    }

    public boolean tls() {
        return pki != null;
    }

    /**
     * Whether ServiceAccount tokens are signed with the cluster's key (it has one): then pods get projected token
     * volumes. Without one, tokens are signed by a key that dies with the gateway and pods get none.
     */
    public boolean signsServiceAccountTokens() {
        return pki != null;
    }

    /** The authenticators this configuration asks for. */
    public Authentication authentication(Authentication.ServiceAccounts accounts, Clock clock) {
        UserInfo unauthenticated = anonymous ? UserInfo.anonymous() : pki == null ? Authentication.UNSECURED : null;
        return new Authentication(pki == null ? null : pki.ca(),
                tokenFile == null ? TokenFile.empty() : TokenFile.read(tokenFile),
                new ServiceAccountTokens(pki == null ? ephemeralKey() : pki.serviceAccountKey()), accounts,
                unauthenticated, impersonation == null ? ImpersonationCheck.MASTERS_ONLY : impersonation, clock);
    }

    /** Without a cluster key (plain HTTP), tokens are signed by a key that lives as long as the gateway. */
    private static KeyPair ephemeralKey() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
