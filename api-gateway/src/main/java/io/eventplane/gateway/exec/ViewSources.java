package io.eventplane.gateway.exec;

import io.eventplane.client.ClusterView;
import io.eventplane.core.container.ContainerSources;
import io.eventplane.core.decide.PodRules;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.auth.authn.ServiceAccountTokens;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.Node;
import io.eventplane.model.Secret;
import io.eventplane.model.Pod;
import io.eventplane.model.Service;
import io.eventplane.model.ServiceAccount;
import io.eventplane.model.ServiceAccountTokenProjection;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A container's sources read from the gateway's view of the log; projected ServiceAccount tokens minted here, with the
 * cluster's key, as kube-apiserver's TokenRequest gives them to the kubelet: bound to the pod, for the projection's
 * audience and lifetime.
 */
final class ViewSources implements ContainerSources {
    /** The API's default for a projection without expirationSeconds: an hour. */
    private static final long DEFAULT_TOKEN_SECONDS = 3600;
    private final ClusterView view;
    private final ServiceAccountTokens tokens;
    private final Clock clock;

    /** {@code tokens} null: no tokens are minted (the placeholder stands in). */
    ViewSources(ClusterView view, ServiceAccountTokens tokens, Clock clock) {
        this.view = view;
        this.tokens = tokens;
        this.clock = clock;
    }

    @Override
    public Optional<String> serviceAccountToken(Pod pod, ServiceAccountTokenProjection projection) {
        if (tokens == null) {
            return Optional.empty();
        }
        String namespace = pod.getMetadata().getNamespace();
        String account = pod.getSpec().getServiceAccountName() == null || pod.getSpec().getServiceAccountName()
                .isEmpty() ? PodRules.DEFAULT_SERVICE_ACCOUNT : pod.getSpec().getServiceAccountName();
        Optional<ServiceAccount> found = view.get(Kinds.SERVICE_ACCOUNT.kind(), namespace, account)
                .map(c -> (ServiceAccount) c.getObject());
        if (found.isEmpty()) {
            return Optional.empty();
        }
        String audience = projection.getAudience();
        long seconds = projection.getExpirationSeconds() == null ? DEFAULT_TOKEN_SECONDS
                : projection.getExpirationSeconds();
        return Optional.of(tokens.issue(namespace, account, found.get().getMetadata().getUid(),
                audience == null || audience.isEmpty() ? List.of() : List.of(audience), clock.instant(),
                Duration.ofSeconds(seconds), pod.getMetadata().getName(), pod.getMetadata().getUid()));
    }

    @Override
    public Optional<ConfigMap> configMap(String namespace, String name) {
        return view.get(Kinds.CONFIG_MAP.kind(), namespace, name).map(c -> (ConfigMap) c.getObject());
    }

    @Override
    public Optional<Secret> secret(String namespace, String name) {
        return view.get(Kinds.SECRET.kind(), namespace, name).map(c -> (Secret) c.getObject());
    }

    @Override
    public List<Service> services(String namespace) {
        return view.objects(Kinds.SERVICE.kind(), namespace);
    }

    @Override
    public Optional<Node> node(String name) {
        return view.get(Kinds.NODE.kind(), "", name).map(c -> (Node) c.getObject());
    }
}
