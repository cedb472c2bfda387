package io.eventplane.gateway.auth.authn;

import io.eventplane.client.pki.CertificateAuthority;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.KubeStatus;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who a request is from, as kube-apiserver's authenticators decide it, in its order: a client certificate signed by
 * the cluster CA (CN = user, O = groups), then a bearer token (the static token file, then ServiceAccount tokens),
 * then anonymous when allowed; then the impersonation headers. Credentials that are presented and fail (an unknown
 * token, an expired or badly signed one) are 401 Unauthorized, as are requests without credentials when anonymous
 * access is off.
 */
public final class Authentication {
    private static final Logger LOG = LoggerFactory.getLogger(Authentication.class);
    /** The user of a gateway run with {@code --insecure-http} (kube-apiserver's old insecure port). */
    public static final UserInfo UNSECURED = new UserInfo("system:unsecured", "",
            List.of(UserInfo.MASTERS, UserInfo.AUTHENTICATED), Map.of());

    /** Looks up a service account's uid: a token of a deleted (or re-created) account is no longer believed. */
    @FunctionalInterface
    public interface ServiceAccounts {
        Optional<String> uid(String namespace, String name);

        /**
         * The uid of the pod a bound token names, as kube-apiserver checks it: a token bound to a pod that is gone (or
         * re-created) is no longer believed. By default unknown, and the token is believed.
         */
        default Optional<String> podUid(String namespace, String name) {
            return Optional.empty();
        }

        /** Whether {@link #podUid} is looked up (else bound tokens are not checked against their pod). */
        default boolean checksPods() {
            return false;
        }
    }

    private final CertificateAuthority clientCa;
    private final TokenFile tokens;
    private final ServiceAccountTokens serviceAccountTokens;
    private final ServiceAccounts serviceAccounts;
    private final UserInfo unauthenticated;
    private final ImpersonationCheck impersonation;
    private final Clock clock;

    /**
     * @param clientCa        verifies client certificates; null: certificates are not read
     * @param unauthenticated who a request without credentials is: anonymous, {@link #UNSECURED}, or null for 401
     */
    public Authentication(CertificateAuthority clientCa, TokenFile tokens, ServiceAccountTokens serviceAccountTokens,
                          ServiceAccounts serviceAccounts, UserInfo unauthenticated, ImpersonationCheck impersonation,
                          Clock clock) {
        this.clientCa = clientCa;
        this.tokens = tokens;
        this.serviceAccountTokens = serviceAccountTokens;
        this.serviceAccounts = serviceAccounts;
        this.unauthenticated = unauthenticated;
        this.impersonation = impersonation;
        this.clock = clock;
    }

    public ServiceAccountTokens serviceAccountTokens() {
        return serviceAccountTokens;
    }

    /** The same checks with another impersonation policy (authorization's). */
    public Authentication withImpersonation(ImpersonationCheck check) {
        return new Authentication(clientCa, tokens, serviceAccountTokens, serviceAccounts, unauthenticated, check,
                clock);
    }

    /** Kubernetes' answer to failed authentication: always the same words, the reason goes to the log only. */
    public static KubeStatus unauthorized() {
        return new KubeStatus(401, "Unauthorized", "Unauthorized", null);
    }

    /**
     * The request's user, impersonation applied.
     *
     * @param authorization the Authorization header, or null
     * @param clientChain   the TLS client's certificate chain, or null
     * @param headers       the request's headers by lower-case name (for {@code Impersonate-*})
     */
    public Identity authenticate(String authorization, X509Certificate[] clientChain,
                                 Map<String, List<String>> headers) {
        UserInfo user = authenticated(authorization, clientChain);
        return Impersonation.apply(user, headers, impersonation);
    }

    /** Who really asked, and who the request acts as ({@code user} itself unless impersonating). */
    public record Identity(UserInfo user, UserInfo realUser) {
        public boolean impersonated() {
            return realUser != null;
        }
    }

    private UserInfo authenticated(String authorization, X509Certificate[] clientChain) {
        if (clientCa != null && clientChain != null && clientChain.length > 0) {
            X509Certificate cert = clientChain[0];
            if (clientCa.issued(cert)) {
                CertificateAuthority.Subject s = CertificateAuthority.Subject.of(cert);
                if (!s.commonName().isEmpty()) {
                    List<String> groups = new ArrayList<>(s.organizations());
                    groups.add(UserInfo.AUTHENTICATED);
                    return new UserInfo(s.commonName(), "", groups, Map.of());
                }
            }
            LOG.info("authentication: a client certificate not issued by the cluster CA, expired or without a CN ({})",
                    cert.getSubjectX500Principal());
            throw new ApiException(unauthorized());
        }
        String token = bearer(authorization);
        if (token != null) {
            Optional<UserInfo> listed = tokens.authenticate(token);
            if (listed.isPresent()) {
                return listed.get();
            }
            Optional<UserInfo> sa = serviceAccount(token);
            if (sa.isPresent()) {
                return sa.get();
            }
            LOG.info("authentication: an unknown bearer token");
            throw new ApiException(unauthorized());
        }
        if (unauthenticated == null) {
            throw new ApiException(unauthorized());
        }
        return unauthenticated;
    }

    private Optional<UserInfo> serviceAccount(String token) {
        if (serviceAccountTokens == null) {
            return Optional.empty();
        }
        try {
            Optional<ServiceAccountTokens.Claims> claims = serviceAccountTokens.verify(token, clock.instant());
            if (claims.isEmpty()) {
                return Optional.empty();
            }
            ServiceAccountTokens.Claims c = claims.get();
            Optional<String> uid = serviceAccounts.uid(c.namespace(), c.name());
            if (uid.isEmpty() || (!c.uid().isEmpty() && !uid.get().equals(c.uid()))) {
                LOG.info("authentication: a token of service account {}/{}, which no longer exists", c.namespace(),
                        c.name());
                throw new ApiException(unauthorized());
            }
            if (c.podName() != null && serviceAccounts.checksPods()
                    && !serviceAccounts.podUid(c.namespace(), c.podName()).map(u -> u.equals(c.podUid())).orElse(false)) {
                LOG.info("authentication: a token bound to pod {}/{}, which no longer exists", c.namespace(),
                        c.podName());
                throw new ApiException(unauthorized());
            }
            Map<String, List<String>> extra = new LinkedHashMap<>();
            if (c.podName() != null) {
                extra.put("authentication.kubernetes.io/pod-name", List.of(c.podName()));
                extra.put("authentication.kubernetes.io/pod-uid", List.of(c.podUid()));
            }
            return Optional.of(serviceAccountUser(c.namespace(), c.name(), uid.get(), extra));
        } catch (ServiceAccountTokens.InvalidToken e) {
            LOG.info("authentication: a service account token refused: {}", e.getMessage());
            throw new ApiException(unauthorized());
        }
    }

    /** A service account's user: its name and the groups Kubernetes gives every account. */
    static UserInfo serviceAccountUser(String namespace, String name, String uid, Map<String, List<String>> extra) {
        return new UserInfo(ServiceAccountTokens.PREFIX + namespace + ":" + name, uid,
                List.of("system:serviceaccounts", "system:serviceaccounts:" + namespace, UserInfo.AUTHENTICATED), extra);
    }

    private static String bearer(String authorization) {
        if (authorization == null) {
            return null;
        }
        String a = authorization.trim();
        if (a.length() > 7 && a.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            String t = a.substring(7).trim();
            return t.isEmpty() ? null : t;
        }
        return null;
    }
}
