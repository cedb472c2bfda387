package io.eventplane.nodesim;

import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.ConfigMapKeySelector;
import io.eventplane.model.ConfigMapProjection;
import io.eventplane.model.ConfigMapVolumeSource;
import io.eventplane.model.Container;
import io.eventplane.model.EnvFromSource;
import io.eventplane.model.EnvVar;
import io.eventplane.model.EphemeralContainer;
import io.eventplane.model.KeyToPath;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.Secret;
import io.eventplane.model.SecretKeySelector;
import io.eventplane.model.SecretProjection;
import io.eventplane.model.SecretVolumeSource;
import io.eventplane.model.Volume;
import io.eventplane.model.VolumeDevice;
import io.eventplane.model.VolumeMount;
import io.eventplane.model.VolumeProjection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import static io.eventplane.nodesim.PodRun.list;

/**
 * The ConfigMaps and Secrets a kubelet reads before it runs a pod: those its containers' environment refers to (env
 * {@code valueFrom.configMapKeyRef} / {@code secretKeyRef}, {@code envFrom} {@code configMapRef} / {@code secretRef}),
 * and those behind its configMap, secret and projected volumes. Each check answers with the kubelet's own message
 * (Kubernetes 1.33: {@code makeEnvironmentVariables}, the configmap, secret and projected volume plugins), or nothing
 * when every reference resolves. A reference marked {@code optional: true} never blocks: the variable is left out, the
 * volume (or its item) is empty. Pure.
 */
final class ConfigReferences {

    private ConfigReferences() {
    }

    /** The ConfigMaps and Secrets as the kubelet sees them now. */
    interface Objects {
        Optional<ConfigMap> configMap(String namespace, String name);

        Optional<Secret> secret(String namespace, String name);

        /** An API without any ConfigMap or Secret. */
        static Objects none() {
            return byKey(key -> Optional.empty());
        }

        /** Objects found by their view key ({@link Keys#of}). */
        static Objects byKey(Function<String, Optional<?>> find) {
            return new Objects() {
                @Override
                public Optional<ConfigMap> configMap(String namespace, String name) {
                    return find.apply(configMapKey(namespace, name)).map(ConfigMap.class::cast);
                }

                @Override
                public Optional<Secret> secret(String namespace, String name) {
                    return find.apply(secretKey(namespace, name)).map(Secret.class::cast);
                }
            };
        }
    }

    // ---- a container's environment: CreateContainerConfigError

    /**
     * Why the kubelet cannot build the container's environment now, as it words it, or empty. envFrom is read before
     * env, each in spec order; the first failure is the one reported.
     */
    static Optional<String> environmentError(String namespace, Container container, Objects objects) {
        for (EnvFromSource from : list(container.getEnvFrom())) {
            if (from.getConfigMapRef() != null) {
                String name = from.getConfigMapRef().getName();
                if (objects.configMap(namespace, name).isEmpty() && !isTrue(from.getConfigMapRef().getOptional())) {
                    return Optional.of(notFound("configmap", name));
                }
            } else if (from.getSecretRef() != null) {
                String name = from.getSecretRef().getName();
                if (objects.secret(namespace, name).isEmpty() && !isTrue(from.getSecretRef().getOptional())) {
                    return Optional.of(notFound("secret", name));
                }
            }
        }
        for (EnvVar env : list(container.getEnv())) {
            if ((env.getValue() != null && !env.getValue().isEmpty()) || env.getValueFrom() == null) {
                continue; // a literal value wins over valueFrom, as in the kubelet
            }
            ConfigMapKeySelector cm = env.getValueFrom().getConfigMapKeyRef();
            SecretKeySelector secret = env.getValueFrom().getSecretKeyRef();
            if (cm != null) {
                boolean optional = isTrue(cm.getOptional());
                Optional<ConfigMap> found = objects.configMap(namespace, cm.getName());
                if (found.isEmpty() && !optional) {
                    return Optional.of(notFound("configmap", cm.getName()));
                }
                if (found.isPresent() && !has(found.get().getData(), cm.getKey()) && !optional) {
                    return Optional.of("couldn't find key " + cm.getKey() + " in ConfigMap " + namespace + "/"
                            + cm.getName());
                }
            } else if (secret != null) {
                boolean optional = isTrue(secret.getOptional());
                Optional<Secret> found = objects.secret(namespace, secret.getName());
                if (found.isEmpty() && !optional) {
                    return Optional.of(notFound("secret", secret.getName()));
                }
                if (found.isPresent() && !has(found.get().getData(), secret.getKey()) && !optional) {
                    return Optional.of("couldn't find key " + secret.getKey() + " in Secret " + namespace + "/"
                            + secret.getName());
                }
            }
        }
        return Optional.empty();
    }

