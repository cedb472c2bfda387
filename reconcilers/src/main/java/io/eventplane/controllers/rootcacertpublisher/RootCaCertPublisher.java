package io.eventplane.controllers.rootcacertpublisher;

import io.eventplane.client.ClusterView;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.pki.Pem;
import io.eventplane.controllers.csrsigning.CsrSigningReconciler;
import io.eventplane.controllers.serviceaccount.ServiceAccountReconciler;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.Namespace;
import io.eventplane.model.ObjectMeta;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's {@code root-ca-cert-publisher}: every active namespace has the ConfigMap
 * {@code kube-root-ca.crt} whose {@code ca.crt} is the cluster CA's certificate (what the projected
 * {@code kube-api-access-*} volume of a pod shows as {@code ca.crt}); created when the namespace appears, created again
 * when deleted, its data put back when changed. The CA is the {@code ca.crt} of {@code EVENTPLANE_CLUSTER_SIGNING_DIR}
 * (as csrsigning reads it); without one nothing is published.
 */
public final class RootCaCertPublisher implements Reconciler {
    public static final String CONFIG_MAP = "kube-root-ca.crt";
    public static final String KEY = "ca.crt";
    static final String DESCRIPTION = "kubernetes.io/description";
    static final String DESCRIPTION_TEXT = "Contains a CA bundle that can be used to verify the kube-apiserver when "
            + "using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is "
            + "guaranteed across distributions of Kubernetes clusters.";
    private static final Logger LOG = LoggerFactory.getLogger(RootCaCertPublisher.class);
    private final String caPem;

    /** Publishes {@code caPem}; null publishes nothing. */
    public RootCaCertPublisher(String caPem) {
        this.caPem = caPem;
    }

    /** The CA certificate of {@code EVENTPLANE_CLUSTER_SIGNING_DIR}, when set and readable. */
    public static RootCaCertPublisher fromEnvironment() {
        return new RootCaCertPublisher(caCertificate(EventplaneConfig.setting(CsrSigningReconciler.SIGNING_DIR, ""))
                .orElse(null));
    }

    static Optional<String> caCertificate(String dir) {
        if (dir.isEmpty()) {
            return Optional.empty();
        }
        Path file = Path.of(dir).resolve(KEY);
        try {
            String pem = Files.readString(file);
            Pem.certificate(pem); // a certificate, not anything that happens to be there
            return Optional.of(pem);
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("no cluster CA certificate in {} ({}): {} is not published", file, e.toString(), CONFIG_MAP);
            return Optional.empty();
        }
    }

    @Override
    public String kind() {
        return Kinds.NAMESPACE.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (caPem == null) {
            return List.of();
        }
        if (change.getKind().equals(kind()) && change.getType() != ChangeType.DELETED) {
            return List.of(Keys.of(kind(), "", change.getName()));
        }
        if (change.getKind().equals(Kinds.CONFIG_MAP.kind()) && change.getName().equals(CONFIG_MAP)) {
            return List.of(Keys.of(kind(), "", change.getNamespace()));
        }
        return List.of();
    }

    @Override
    public Collection<String> initialKeys(ClusterView view) {
        return caPem == null ? List.of() : Reconciler.super.initialKeys(view);
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (caPem == null || current == null || !ServiceAccountReconciler.active((Namespace) current.getObject())) {
            return Reconciliation.NOTHING;
        }
        String namespace = current.getName();
        Optional<ConfigMap> existing = view.get(Kinds.CONFIG_MAP.kind(), namespace, CONFIG_MAP)
                .filter(c -> c.getType() != ChangeType.DELETED && c.getObject() != null)
                .map(c -> (ConfigMap) c.getObject());
        if (existing.isEmpty()) {
            ConfigMap cm = ConfigMap.newBuilder()
                    .setMetadata(ObjectMeta.newBuilder().setName(CONFIG_MAP).setNamespace(namespace)
                            .setAnnotations(Map.of(DESCRIPTION, DESCRIPTION_TEXT)).build())
                    .setData(Map.of(KEY, caPem)).build();
            return Reconciliation.of(List.of(new Action.Create(cm, null, null)));
        }
        ConfigMap cm = existing.get();
        Map<String, String> annotations = cm.getMetadata().getAnnotations();
        boolean described = annotations != null && annotations.get(DESCRIPTION) != null
                && !annotations.get(DESCRIPTION).isEmpty();
        if (Map.of(KEY, caPem).equals(cm.getData()) && described) {
            return Reconciliation.NOTHING;
        }
        // As upstream: the data is ours alone (other keys go); the description comes back; the rest is kept.
        Map<String, String> kept = annotations == null ? new HashMap<>() : new HashMap<>(annotations);
        kept.put(DESCRIPTION, DESCRIPTION_TEXT);
        ConfigMap corrected = ConfigMap.newBuilder(cm)
                .setMetadata(ObjectMeta.newBuilder(cm.getMetadata()).setAnnotations(kept).build())
                .setData(Map.of(KEY, caPem)).build();
        return Reconciliation.of(List.of(new Action.Update(corrected)));
    }
}
