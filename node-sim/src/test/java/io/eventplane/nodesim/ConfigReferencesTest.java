package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.core.Keys;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.ConfigMapEnvSource;
import io.eventplane.model.ConfigMapKeySelector;
import io.eventplane.model.ConfigMapProjection;
import io.eventplane.model.ConfigMapVolumeSource;
import io.eventplane.model.Container;
import io.eventplane.model.EnvFromSource;
import io.eventplane.model.EnvVar;
import io.eventplane.model.EnvVarSource;
import io.eventplane.model.KeyToPath;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ProjectedVolumeSource;
import io.eventplane.model.Secret;
import io.eventplane.model.SecretEnvSource;
import io.eventplane.model.SecretKeySelector;
import io.eventplane.model.SecretProjection;
import io.eventplane.model.SecretVolumeSource;
import io.eventplane.model.ServiceAccountTokenProjection;
import io.eventplane.model.Volume;
import io.eventplane.model.VolumeMount;
import io.eventplane.model.VolumeProjection;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The kubelet's reading of a pod's ConfigMap and Secret references, and its messages, without a cluster. */
class ConfigReferencesTest {

    // ---- fixtures (also used by PodRunReferencesTest)

    /** ConfigMaps and Secrets by view key; tests add and remove them while a run goes on. */
    static final class Api {
        final Map<String, Object> objects = new HashMap<>();
        final ConfigReferences.Objects view = ConfigReferences.Objects.byKey(k -> Optional.ofNullable(objects.get(k)));

        Api configMap(String name, String... keysAndValues) {
            Map<String, String> data = new HashMap<>();
            for (int i = 0; i < keysAndValues.length; i += 2) {
                data.put(keysAndValues[i], keysAndValues[i + 1]);
            }
            objects.put(Keys.of("ConfigMap", "default", name), ConfigMap.newBuilder().setMetadata(meta(name))
                    .setData(data).build());
            return this;
        }

        Api secret(String name, String... keysAndValues) {
            Map<String, ByteBuffer> data = new HashMap<>();
            for (int i = 0; i < keysAndValues.length; i += 2) {
                data.put(keysAndValues[i], ByteBuffer.wrap(keysAndValues[i + 1].getBytes(StandardCharsets.UTF_8)));
            }
            objects.put(Keys.of("Secret", "default", name), Secret.newBuilder().setMetadata(meta(name))
                    .setData(data).build());
            return this;
        }

        Api remove(String kind, String name) {
            objects.remove(Keys.of(kind, "default", name));
            return this;
        }

        private static ObjectMeta meta(String name) {
            return ObjectMeta.newBuilder().setName(name).setNamespace("default").build();
        }
    }

    /** A container whose environment takes key {@code key} of {@code name} through {@code source}. */
    static Container.Builder withReference(Container.Builder c, String source, String name, String key, boolean optional) {
        Boolean opt = optional ? Boolean.TRUE : null;
        return switch (source) {
            case "configMapKeyRef" -> c.setEnv(List.of(EnvVar.newBuilder().setName("V").setValueFrom(EnvVarSource
                    .newBuilder().setConfigMapKeyRef(ConfigMapKeySelector.newBuilder().setName(name).setKey(key)
                            .setOptional(opt).build()).build()).build()));
            case "secretKeyRef" -> c.setEnv(List.of(EnvVar.newBuilder().setName("V").setValueFrom(EnvVarSource
                    .newBuilder().setSecretKeyRef(SecretKeySelector.newBuilder().setName(name).setKey(key)
                            .setOptional(opt).build()).build()).build()));
            case "envFrom.configMapRef" -> c.setEnvFrom(List.of(EnvFromSource.newBuilder().setConfigMapRef(
                    ConfigMapEnvSource.newBuilder().setName(name).setOptional(opt).build()).build()));
            case "envFrom.secretRef" -> c.setEnvFrom(List.of(EnvFromSource.newBuilder().setSecretRef(
                    SecretEnvSource.newBuilder().setName(name).setOptional(opt).build()).build()));
            default -> throw new IllegalArgumentException(source);
        };
    }

    /** A volume "v" from {@code name} through {@code source}, with one item {@code key} when a key is given. */
    static Volume volume(String source, String name, String key, boolean optional) {
        Boolean opt = optional ? Boolean.TRUE : null;
        List<KeyToPath> items = key == null ? null : List.of(KeyToPath.newBuilder().setKey(key).setPath("f").build());
        Volume.Builder v = Volume.newBuilder().setName("v");
        return switch (source) {
            case "configMap" -> v.setConfigMap(ConfigMapVolumeSource.newBuilder().setName(name).setItems(items)
                    .setOptional(opt).build()).build();
            case "secret" -> v.setSecret(SecretVolumeSource.newBuilder().setSecretName(name).setItems(items)
                    .setOptional(opt).build()).build();
            case "projected.configMap" -> v.setProjected(ProjectedVolumeSource.newBuilder().setSources(List.of(
                    VolumeProjection.newBuilder().setConfigMap(ConfigMapProjection.newBuilder().setName(name)
                            .setItems(items).setOptional(opt).build()).build())).build()).build();
            case "projected.secret" -> v.setProjected(ProjectedVolumeSource.newBuilder().setSources(List.of(
                    VolumeProjection.newBuilder().setSecret(SecretProjection.newBuilder().setName(name)
                            .setItems(items).setOptional(opt).build()).build())).build()).build();
            default -> throw new IllegalArgumentException(source);
        };
    }

