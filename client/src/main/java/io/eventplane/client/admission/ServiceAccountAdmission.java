package io.eventplane.client.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.core.decide.PodRules;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.NameSuffixes;
import io.eventplane.model.ConfigMapProjection;
import io.eventplane.model.Container;
import io.eventplane.model.DownwardAPIProjection;
import io.eventplane.model.DownwardAPIVolumeFile;
import io.eventplane.model.KeyToPath;
import io.eventplane.model.LocalObjectReference;
import io.eventplane.model.ObjectFieldSelector;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ProjectedVolumeSource;
import io.eventplane.model.ServiceAccount;
import io.eventplane.model.ServiceAccountTokenProjection;
import io.eventplane.model.Volume;
import io.eventplane.model.VolumeMount;
import io.eventplane.model.VolumeProjection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kubernetes' ServiceAccount plugin for a new pod: the {@code default} ServiceAccount unless it names one, which must
 * exist ({@code error looking up service account ns/x: serviceaccount "x" not found}), and that account's image pull
 * secrets when the pod has none. The default account is waited for a while, as Kubernetes retries for it: the
 * service account controller creates it when the namespace appears.
 *
 * <p>Where the API issues ServiceAccount tokens ({@code mountTokens}: the gateway has the cluster's signing key), a
 * pod that does not opt out ({@code automountServiceAccountToken: false} on the pod, else on its account) also gets
 * Kubernetes' {@code kube-api-access-<5 random>} projected volume (a bound token, the cluster CA of
 * {@code kube-root-ca.crt}, the namespace), mounted read-only at {@value #MOUNT_PATH} in every init and app container
 * that has nothing mounted there yet (ephemeral containers are added later and never get it). Without a key (plain
 * HTTP test harnesses) nothing is mounted, as before. Controllers do not hold the key: their pods get the volume in
 * namespaces where the cluster CA is published ({@code kube-root-ca.crt}, which the root-ca-cert-publisher writes
 * only where a cluster CA exists, and that CA is the one that signs the tokens).
 */
final class ServiceAccountAdmission implements AdmissionChain.Mutating {
    static final String MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
    static final String VOLUME_PREFIX = "kube-api-access-";
    /** kube-apiserver's projected token lifetime: an hour and 7 seconds (the 7 tell it apart). */
    static final long TOKEN_SECONDS = 3607;
    static final String ROOT_CA_CONFIG_MAP = "kube-root-ca.crt";
    private static final String MIRROR_POD = "kubernetes.io/config.mirror";
    private final ClusterView view;
    private final Duration defaultWait;
    private final boolean defaultRequired;
    private final Predicate<String> mountTokensIn;
    private final Random random;

    /**
     * @param defaultRequired whether a pod is refused when its namespace's {@code default} account is missing
     * @param mountTokensIn   whether pods of a namespace get the projected token volume
     */
    ServiceAccountAdmission(ClusterView view, Duration defaultWait, boolean defaultRequired,
                            Predicate<String> mountTokensIn, Random random) {
        this.view = view;
        this.defaultWait = defaultWait;
        this.defaultRequired = defaultRequired;
        this.mountTokensIn = mountTokensIn;
        this.random = random;
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
        if (mountTokensIn.test(request.namespace()) && automount(spec, account)) {
            mountToken(spec);
        }
        return Pod.newBuilder(pod).setSpec(spec).build();
    }

    /** Namespaces where the cluster CA is published, hence a cluster that signs ServiceAccount tokens. */
    static Predicate<String> whereRootCaPublished(ClusterView view) {
        return namespace -> view.get(Kinds.CONFIG_MAP.kind(), namespace, ROOT_CA_CONFIG_MAP).isPresent();
    }

    /** The pod's choice first, then its account's; mounted unless one says no. */
    private static boolean automount(PodSpec spec, ServiceAccount account) {
        if (spec.getAutomountServiceAccountToken() != null) {
            return spec.getAutomountServiceAccountToken();
        }
        return account.getAutomountServiceAccountToken() == null || account.getAutomountServiceAccountToken();
    }

    /** The token volume (an existing {@code kube-api-access-*} one is reused) and a mount where none is. */
    private void mountToken(PodSpec spec) {
        List<Volume> volumes = spec.getVolumes() == null ? new ArrayList<>() : new ArrayList<>(spec.getVolumes());
        String volumeName = volumes.stream().map(Volume::getName)
                .filter(n -> n != null && n.startsWith(VOLUME_PREFIX)).findFirst().orElse(null);
        boolean hasVolume = volumeName != null;
        if (!hasVolume) {
            volumeName = VOLUME_PREFIX + NameSuffixes.random(random, 5);
        }
        boolean mounted = false;
        if (spec.getInitContainers() != null) {
            List<Container> init = new ArrayList<>(spec.getInitContainers());
            mounted = mountIn(init, volumeName);
            spec.setInitContainers(init);
        }
        if (spec.getContainers() != null) {
            List<Container> app = new ArrayList<>(spec.getContainers());
            mounted |= mountIn(app, volumeName);
            spec.setContainers(app);
        }
        if (mounted && !hasVolume) {
            volumes.add(tokenVolume(volumeName));
            spec.setVolumes(volumes);
        }
    }

    /** Mounts the volume in each container with nothing at the path yet; whether any got it. */
    private static boolean mountIn(List<Container> containers, String volumeName) {
        boolean any = false;
        for (int i = 0; i < containers.size(); i++) {
            Container c = containers.get(i);
            List<VolumeMount> mounts = c.getVolumeMounts() == null ? new ArrayList<>()
                    : new ArrayList<>(c.getVolumeMounts());
            if (mounts.stream().anyMatch(m -> MOUNT_PATH.equals(m.getMountPath()))) {
                continue;
            }
            mounts.add(VolumeMount.newBuilder().setName(volumeName).setReadOnly(true).setMountPath(MOUNT_PATH)
                    .build());
            containers.set(i, Container.newBuilder(c).setVolumeMounts(mounts).build());
            any = true;
        }
        return any;
    }

    private static Volume tokenVolume(String name) {
        VolumeProjection token = VolumeProjection.newBuilder().setServiceAccountToken(
                ServiceAccountTokenProjection.newBuilder().setExpirationSeconds(TOKEN_SECONDS).setPath("token")
                        .build()).build();
        VolumeProjection ca = VolumeProjection.newBuilder().setConfigMap(ConfigMapProjection.newBuilder()
                .setName(ROOT_CA_CONFIG_MAP).setItems(List.of(KeyToPath.newBuilder().setKey("ca.crt")
                        .setPath("ca.crt").build())).build()).build();
        VolumeProjection namespace = VolumeProjection.newBuilder().setDownwardAPI(DownwardAPIProjection.newBuilder()
                .setItems(List.of(DownwardAPIVolumeFile.newBuilder().setPath("namespace")
                        .setFieldRef(ObjectFieldSelector.newBuilder().setApiVersion("v1")
                                .setFieldPath("metadata.namespace").build()).build())).build()).build();
        return Volume.newBuilder().setName(name).setProjected(ProjectedVolumeSource.newBuilder()
                .setSources(List.of(token, ca, namespace)).setDefaultMode(0644).build()).build();
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