    // ---- the pod's volumes: FailedMount, ContainerCreating

    /**
     * One FailedMount message for each configMap, secret or projected volume that cannot be set up now, in spec order.
     * Only volumes some container mounts count: the kubelet skips unused ones.
     */
    static List<String> mountErrors(Pod pod, Objects objects) {
        PodSpec spec = pod.getSpec();
        String namespace = pod.getMetadata().getNamespace();
        Set<String> used = usedVolumes(spec);
        List<String> out = new ArrayList<>();
        for (Volume v : list(spec.getVolumes())) {
            if (!used.contains(v.getName())) {
                continue;
            }
            String error = null;
            if (v.getConfigMap() != null) {
                ConfigMapVolumeSource s = v.getConfigMap();
                error = configMapError(namespace, s.getName(), s.getItems(), isTrue(s.getOptional()), objects);
            } else if (v.getSecret() != null) {
                SecretVolumeSource s = v.getSecret();
                error = secretError(namespace, s.getSecretName(), s.getItems(), isTrue(s.getOptional()), objects);
            } else if (v.getProjected() != null) {
                error = projectedError(namespace, list(v.getProjected().getSources()), objects);
            }
            if (error != null) {
                out.add("MountVolume.SetUp failed for volume \"" + v.getName() + "\" : " + error);
            }
        }
        return out;
    }

    private static String configMapError(String namespace, String name, List<KeyToPath> items, boolean optional,
                                         Objects objects) {
        Optional<ConfigMap> found = objects.configMap(namespace, name);
        if (found.isEmpty()) {
            return optional ? null : notFound("configmap", name);
        }
        for (KeyToPath item : list(items)) {
            if (!has(found.get().getData(), item.getKey()) && !has(found.get().getBinaryData(), item.getKey())
                    && !optional) {
                return "configmap references non-existent config key: " + item.getKey();
            }
        }
        return null;
    }

    private static String secretError(String namespace, String name, List<KeyToPath> items, boolean optional,
                                      Objects objects) {
        Optional<Secret> found = objects.secret(namespace, name);
        if (found.isEmpty()) {
            return optional ? null : notFound("secret", name);
        }
        for (KeyToPath item : list(items)) {
            if (!has(found.get().getData(), item.getKey()) && !optional) {
                return "references non-existent secret key: " + item.getKey();
            }
        }
        return null;
    }

    /** Every source is tried; the errors are aggregated as Go's utilerrors.NewAggregate prints them. */
    private static String projectedError(String namespace, List<VolumeProjection> sources, Objects objects) {
        Set<String> errors = new LinkedHashSet<>();
        for (VolumeProjection p : sources) {
            String error = null;
            if (p.getSecret() != null) {
                SecretProjection s = p.getSecret();
                error = secretError(namespace, s.getName(), s.getItems(), isTrue(s.getOptional()), objects);
            } else if (p.getConfigMap() != null) {
                ConfigMapProjection s = p.getConfigMap();
                error = configMapError(namespace, s.getName(), s.getItems(), isTrue(s.getOptional()), objects);
            }
            if (error != null) {
                errors.add(error);
            }
        }
        if (errors.isEmpty()) {
            return null;
        }
        return errors.size() == 1 ? errors.iterator().next() : "[" + String.join(", ", errors) + "]";
    }

