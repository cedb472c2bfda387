package io.eventplane.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.log.StatusCause;
import io.eventplane.model.Pod;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("The ephemeralcontainers subresource: additions only, validated as Kubernetes validates them")
class EphemeralContainerRulesTest {
    private static final PodRules RULES = new PodRules();
    private static final String BASE = """
            apiVersion: v1
            kind: Pod
            metadata: {name: web, namespace: default}
            spec:
              nodeName: node-1
              containers: [{name: app, image: nginx}]
              initContainers: [{name: setup, image: busybox}]
            """;
    private static final String WITH_DEBUGGER = BASE + """
              ephemeralContainers: [{name: debugger, image: busybox, targetContainerName: app}]
            """;

    private static Pod pod(String yaml) {
        return KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8), Pod.class, FieldValidation.STRICT,
                null);
    }

    private static List<String> problems(String before, String written) {
        Pod stored = pod(before);
        Pod next = RULES.ephemeralContainers(stored, pod(written));
        return RULES.validateEphemeralContainers(stored, next).stream().map(StatusCause::getMessage).toList();
    }

    static Stream<Arguments> writes() {
        return Stream.of(
                Arguments.of("POD-11.2 adding one is accepted", BASE, WITH_DEBUGGER, List.of()),
                Arguments.of("POD-11.2 adding a second keeps the first", WITH_DEBUGGER, WITH_DEBUGGER.replace("]\n",
                        ", {name: second, image: alpine}]\n"), List.of()),
                Arguments.of("POD-11.3 an existing one may not be changed", WITH_DEBUGGER,
                        WITH_DEBUGGER.replace("image: busybox, target", "image: alpine, target"),
                        List.of("spec.ephemeralContainers: Forbidden: existing ephemeral containers \"debugger\" may "
                                + "not be changed")),
                Arguments.of("POD-11.3 an existing one may not be removed", WITH_DEBUGGER, BASE,
                        List.of("spec.ephemeralContainers: Forbidden: existing ephemeral containers \"debugger\" may "
                                + "not be removed")),
                Arguments.of("POD-11.5 ports are disallowed", BASE, BASE + """
                          ephemeralContainers: [{name: d, image: busybox, ports: [{containerPort: 80}]}]
                        """, List.of("spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral "
                        + "Container")),
                Arguments.of("POD-11.5 resources and probes are disallowed", BASE, BASE + """
                          ephemeralContainers:
                          - name: d
                            image: busybox
                            resources: {limits: {cpu: "1"}}
                            readinessProbe: {exec: {command: ["true"]}}
                            livenessProbe: {exec: {command: ["true"]}}
                        """, List.of(
                        "spec.ephemeralContainers[0].livenessProbe: Forbidden: cannot be set for an Ephemeral Container",
                        "spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container",
                        "spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container")),
                Arguments.of("POD-1.7 a name used by an app or init container is a duplicate", BASE, BASE + """
                          ephemeralContainers: [{name: setup, image: busybox}]
                        """, List.of("spec.ephemeralContainers[0].name: Duplicate value: \"setup\"")),
                Arguments.of("POD-11.7 runAsNonRoot and runAsUser may be set on one", BASE, BASE + """
                          ephemeralContainers: [{name: d, image: busybox, securityContext: {runAsNonRoot: true, runAsUser: 1000}}]
                        """, List.of()),
                Arguments.of("an image is required", BASE, BASE + """
                          ephemeralContainers: [{name: d}]
                        """, List.of("spec.ephemeralContainers[0].image: Required value")),
                Arguments.of("the target container must exist", BASE, BASE + """
                          ephemeralContainers: [{name: d, image: busybox, targetContainerName: nope}]
                        """, List.of("spec.ephemeralContainers[0].targetContainerName: Not found: \"nope\"")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writes")
    @DisplayName("writes through the subresource")
    void write(String why, String before, String written, List<String> expected) {
        assertEquals(expected, problems(before, written));
    }

    @Test
    @DisplayName("POD-11.2 W-U6 the subresource takes only spec.ephemeralContainers; a plain pod update may not add one")
    void onlyThroughTheSubresource() {
        Pod stored = pod(BASE);
        Pod written = pod(WITH_DEBUGGER.replace("image: nginx", "image: nginx:2"));
        Pod next = RULES.ephemeralContainers(stored, written);
        assertEquals("nginx", next.getSpec().getContainers().get(0).getImage());
        assertEquals("debugger", next.getSpec().getEphemeralContainers().get(0).getName());
        List<String> update = RULES.validateUpdate(stored, pod(WITH_DEBUGGER)).stream()
                .map(StatusCause::getMessage).toList();
        assertEquals(1, update.size(), update.toString());
        assertEquals(true, update.get(0).startsWith("spec: Forbidden: pod updates may not change fields other than"),
                update.toString());
    }
}
