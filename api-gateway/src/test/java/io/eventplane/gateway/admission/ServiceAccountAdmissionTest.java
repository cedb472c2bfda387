package io.eventplane.gateway.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.client.admission.AdmissionRequest;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Container;
import io.eventplane.model.Namespace;
import io.eventplane.model.Pod;
import io.eventplane.model.ServiceAccount;
import io.eventplane.model.Volume;
import io.eventplane.model.VolumeMount;
import io.eventplane.model.VolumeProjection;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The ServiceAccount plugin's projected token volume in the API's admission, where the API issues tokens. */
class ServiceAccountAdmissionTest {
    private static final String PATH = "/var/run/secrets/kubernetes.io/serviceaccount";

    private static ServiceAccount account(String name, String extra) {
        return AdmissionTest.parse(ServiceAccount.class, "{apiVersion: v1, kind: ServiceAccount, metadata: {name: "
                + name + ", namespace: shop}" + (extra == null ? "" : ", " + extra) + "}");
    }

    private static Pod pod(String spec) {
        return AdmissionTest.parse(Pod.class, "{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: shop}, "
                + "spec: {" + spec + "}}");
    }

    private static Pod admit(boolean mountTokens, Pod pod) {
        ObjectStore view = ObjectStore.of(List.of(AdmissionTest.parse(Namespace.class, "{apiVersion: v1, kind: "
                + "Namespace, metadata: {name: shop}, status: {phase: Active}}"), account("default", null),
                account("robot", "automountServiceAccountToken: false")));
        Admission admission = new Admission(view, Clock.systemUTC(), q -> true, Duration.ZERO, mountTokens);
        return (Pod) admission.create(new AdmissionRequest(AdmissionRequest.Operation.CREATE, Kinds.POD, "shop", "p",
                null, false), pod, o -> { });
    }

    private static List<VolumeMount> mountsAt(Container c) {
        return c.getVolumeMounts() == null ? List.of()
                : c.getVolumeMounts().stream().filter(m -> PATH.equals(m.getMountPath())).toList();
    }

    @Test
    @DisplayName("issue 23: a new pod gets the kube-api-access-<5> projected volume (token 3607s, kube-root-ca.crt's "
            + "ca.crt, the namespace) mounted read-only in every init and app container, not in ephemeral ones")
    void mountsTheTokenVolume() {
        Pod admitted = admit(true, pod("initContainers: [{name: setup, image: busybox}], "
                + "containers: [{name: web, image: nginx, volumeMounts: [{name: data, mountPath: /data}]}, "
                + "{name: side, image: busybox}], ephemeralContainers: [{name: debug, image: busybox}], "
                + "volumes: [{name: data, emptyDir: {}}]"));
        List<Volume> volumes = admitted.getSpec().getVolumes();
        assertEquals(2, volumes.size());
        Volume token = volumes.get(1);
        assertTrue(token.getName().matches("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}"), token.getName());
        assertEquals(0644, token.getProjected().getDefaultMode());
        List<VolumeProjection> sources = token.getProjected().getSources();
        assertEquals(3, sources.size());
        assertEquals(3607L, sources.get(0).getServiceAccountToken().getExpirationSeconds());
        assertEquals("token", sources.get(0).getServiceAccountToken().getPath());
        assertEquals("kube-root-ca.crt", sources.get(1).getConfigMap().getName());
        assertEquals("ca.crt", sources.get(1).getConfigMap().getItems().get(0).getKey());
        assertEquals("ca.crt", sources.get(1).getConfigMap().getItems().get(0).getPath());
        assertEquals("namespace", sources.get(2).getDownwardAPI().getItems().get(0).getPath());
        assertEquals("metadata.namespace", sources.get(2).getDownwardAPI().getItems().get(0).getFieldRef()
                .getFieldPath());
        List<Container> all = new java.util.ArrayList<>(admitted.getSpec().getInitContainers());
        all.addAll(admitted.getSpec().getContainers());
        for (Container c : all) {
            List<VolumeMount> mounts = mountsAt(c);
            assertEquals(1, mounts.size(), c.getName());
            assertEquals(token.getName(), mounts.get(0).getName());
            assertEquals(true, mounts.get(0).getReadOnly());
        }
        assertEquals("/data", admitted.getSpec().getContainers().get(0).getVolumeMounts().get(0).getMountPath(),
                "the container's own mounts stay first");
        assertNull(admitted.getSpec().getEphemeralContainers().get(0).getVolumeMounts());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "the pod opts out                                  | automountServiceAccountToken: false, ",
            "its ServiceAccount opts out                       | serviceAccountName: robot, ",
            "the API issues no tokens (plain HTTP, no key)     | ",
    })
    @DisplayName("issue 23: no token volume when the pod or its ServiceAccount says automountServiceAccountToken: false, "
            + "or where the gateway has no signing key")
    void optedOut(String why, String spec) {
        boolean mountTokens = !why.contains("no tokens");
        Pod admitted = admit(mountTokens, pod((spec == null ? "" : spec) + "containers: [{name: web, image: nginx}]"));
        assertNull(admitted.getSpec().getVolumes(), why);
        assertNull(admitted.getSpec().getContainers().get(0).getVolumeMounts(), why);
    }

    @Test
    @DisplayName("issue 23: the pod's own choice wins over its ServiceAccount's")
    void podChoiceWins() {
        Pod admitted = admit(true, pod("serviceAccountName: robot, automountServiceAccountToken: true, "
                + "containers: [{name: web, image: nginx}]"));
        assertEquals(1, admitted.getSpec().getVolumes().size());
    }

    @Test
    @DisplayName("issue 23: a container that already mounts something at the token path keeps it; the others get the "
            + "volume; when none needs it, no volume is added")
    void existingMountKept() {
        Pod admitted = admit(true, pod("containers: [{name: web, image: nginx, volumeMounts: [{name: mine, "
                + "mountPath: " + PATH + "}]}, {name: side, image: busybox}], volumes: [{name: mine, secret: "
                + "{secretName: my-token}}]"));
        Container web = admitted.getSpec().getContainers().get(0);
        assertEquals(List.of("mine"), mountsAt(web).stream().map(VolumeMount::getName).toList());
        Container side = admitted.getSpec().getContainers().get(1);
        assertTrue(mountsAt(side).get(0).getName().startsWith("kube-api-access-"));
        assertEquals(2, admitted.getSpec().getVolumes().size());

        Pod alone = admit(true, pod("containers: [{name: web, image: nginx, volumeMounts: [{name: mine, "
                + "mountPath: " + PATH + "}]}], volumes: [{name: mine, secret: {secretName: my-token}}]"));
        assertEquals(List.of("mine"), alone.getSpec().getVolumes().stream().map(Volume::getName).toList());
    }

    @Test
    @DisplayName("issue 23: a pod that already has a kube-api-access-* volume gets mounts of it, not a second one")
    void existingVolumeReused() {
        Pod admitted = admit(true, pod("containers: [{name: web, image: nginx}], volumes: [{name: kube-api-access-"
                + "abcde, projected: {sources: [{serviceAccountToken: {path: token}}]}}]"));
        assertEquals(1, admitted.getSpec().getVolumes().size());
        assertEquals("kube-api-access-abcde", mountsAt(admitted.getSpec().getContainers().get(0)).get(0).getName());
    }
}