    private static Set<String> usedVolumes(PodSpec spec) {
        Set<String> used = new HashSet<>();
        List<Container> containers = new ArrayList<>(list(spec.getInitContainers()));
        containers.addAll(list(spec.getContainers()));
        for (Container c : containers) {
            list(c.getVolumeMounts()).forEach(m -> used.add(m.getName()));
            list(c.getVolumeDevices()).forEach(d -> used.add(d.getName()));
        }
        for (EphemeralContainer e : list(spec.getEphemeralContainers())) {
            list(e.getVolumeMounts()).stream().map(VolumeMount::getName).forEach(used::add);
            list(e.getVolumeDevices()).stream().map(VolumeDevice::getName).forEach(used::add);
        }
        return used;
    }

    // ---- what a pod waits on

    /** The view keys of every ConfigMap and Secret the pod refers to, through its containers or its volumes. */
    static Set<String> referencedKeys(Pod pod) {
        PodSpec spec = pod.getSpec();
        String ns = pod.getMetadata().getNamespace();
        Set<String> keys = new HashSet<>();
        for (Container c : list(spec.getInitContainers())) {
            addEnvironment(keys, ns, c.getEnvFrom(), c.getEnv());
        }
        for (Container c : list(spec.getContainers())) {
            addEnvironment(keys, ns, c.getEnvFrom(), c.getEnv());
        }
        for (EphemeralContainer e : list(spec.getEphemeralContainers())) {
            addEnvironment(keys, ns, e.getEnvFrom(), e.getEnv());
        }
        for (Volume v : list(spec.getVolumes())) {
            if (v.getConfigMap() != null) {
                keys.add(configMapKey(ns, v.getConfigMap().getName()));
            }
            if (v.getSecret() != null) {
                keys.add(secretKey(ns, v.getSecret().getSecretName()));
            }
            for (VolumeProjection p : v.getProjected() == null ? List.<VolumeProjection>of()
                    : list(v.getProjected().getSources())) {
                if (p.getConfigMap() != null) {
                    keys.add(configMapKey(ns, p.getConfigMap().getName()));
                }
                if (p.getSecret() != null) {
                    keys.add(secretKey(ns, p.getSecret().getName()));
                }
            }
        }
        return keys;
    }

    private static void addEnvironment(Set<String> keys, String ns, List<EnvFromSource> from, List<EnvVar> env) {
        for (EnvFromSource f : list(from)) {
            if (f.getConfigMapRef() != null) {
                keys.add(configMapKey(ns, f.getConfigMapRef().getName()));
            }
            if (f.getSecretRef() != null) {
                keys.add(secretKey(ns, f.getSecretRef().getName()));
            }
        }
        for (EnvVar e : list(env)) {
            if (e.getValueFrom() != null && e.getValueFrom().getConfigMapKeyRef() != null) {
                keys.add(configMapKey(ns, e.getValueFrom().getConfigMapKeyRef().getName()));
            }
            if (e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null) {
                keys.add(secretKey(ns, e.getValueFrom().getSecretKeyRef().getName()));
            }
        }
    }

    private static String configMapKey(String namespace, String name) {
        return Keys.of(Kinds.CONFIG_MAP.kind(), namespace, name);
    }

    private static String secretKey(String namespace, String name) {
        return Keys.of(Kinds.SECRET.kind(), namespace, name);
    }

    // ---- helpers

    /** The kubelet's ConfigMap and Secret managers answer with apierrors.NewNotFound on resource "configmap"/"secret". */
    private static String notFound(String resource, String name) {
        return resource + " \"" + name + "\" not found";
    }

    private static boolean has(Map<String, ?> data, String key) {
        return data != null && key != null && data.containsKey(key);
    }

    private static boolean isTrue(Boolean b) {
        return Boolean.TRUE.equals(b);
    }
}
