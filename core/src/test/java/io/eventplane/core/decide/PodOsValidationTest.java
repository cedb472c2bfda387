package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.parse;
import static io.eventplane.core.decide.Decisions.rejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Deployment;
import io.eventplane.model.Pod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** spec.os.name, hostUsers and lifecycle.stopSignal, refused with kube-apiserver's 422 causes (POD-19, POD-20, POD-12.7). */
class PodOsValidationTest {
    static final Pod POD = parse(Pod.class, """
            apiVersion: v1
            kind: Pod
            metadata: {name: web, namespace: default}
            spec:
              containers: [{name: app, image: 'nginx:1.25'}]
            """);
    final Decisions decisions = new Decisions();

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("W-U8 POD-19.1 os.name solaris", "{spec: {os: {name: solaris}}}",
                        List.of("spec.os: Unsupported value: \"solaris\": supported values: \"linux\", \"windows\"")),
                Arguments.of("POD-19.1 an empty os.name", "{spec: {os: {name: ''}}}",
                        List.of("spec.os.name: Required value: cannot be empty")),
                Arguments.of("POD-19.1 a linux pod with windowsOptions, pod and container",
                        "{spec: {os: {name: linux}, securityContext: {windowsOptions: {runAsUserName: u}}, "
                                + "containers: [{name: app, image: 'nginx:1.25', securityContext: {windowsOptions: {hostProcess: false}}}]}}",
                        List.of("spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod",
                                "spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod")),
                Arguments.of("POD-19.1 POD-1.11 a windows pod with linux-only pod fields",
                        "{spec: {os: {name: windows}, hostPID: true, hostUsers: true, "
                                + "securityContext: {runAsUser: 1000, fsGroup: 2000, seLinuxOptions: {level: 's0'}}}}",
                        List.of("spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod",
                                "spec.hostUsers: Forbidden: cannot be set for a windows pod",
                                "spec.hostPID: Forbidden: cannot be set for a windows pod",
                                "spec.securityContext.fsGroup: Forbidden: cannot be set for a windows pod",
                                "spec.securityContext.runAsUser: Forbidden: cannot be set for a windows pod")),
                Arguments.of("POD-19.1 a windows pod with linux-only container fields",
                        "{spec: {os: {name: windows}, containers: [{name: app, image: 'nginx:1.25', "
                                + "securityContext: {privileged: false, capabilities: {drop: [ALL]}, runAsUser: 0}}]}}",
                        List.of("spec.containers[0].securityContext.capabilities: Forbidden: cannot be set for a windows pod",
                                "spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod",
                                "spec.containers[0].securityContext.runAsUser: Forbidden: cannot be set for a windows pod")),
                Arguments.of("W-U7 POD-20.7 hostUsers false with hostNetwork, hostPID and hostIPC",
                        "{spec: {hostUsers: false, hostNetwork: true, hostPID: true, hostIPC: true}}",
                        List.of("spec.hostNetwork: Forbidden: when `pod.Spec.HostUsers` is false",
                                "spec.HostPID: Forbidden: when `pod.Spec.HostUsers` is false",
                                "spec.HostIPC: Forbidden: when `pod.Spec.HostUsers` is false")),
                Arguments.of("POD-12.7 POD-19.4 a stopSignal without os.name",
                        "{spec: {containers: [{name: app, image: 'nginx:1.25', lifecycle: {stopSignal: SIGUSR1}}]}}",
                        List.of("spec.containers[0].lifecycle.stopSignal: Forbidden: may not be set for containers with "
                                + "empty `spec.os.name`")),
                Arguments.of("W-D7 POD-12.7 POD-19.4 SIGUSR1 on a windows pod",
                        "{spec: {os: {name: windows}, containers: [{name: app, image: 'nginx:1.25', lifecycle: {stopSignal: SIGUSR1}}]}}",
                        List.of("spec.containers[0].lifecycle.stopSignal: Unsupported value: \"SIGUSR1\": supported values: "
                                + "\"SIGKILL\", \"SIGTERM\"")));
    }

    @ParameterizedTest(name = "{0} is refused")
    @MethodSource("refused")
    void refusedPod(String name, String patch, List<String> messages) {
        Decision d = decisions.create(merge(POD, patch));
        assertEquals(422, d.outcome().getCode());
        assertEquals(messages, rejected(d));
    }

    static Stream<Arguments> accepted() {
        return Stream.of(
                Arguments.of("POD-19.1 os.name linux", "{spec: {os: {name: linux}}}"),
                Arguments.of("POD-19.1 os.name windows with windowsOptions", "{spec: {os: {name: windows}, "
                        + "securityContext: {windowsOptions: {runAsUserName: 'ContainerUser'}}}}"),
                Arguments.of("POD-20.1 hostUsers false alone", "{spec: {hostUsers: false}}"),
                Arguments.of("POD-20.7 hostUsers true with hostNetwork", "{spec: {hostUsers: true, hostNetwork: true}}"),
                Arguments.of("W-D7 POD-12.7 SIGUSR1 on a linux pod", "{spec: {os: {name: linux}, containers: [{name: app, "
                        + "image: 'nginx:1.25', lifecycle: {stopSignal: SIGUSR1}}]}}"),
                Arguments.of("POD-12.7 SIGRTMIN+3 on a linux pod", "{spec: {os: {name: linux}, containers: [{name: app, "
                        + "image: 'nginx:1.25', lifecycle: {stopSignal: SIGRTMIN+3}}]}}"),
                Arguments.of("POD-12.7 POD-19.4 SIGKILL on a windows pod", "{spec: {os: {name: windows}, containers: [{name: app, "
                        + "image: 'nginx:1.25', lifecycle: {stopSignal: SIGKILL}}]}}"));
    }

    @ParameterizedTest(name = "{0} is accepted")
    @MethodSource("accepted")
    void acceptedPod(String name, String patch) {
        Decision d = decisions.create(merge(POD, patch));
        assertTrue(d.outcome().getAccepted(), d.outcome().getMessage());
    }

    @Test
    @DisplayName("POD-12.7 a signal linux does not have is refused with the sorted list of linux signals")
    void unknownLinuxSignal() {
        Decision d = decisions.create(merge(POD, "{spec: {os: {name: linux}, containers: [{name: app, image: 'nginx:1.25', "
                + "lifecycle: {stopSignal: SIGWHATEVER}}]}}"));
        String message = rejected(d).get(0);
        assertTrue(message.startsWith("spec.containers[0].lifecycle.stopSignal: Unsupported value: \"SIGWHATEVER\": "
                + "supported values: \"SIGABRT\", \"SIGALRM\", \"SIGBUS\""), message);
        assertTrue(message.endsWith("\"SIGXCPU\", \"SIGXFSZ\""), message);
        assertEquals("FieldValueNotSupported", d.outcome().getCauses().get(0).getReason());
    }

    @Test
    @DisplayName("POD-19.1 POD-20.7 a Deployment's pod template is held to the same rules, under spec.template")
    void templates() {
        Deployment nginx = parse(Deployment.class, """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: nginx, namespace: default}
                spec:
                  selector: {matchLabels: {app: nginx}}
                  template:
                    metadata: {labels: {app: nginx}}
                    spec:
                      os: {name: darwin}
                      hostUsers: false
                      hostNetwork: true
                      containers: [{name: nginx, image: 'nginx:1.25'}]
                """);
        assertEquals(List.of("spec.template.spec.hostNetwork: Forbidden: when `pod.Spec.HostUsers` is false",
                "spec.template.spec.os: Unsupported value: \"darwin\": supported values: \"linux\", \"windows\""),
                rejected(decisions.create(nginx)));
    }
}
