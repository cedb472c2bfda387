package io.eventplane.client.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.core.decide.PodRules;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.LocalObjectReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ServiceAccount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kubernetes' ServiceAccount plugin for a new pod: the {@code default} ServiceAccount unless it names one, which must
 * exist ({@code error looking up service account ns/x: serviceaccount "x" not found}), and that account's image pull
 * secrets when the pod has none. The default account is waited for a while, as Kubernetes retries for it: the
 * service account controller creates it when the namespace appears. Token volumes are not mounted.
 */
final class ServiceAccountAdmission implements AdmissionChain.Mutating {
    private static final String MIRROR_POD = "kubernetes.io/config.mirror";
    private final ClusterView view;
    private final Duration defaultWait;
    private final boolean defaultRequired;

    /** @param defaultRequired whether a pod is refused when its namespace's {@code default} account is missing */
    ServiceAccountAdmission(ClusterView view, Duration defaultWait, boolean defaultRequired) {
        this.view = view;
        this.defaultWait = defaultWait;
        this.defaultRequired = defaultRequired;
    }

    @Override
    public SpecificRecord admit(AdmissionRequest request, SpecificRecord object) {
        if (request.kind() != Kinds.POD || request.operation() != AdmissionRequest.Operation.CREATE) {
            return object;
        }
        Pod pod = (Pod) object;
        if (pod.getSpec() == null || (pod.getMetadata().getAnnotations() != null
                && pod.getMetadata().getAnnotations().containsKey(MIRROR_POD))) {
            return object; // a mirror pod's spec is the kubelet's; never changed
        }
        PodSpec spec = PodSpec.newBuilder(pod.getSpec()).build();
        if (spec.getServiceAccountName() == null || spec.getServiceAccountName().isEmpty()) {
            spec.setServiceAccountName(PodRules.DEFAULT_SERVICE_ACCOUNT);
            spec.setServiceAccount(PodRules.DEFAULT_SERVICE_ACCOUNT);
        }
        String name = spec.getServiceAccountName();
        ServiceAccount account = lookUp(request.namespace(), name);
        if (account == null && !defaultRequired && name.equals(PodRules.DEFAULT_SERVICE_ACCOUNT)) {
            return Pod.newBuilder(pod).setSpec(spec).build();
        }
        if (account == null) {
            throw AdmissionRefusal.forbidden(Kinds.POD, request.name(), "error looking up service account "
                    + request.namespace() + "/" + name + ": serviceaccount \"" + name + "\" not found").thrown();
        }
        if ((spec.getImagePullSecrets() == null || spec.getImagePullSecrets().isEmpty())
                && account.getImagePullSecrets() != null && !account.getImagePullSecrets().isEmpty()) {
            List<LocalObjectReference> secrets = new ArrayList<>();
            account.getImagePullSecrets().forEach(s -> secrets.add(LocalObjectReference.newBuilder(s).build()));
            spec.setImagePullSecrets(secrets);
        }
        return Pod.newBuilder(pod).setSpec(spec).build();
    }

    /** The account, waiting a while for the default one (the controller may not have made it yet). */
    private ServiceAccount lookUp(String namespace, String name) {
        long deadline = System.nanoTime() + (name.equals(PodRules.DEFAULT_SERVICE_ACCOUNT) ? defaultWait.toNanos() : 0);
        while (true) {
            var found = view.get(Kinds.SERVICE_ACCOUNT.kind(), namespace, name);
            if (found.isPresent()) {
                return (ServiceAccount) found.get().getObject();
            }
            if (System.nanoTime() >= deadline) {
                return null;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }
}
