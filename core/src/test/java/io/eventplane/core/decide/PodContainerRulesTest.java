package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.parse;
import static io.eventplane.core.decide.Decisions.rejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Container;
import io.eventplane.model.Deployment;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Probe;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Probes, lifecycle handlers, readiness gates, HostProcess pods and custom conditions, as kube-apiserver checks them. */
class PodContainerRulesTest {
    static final Pod POD = parse(Pod.class, """
            apiVersion: v1
            kind: Pod
            metadata: {name: web, namespace: default}
            spec:
              containers: [{name: app, image: 'nginx:1.25'}]
            """);
    final Decisions decisions = new Decisions();

    /** The pod with one app container {@code app} carrying {@code fields} (YAML flow mapping entries). */
    static String app(String fields) {
        return "{spec: {containers: [{name: app, image: 'nginx:1.25', " + fields + "}]}}";
    }

    static Stream<Arguments> refused() {
        String c = "spec.containers[0].";
        return Stream.of(
                Arguments.of("POD-7.2 a probe with two handlers",
                        app("livenessProbe: {exec: {command: ['true']}, tcpSocket: {port: 80}}"),
                        List.of(c + "livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type")),
                Arguments.of("POD-7.2 a probe with three handlers: each after the first is refused",
                        app("readinessProbe: {httpGet: {port: 80}, tcpSocket: {port: 80}, grpc: {port: 9090}}"),
                        List.of(c + "readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type",
                                c + "readinessProbe.grpc: Forbidden: may not specify more than 1 handler type")),
                Arguments.of("POD-7.2 a probe with no handler",
                        app("startupProbe: {periodSeconds: 5}"),
                        List.of(c + "startupProbe: Required value: must specify a handler type")),
                Arguments.of("POD-7.2 POD-7.3 an exec probe without a command",
                        app("livenessProbe: {exec: {}}"),
                        List.of(c + "livenessProbe.exec.command: Required value")),
                Arguments.of("POD-7.2 a tcpSocket port out of range and a grpc port of 0",
                        app("livenessProbe: {tcpSocket: {port: 70000}}, readinessProbe: {grpc: {port: 0}}"),
                        List.of(c + "livenessProbe.tcpSocket.port: Invalid value: 70000: must be between 1 and 65535, inclusive",
                                c + "readinessProbe.grpc.port: Invalid value: 0: must be between 1 and 65535, inclusive")),
                Arguments.of("POD-7.5 an httpGet scheme other than HTTP or HTTPS",
                        app("readinessProbe: {httpGet: {port: 80, scheme: FTP}}"),
                        List.of(c + "readinessProbe.httpGet.scheme: Unsupported value: \"FTP\": supported values: "
                                + "\"HTTP\", \"HTTPS\"")),
                Arguments.of("POD-7.5 an httpGet header name that is no HTTP header name, and a port name too long",
                        app("readinessProbe: {httpGet: {port: metrics-endpoint, httpHeaders: [{name: 'X Bad', value: v}]}}"),
                        List.of(c + "readinessProbe.httpGet.port: Invalid value: \"metrics-endpoint\": must be no more "
                                        + "than 15 characters",
                                c + "readinessProbe.httpGet.httpHeaders: Invalid value: \"X Bad\": a valid HTTP header must "
                                        + "consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used "
                                        + "for validation is '[-A-Za-z0-9]+')")),
                Arguments.of("POD-7.8 negative timing fields",
                        app("readinessProbe: {tcpSocket: {port: 80}, initialDelaySeconds: -1, periodSeconds: -5, "
                                + "failureThreshold: -3}"),
                        List.of(c + "readinessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0",
                                c + "readinessProbe.periodSeconds: Invalid value: -5: must be greater than or equal to 0",
                                c + "readinessProbe.failureThreshold: Invalid value: -3: must be greater than or equal to 0")),
                Arguments.of("POD-7.8 a liveness or startup probe needs successThreshold 1",
                        app("livenessProbe: {tcpSocket: {port: 80}, successThreshold: 2}, "
                                + "startupProbe: {tcpSocket: {port: 80}, successThreshold: 3}"),
                        List.of(c + "livenessProbe.successThreshold: Invalid value: 2: must be 1",
                                c + "startupProbe.successThreshold: Invalid value: 3: must be 1")),
                Arguments.of("POD-7.8 a readiness probe takes no terminationGracePeriodSeconds",
                        app("readinessProbe: {tcpSocket: {port: 80}, terminationGracePeriodSeconds: 5}"),
                        List.of(c + "readinessProbe.terminationGracePeriodSeconds: Invalid value: 5: must not be set "
                                + "for readinessProbes")),
                Arguments.of("POD-8.10 POD-7.15 a regular init container may have no lifecycle and no probe",
                        "{spec: {initContainers: [{name: setup, image: busybox, "
                                + "lifecycle: {postStart: {exec: {command: ['true']}}}, "
                                + "livenessProbe: {exec: {command: ['true']}}, readinessProbe: {exec: {command: ['true']}}, "
                                + "startupProbe: {exec: {command: ['true']}}}]}}",
                        List.of("spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers "
                                        + "without restartPolicy=Always",
                                "spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers "
                                        + "without restartPolicy=Always",
                                "spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers "
                                        + "without restartPolicy=Always",
                                "spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers "
                                        + "without restartPolicy=Always")),
                Arguments.of("POD-9.6 a sidecar's probes are validated as an app container's",
                        "{spec: {initContainers: [{name: log, image: busybox, restartPolicy: Always, "
                                + "readinessProbe: {exec: {command: ['true']}, httpGet: {port: 80}}}]}}",
                        List.of("spec.initContainers[0].readinessProbe.httpGet: Forbidden: may not specify more than 1 "
                                + "handler type")),
                Arguments.of("a lifecycle hook takes one handler, and a sleep no longer than the grace period",
                        "{spec: {terminationGracePeriodSeconds: 10, containers: [{name: app, image: 'nginx:1.25', "
                                + "lifecycle: {postStart: {exec: {command: ['true']}, sleep: {seconds: 1}}, "
                                + "preStop: {sleep: {seconds: 30}}}}]}}",
                        List.of(c + "lifecycle.postStart.sleep: Forbidden: may not specify more than 1 handler type",
                                c + "lifecycle.preStop.sleep: Invalid value: 30: must be non-negative and less than "
                                        + "terminationGracePeriodSeconds (10)")),
                Arguments.of("POD-16.5 whenUnsatisfiable is DoNotSchedule or ScheduleAnyway",
                        "{spec: {topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: Maybe}]}}",
                        List.of("spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: \"Maybe\": "
                                + "supported values: \"DoNotSchedule\", \"ScheduleAnyway\"")),
                Arguments.of("POD-1.12 a HostProcess pod: every container HostProcess, hostNetwork, no contradiction",
                        "{spec: {os: {name: windows}, securityContext: {windowsOptions: {hostProcess: true}}, "
                                + "containers: [{name: app, image: 'nginx:1.25'}, {name: other, image: 'nginx:1.25', "
                                + "securityContext: {windowsOptions: {hostProcess: false}}}]}}",
                        List.of("spec.containers[1].securityContext.windowsOptions.hostProcess: Invalid value: false: "
                                        + "pod hostProcess value must be identical if both are specified, was true",
                                "spec: Invalid value: \"\": If pod contains any hostProcess containers then all "
                                        + "containers must be HostProcess containers",
                                "spec.hostNetwork: Invalid value: false: hostNetwork must be true if pod contains any "
                                        + "hostProcess containers")));
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
                Arguments.of("POD-7.2 an exec probe alone", app("livenessProbe: {exec: {command: [cat, /tmp/healthy]}}")),
                Arguments.of("POD-7.2 a grpc probe alone", app("livenessProbe: {grpc: {port: 2379}}")),
                Arguments.of("POD-7.2 POD-7.5 an httpGet probe with host, scheme HTTPS and headers",
                        app("readinessProbe: {httpGet: {path: /healthz, port: 8443, host: 10.0.0.1, scheme: HTTPS, "
                                + "httpHeaders: [{name: Custom-Header, value: Awesome}]}}")),
                Arguments.of("POD-7.2 a tcpSocket probe on a named port", app("ports: [{name: liveness-port, "
                        + "containerPort: 8080}], livenessProbe: {tcpSocket: {port: liveness-port}}")),
                Arguments.of("POD-9.6 POD-7.15 a sidecar with lifecycle, liveness, readiness and startup probes",
                        "{spec: {initContainers: [{name: logshipper, image: 'alpine:latest', restartPolicy: Always, "
                                + "lifecycle: {preStop: {exec: {command: ['true']}}}, "
                                + "livenessProbe: {exec: {command: ['true']}}, readinessProbe: {exec: {command: ['true']}}, "
                                + "startupProbe: {exec: {command: ['true']}}}]}}"),
                Arguments.of("POD-1.12 a HostProcess pod with hostNetwork whose containers inherit hostProcess",
                        "{spec: {os: {name: windows}, hostNetwork: true, securityContext: {windowsOptions: "
                                + "{hostProcess: true}}}}"),
                Arguments.of("POD-1.12 a privileged linux container", app("securityContext: {privileged: true}")),
                Arguments.of("POD-16.5 whenUnsatisfiable DoNotSchedule", "{spec: {topologySpreadConstraints: "
                        + "[{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]}}"),
                Arguments.of("POD-16.5 whenUnsatisfiable ScheduleAnyway", "{spec: {topologySpreadConstraints: "
                        + "[{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}]}}"),
                Arguments.of("POD-6.4 a readiness gate named by a label key",
                        "{spec: {readinessGates: [{conditionType: www.example.com/feature-1}]}}"),
                Arguments.of("a zero sleep before stopping (PodLifecycleSleepActionAllowZero, on in v1.33)",
                        app("lifecycle: {preStop: {sleep: {seconds: 0}}}")));
    }

    @ParameterizedTest(name = "{0} is accepted")
    @MethodSource("accepted")
    void acceptedPod(String name, String patch) {
        Decision d = decisions.create(merge(POD, patch));
        assertTrue(d.outcome().getAccepted(), d.outcome().getMessage());
    }

    @Test
    @DisplayName("POD-1.14 a pod stays on its node: an update may not move it to another node")
    void staysOnItsNode() {
        ObjectChanged created = decisions.createdChange(merge(POD, "{spec: {nodeName: node-1}}"));
        Pod stored = (Pod) created.getObject();
        Pod moved = Pod.newBuilder(stored).setSpec(io.eventplane.model.PodSpec.newBuilder(stored.getSpec())
                .setNodeName("node-2").build()).build();
        List<String> messages = rejected(decisions.update(created, moved));
        assertEquals(1, messages.size());
        assertTrue(messages.get(0).startsWith("spec: Forbidden: pod updates may not change fields other than"),
                messages.get(0));
    }

    @Test
    @DisplayName("POD-6.4 a readiness gate whose condition type is not a label key is refused")
    void badGate() {
        List<String> messages = rejected(decisions.create(merge(POD, "{spec: {readinessGates: [{conditionType: 'bad gate!'}]}}")));
        assertEquals(1, messages.size());
        assertTrue(messages.get(0).startsWith("spec.readinessGates[0].conditionType: Invalid value: \"bad gate!\": "
                + "name part must consist of alphanumeric characters"), messages.get(0));
    }

    @Test
    @DisplayName("POD-7.8 POD-7.5 probe defaults: timeoutSeconds 1, periodSeconds 10, successThreshold 1, failureThreshold 3; "
            + "httpGet path / and scheme HTTP; grpc service empty; given values stay")
    void probeDefaults() {
        Pod stored = decisions.created(merge(POD, app("readinessProbe: {httpGet: {port: 80}}, "
                + "livenessProbe: {tcpSocket: {port: 80}, initialDelaySeconds: 15, periodSeconds: 5, timeoutSeconds: 2}, "
                + "startupProbe: {grpc: {port: 9090}, failureThreshold: 30}")));
        Container c = stored.getSpec().getContainers().get(0);
        Probe readiness = c.getReadinessProbe();
        assertEquals(List.of(1, 10, 1, 3), timing(readiness));
        assertNull(readiness.getInitialDelaySeconds(), "initialDelaySeconds stays unset (0)");
        assertEquals("/", readiness.getHttpGet().getPath());
        assertEquals("HTTP", readiness.getHttpGet().getScheme());
        assertEquals(List.of(2, 5, 1, 3), timing(c.getLivenessProbe()));
        assertEquals(15, c.getLivenessProbe().getInitialDelaySeconds());
        assertEquals(List.of(1, 10, 1, 30), timing(c.getStartupProbe()));
        assertEquals("", c.getStartupProbe().getGrpc().getService());
    }

    @Test
    @DisplayName("POD-7.8 a Deployment's pod template gets the same probe defaults, and its probes the same checks")
    void templateProbes() {
        String yaml = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: default}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      containers: [{name: web, image: 'nginx:1.25', readinessProbe: {httpGet: {port: 80}}}]
                """;
        Deployment stored = decisions.created(parse(Deployment.class, yaml));
        Probe p = stored.getSpec().getTemplate().getSpec().getContainers().get(0).getReadinessProbe();
        assertEquals(List.of(1, 10, 1, 3), timing(p));
        assertEquals("/", p.getHttpGet().getPath());
        assertEquals(List.of("spec.template.spec.containers[0].readinessProbe: Required value: must specify a handler type"),
                rejected(decisions.create(parse(Deployment.class, yaml.replace("{httpGet: {port: 80}}", "{periodSeconds: 3}")))));
    }

    private static List<Integer> timing(Probe p) {
        return List.of(p.getTimeoutSeconds(), p.getPeriodSeconds(), p.getSuccessThreshold(), p.getFailureThreshold());
    }

    @Test
    @DisplayName("POD-6.5 POD-6.4 POD-6.1 a custom condition written through the status subresource is stored with its "
            + "fields; a type that is not a label key is refused")
    void customConditions() {
        ObjectChanged created = decisions.createdChange(POD);
        Pod stored = (Pod) created.getObject();
        PodCondition custom = PodCondition.newBuilder().setType("www.example.com/feature-1").setStatus("True")
                .setReason("FeatureOn").setMessage("the feature is on")
                .setLastProbeTime(Decisions.T0).setLastTransitionTime(Decisions.T0).build();
        Decision ok = decisions.updateStatus(created, withConditions(stored, custom));
        assertTrue(ok.outcome().getAccepted(), ok.outcome().getMessage());
        Pod after = (Pod) ok.change().orElseThrow().getObject();
        PodCondition kept = after.getStatus().getConditions().stream()
                .filter(x -> x.getType().equals("www.example.com/feature-1")).findFirst().orElseThrow();
        assertEquals(custom, kept, "type, status, reason, message, lastProbeTime and lastTransitionTime are kept");

        PodCondition bad = PodCondition.newBuilder(custom).setType("feature one!").build();
        Decision refused = decisions.updateStatus(created, withConditions(stored, bad));
        List<String> messages = rejected(refused);
        assertEquals(422, refused.outcome().getCode());
        assertTrue(messages.get(0).startsWith("metadata.conditions[0].Type: Invalid value: \"feature one!\": name part "
                + "must consist of alphanumeric characters"), messages.get(0));
        Decision system = decisions.updateStatus(created, withConditions(stored,
                PodCondition.newBuilder(custom).setType("Ready").build()));
        assertTrue(system.outcome().getAccepted(), "the kubelet's own types are taken as they are");
    }

    private static Pod withConditions(Pod pod, PodCondition... conditions) {
        PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        List<PodCondition> all = new ArrayList<>(List.of(conditions));
        return Pod.newBuilder(pod).setStatus(PodStatus.newBuilder(status).setConditions(all).build()).build();
    }
}