    /** A pod in "default" whose container "app" mounts the given volumes (by name). */
    static Pod podWithVolumes(List<String> mounted, Volume... volumes) {
        return KubeObjects.pod("p").uid("uid-p").containers(KubeObjects.container("app").edit(c -> c.setVolumeMounts(
                        mounted.stream().map(n -> VolumeMount.newBuilder().setName(n).setMountPath("/" + n).build())
                                .toList())))
                .spec(s -> s.setVolumes(List.of(volumes))).build();
    }

    // ---- the environment

    @ParameterizedTest(name = "POD-4.2 env {0} of a ConfigMap/Secret that is {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
        "configMapKeyRef      | present             | -",
        "configMapKeyRef      | missing             | configmap \"app\" not found",
        "configMapKeyRef      | missing, optional   | -",
        "configMapKeyRef      | key missing         | couldn't find key k in ConfigMap default/app",
        "configMapKeyRef      | key missing, optional | -",
        "secretKeyRef         | present             | -",
        "secretKeyRef         | missing             | secret \"app\" not found",
        "secretKeyRef         | missing, optional   | -",
        "secretKeyRef         | key missing         | couldn't find key k in Secret default/app",
        "secretKeyRef         | key missing, optional | -",
        "envFrom.configMapRef | present             | -",
        "envFrom.configMapRef | missing             | configmap \"app\" not found",
        "envFrom.configMapRef | missing, optional   | -",
        "envFrom.secretRef    | present             | -",
        "envFrom.secretRef    | missing             | secret \"app\" not found",
        "envFrom.secretRef    | missing, optional   | -",
    })
    void environment(String source, String state, String expected) {
        Api api = new Api();
        if (state.startsWith("present")) {
            api.configMap("app", "k", "v").secret("app", "k", "v");
        } else if (state.startsWith("key missing")) {
            api.configMap("app", "other", "v").secret("app", "other", "v");
        }
        Container c = withReference(Container.newBuilder().setName("app"), source, "app", "k",
                state.endsWith("optional")).build();

        assertEquals(expected, ConfigReferences.environmentError("default", c, api.view).orElse("-"));
    }

    @Test
    @DisplayName("POD-4.2 envFrom is read before env, so its missing object is the one reported; a literal value never looks")
    void environmentOrder() {
        Container c = withReference(withReference(Container.newBuilder().setName("app"), "secretKeyRef", "s", "k", false),
                "envFrom.configMapRef", "cm", null, false).build();
        assertEquals("configmap \"cm\" not found", ConfigReferences.environmentError("default", c, new Api().view).orElseThrow());

        Container literal = Container.newBuilder(c).setEnvFrom(null).setEnv(List.of(EnvVar.newBuilder(c.getEnv().get(0))
                .setValue("given").build())).build();
        assertEquals(Optional.empty(), ConfigReferences.environmentError("default", literal, new Api().view));
    }

    @Test
    @DisplayName("POD-4.2 an env key must be in the ConfigMap's data: binaryData does not count")
    void binaryDataIsNotAnEnvKey() {
        Api api = new Api();
        api.objects.put(Keys.of("ConfigMap", "default", "app"), ConfigMap.newBuilder().setMetadata(ObjectMeta.newBuilder()
                .setName("app").setNamespace("default").build()).setBinaryData(Map.of("k", ByteBuffer.allocate(1))).build());
        Container c = withReference(Container.newBuilder().setName("app"), "configMapKeyRef", "app", "k", false).build();

        assertEquals("couldn't find key k in ConfigMap default/app",
                ConfigReferences.environmentError("default", c, api.view).orElseThrow());
    }

    // ---- volumes

    @ParameterizedTest(name = "POD-6.11 a {0} volume whose object is {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
        "configMap           | present               | -",
        "configMap           | missing               | MountVolume.SetUp failed for volume \"v\" : configmap \"app\" not found",
        "configMap           | missing, optional     | -",
        "configMap           | key missing           | MountVolume.SetUp failed for volume \"v\" : configmap references non-existent config key: k",
        "configMap           | key missing, optional | -",
        "secret              | present               | -",
        "secret              | missing               | MountVolume.SetUp failed for volume \"v\" : secret \"app\" not found",
        "secret              | missing, optional     | -",
        "secret              | key missing           | MountVolume.SetUp failed for volume \"v\" : references non-existent secret key: k",
        "secret              | key missing, optional | -",
        "projected.configMap | missing               | MountVolume.SetUp failed for volume \"v\" : configmap \"app\" not found",
        "projected.configMap | key missing           | MountVolume.SetUp failed for volume \"v\" : configmap references non-existent config key: k",
        "projected.configMap | missing, optional     | -",
        "projected.secret    | missing               | MountVolume.SetUp failed for volume \"v\" : secret \"app\" not found",
        "projected.secret    | key missing           | MountVolume.SetUp failed for volume \"v\" : references non-existent secret key: k",
        "projected.secret    | present               | -",
    })
    void volumes(String source, String state, String expected) {
        Api api = new Api();
        if (state.startsWith("present")) {
            api.configMap("app", "k", "v").secret("app", "k", "v");
        } else if (state.startsWith("key missing")) {
            api.configMap("app", "other", "v").secret("app", "other", "v");
        }
        Pod pod = podWithVolumes(List.of("v"), volume(source, "app", "k", state.endsWith("optional")));

        List<String> errors = ConfigReferences.mountErrors(pod, api.view);
        assertEquals(expected, errors.isEmpty() ? "-" : String.join("; ", errors));
    }

    @Test
    @DisplayName("POD-6.11 a configMap volume item may come from binaryData; a volume no container mounts is not set up")
    void binaryDataItemsAndUnusedVolumes() {
        Api api = new Api();
        api.objects.put(Keys.of("ConfigMap", "default", "app"), ConfigMap.newBuilder().setMetadata(ObjectMeta.newBuilder()
                .setName("app").setNamespace("default").build()).setBinaryData(Map.of("k", ByteBuffer.allocate(1))).build());

        assertEquals(List.of(), ConfigReferences.mountErrors(podWithVolumes(List.of("v"),
                volume("configMap", "app", "k", false)), api.view));
        assertEquals(List.of(), ConfigReferences.mountErrors(podWithVolumes(List.of(),
                volume("secret", "missing", null, false)), api.view));
    }

    @Test
    @DisplayName("POD-6.11 a projected volume reports every failing source at once, as Go aggregates errors")
    void projectedAggregates() {
        Volume v = Volume.newBuilder().setName("all").setProjected(ProjectedVolumeSource.newBuilder().setSources(List.of(
                VolumeProjection.newBuilder().setConfigMap(ConfigMapProjection.newBuilder().setName("a").build()).build(),
                VolumeProjection.newBuilder().setSecret(SecretProjection.newBuilder().setName("b").build()).build()))
                .build()).build();

        assertEquals(List.of("MountVolume.SetUp failed for volume \"all\" : [configmap \"a\" not found, secret \"b\" not found]"),
                ConfigReferences.mountErrors(podWithVolumes(List.of("all"), v), new Api().view));
    }

    @Test
    @DisplayName("issue 23: a kube-api-access projected volume: its serviceAccountToken source is always there (the "
            + "kubelet asks TokenRequest), its configMap source waits for kube-root-ca.crt like any ConfigMap")
    void serviceAccountTokenVolume() {
        Volume v = Volume.newBuilder().setName("kube-api-access-x7k2p").setProjected(ProjectedVolumeSource.newBuilder()
                .setSources(List.of(
                        VolumeProjection.newBuilder().setServiceAccountToken(ServiceAccountTokenProjection.newBuilder()
                                .setExpirationSeconds(3607L).setPath("token").build()).build(),
                        VolumeProjection.newBuilder().setConfigMap(ConfigMapProjection.newBuilder()
                                .setName("kube-root-ca.crt").setItems(List.of(KeyToPath.newBuilder().setKey("ca.crt")
                                        .setPath("ca.crt").build())).build()).build())).build()).build();
        Pod pod = podWithVolumes(List.of("kube-api-access-x7k2p"), v);
        Api api = new Api();

        assertEquals(List.of("MountVolume.SetUp failed for volume \"kube-api-access-x7k2p\" : configmap "
                + "\"kube-root-ca.crt\" not found"), ConfigReferences.mountErrors(pod, api.view));
        assertEquals(Set.of("ConfigMap/default/kube-root-ca.crt"), ConfigReferences.referencedKeys(pod));
        api.configMap("kube-root-ca.crt", "ca.crt", "-----BEGIN CERTIFICATE-----");
        assertEquals(List.of(), ConfigReferences.mountErrors(pod, api.view));
    }

    @Test
    @DisplayName("the objects a pod waits on: every ConfigMap and Secret its containers or volumes refer to")
    void referencedKeys() {
        Pod pod = podWithVolumes(List.of("v"), volume("projected.secret", "tls", null, false));
        pod = Pod.newBuilder(pod).setSpec(PodSpec.newBuilder(pod.getSpec())
                .setInitContainers(List.of(withReference(Container.newBuilder().setName("init"), "configMapKeyRef",
                        "settings", "k", true).build())).build()).build();

        assertEquals(Set.of("Secret/default/tls", "ConfigMap/default/settings"), ConfigReferences.referencedKeys(pod));
    }
}
