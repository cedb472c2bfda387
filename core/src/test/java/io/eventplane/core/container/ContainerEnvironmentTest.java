package io.eventplane.core.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Pod;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("A simulated container's environment: variables, files, hostname and processes, as the kubelet resolves them")
class ContainerEnvironmentTest {
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: web
              namespace: shop
              uid: 1f2e3d4c-0000-0000-0000-000000000001
              labels: {app: myapp, tier: web}
              annotations: {myannotation: hello, note: 'say "hi"'}
            spec:
              nodeName: node-1
              serviceAccountName: builder
              containers:
              - name: app
                image: nginx
                command: [nginx, -g, "daemon off;"]
                resources:
                  requests: {cpu: 250m, memory: 64Mi}
                  limits: {memory: 128Mi}
                envFrom:
                - configMapRef: {name: settings}
                - prefix: DB_
                  secretRef: {name: db}
                env:
                - {name: GREETING, value: "hello $(USER_NAME) and $$(USER_NAME)"}
                - {name: USER_NAME, value: ann}
                - {name: LATE, value: "$(USER_NAME)"}
                - {name: MODE, valueFrom: {configMapKeyRef: {name: settings, key: mode}}}
                - {name: PASSWORD, valueFrom: {secretKeyRef: {name: db, key: password}}}
                - {name: MISSING, valueFrom: {configMapKeyRef: {name: absent, key: x, optional: true}}}
                - {name: POD_NAME, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
                - {name: MY_ANNOTATION, valueFrom: {fieldRef: {fieldPath: "metadata.annotations['myannotation']"}}}
                - {name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
                - {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}}
                - {name: POD_IPS, valueFrom: {fieldRef: {fieldPath: status.podIPs}}}
                - {name: CPU_LIMIT, valueFrom: {resourceFieldRef: {resource: limits.cpu}}}
                - {name: CPU_REQUEST_MILLIS, valueFrom: {resourceFieldRef: {resource: requests.cpu, divisor: 1m}}}
                - {name: MEMORY_LIMIT_MI, valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}}
                - {name: SIDECAR_MEMORY, valueFrom: {resourceFieldRef: {containerName: side, resource: limits.memory}}}
                volumeMounts:
                - {name: config, mountPath: /etc/config}
                - {name: one-key, mountPath: /etc/mode.conf, subPath: mode}
                - {name: creds, mountPath: /etc/creds, readOnly: true}
                - {name: podinfo, mountPath: /etc/podinfo}
                - {name: all-in-one, mountPath: /projected}
                - {name: scratch, mountPath: /data}
              - name: side
                image: busybox
                resources:
                  limits: {memory: 32Mi}
              volumes:
              - {name: config, configMap: {name: settings}}
              - {name: one-key, configMap: {name: settings}}
              - name: creds
                secret:
                  secretName: db
                  items: [{key: password, path: pw/secret.txt}]
              - name: podinfo
                downwardAPI:
                  items:
                  - {path: labels, fieldRef: {fieldPath: metadata.labels}}
                  - {path: annotations, fieldRef: {fieldPath: metadata.annotations}}
                  - {path: name, fieldRef: {fieldPath: metadata.name}}
                  - {path: mem, resourceFieldRef: {containerName: app, resource: limits.memory, divisor: 1Mi}}
              - name: all-in-one
                projected:
                  sources:
                  - configMap: {name: settings, items: [{key: mode, path: mode}]}
                  - downwardAPI: {items: [{path: ns, fieldRef: {fieldPath: metadata.namespace}}]}
                  - serviceAccountToken: {path: token, expirationSeconds: 3600}
              - {name: scratch, emptyDir: {}}
            status:
              hostIP: 10.0.0.1
              podIP: 10.244.1.7
              podIPs: [{ip: 10.244.1.7}, {ip: "fd00::7"}]
            """;

    private static final Fixtures.Sources SOURCES = new Fixtures.Sources()
            .with("""
                    apiVersion: v1
                    kind: ConfigMap
                    metadata: {name: settings, namespace: shop}
                    data: {mode: fast, LOG_LEVEL: debug}
                    """)
            .with("""
                    apiVersion: v1
                    kind: Secret
                    metadata: {name: db, namespace: shop}
                    data: {password: czNjcjN0}
                    """)
            .with("""
                    apiVersion: v1
                    kind: Service
                    metadata: {name: redis-primary, namespace: shop}
                    spec:
                      clusterIP: 10.96.0.20
                      ports: [{name: redis, port: 6379, protocol: TCP}]
                    """)
            .with("""
                    apiVersion: v1
                    kind: Service
                    metadata: {name: headless, namespace: shop}
                    spec: {clusterIP: None, ports: [{port: 80}]}
                    """)
            .with("""
                    apiVersion: v1
                    kind: Service
                    metadata: {name: kubernetes, namespace: default}
                    spec: {clusterIP: 10.96.0.1, ports: [{name: https, port: 443, protocol: TCP}]}
                    """)
            .with("""
                    apiVersion: v1
                    kind: Node
                    metadata: {name: node-1}
                    status: {allocatable: {cpu: "4", memory: 8Gi}}
                    """);

    private static ContainerEnvironment app() {
        return ContainerEnvironment.resolve(Fixtures.parse(POD, Pod.class), "app", SOURCES).orElseThrow();
    }

    static Stream<Arguments> variables() {
        return Stream.of(
                Arguments.of("envFrom a ConfigMap: every key", "LOG_LEVEL", "debug"),
                Arguments.of("envFrom a Secret with a prefix", "DB_password", "s3cr3t"),
                Arguments.of("$(VAR) of a variable defined before; $$ escapes", "GREETING",
                        "hello $(USER_NAME) and $(USER_NAME)"),
                Arguments.of("$(VAR) of a variable defined earlier in env", "LATE", "ann"),
                Arguments.of("configMapKeyRef", "MODE", "fast"),
                Arguments.of("secretKeyRef", "PASSWORD", "s3cr3t"),
                Arguments.of("POD-15.1 POD-15.3 fieldRef metadata.name", "POD_NAME", "web"),
                Arguments.of("POD-15.3 W-A1 fieldRef of one annotation", "MY_ANNOTATION", "hello"),
                Arguments.of("POD-15.4 fieldRef spec.nodeName (env only)", "NODE", "node-1"),
                Arguments.of("POD-15.4 POD-1.9 fieldRef status.podIP", "POD_IP", "10.244.1.7"),
                Arguments.of("POD-15.4 fieldRef status.podIPs, comma-joined", "POD_IPS", "10.244.1.7,fd00::7"),
                Arguments.of("POD-15.7 W-A3 limits.cpu without a limit: the node's allocatable", "CPU_LIMIT", "4"),
                Arguments.of("POD-15.2 POD-15.6 requests.cpu with divisor 1m", "CPU_REQUEST_MILLIS", "250"),
                Arguments.of("POD-15.6 limits.memory with divisor 1Mi", "MEMORY_LIMIT_MI", "128"),
                Arguments.of("POD-15.6 resourceFieldRef of another container", "SIDECAR_MEMORY", "33554432"),
                Arguments.of("service links: host of a Service in the namespace", "REDIS_PRIMARY_SERVICE_HOST",
                        "10.96.0.20"),
                Arguments.of("service links: named port", "REDIS_PRIMARY_SERVICE_PORT_REDIS", "6379"),
                Arguments.of("service links: docker link URL", "REDIS_PRIMARY_PORT", "tcp://10.96.0.20:6379"),
                Arguments.of("service links: per port address", "REDIS_PRIMARY_PORT_6379_TCP_ADDR", "10.96.0.20"),
                Arguments.of("the kubernetes Service is always linked", "KUBERNETES_SERVICE_HOST", "10.96.0.1"),
                Arguments.of("HOSTNAME is the pod's hostname", "HOSTNAME", "web"),
                Arguments.of("PATH from the image", "PATH", EnvironmentVariables.PATH));
    }

    @ParameterizedTest(name = "{0}: {1}={2}")
    @MethodSource("variables")
    @DisplayName("environment variables")
    void variable(String why, String name, String value) {
        assertEquals(value, app().env().get(name));
    }

    @Test
    @DisplayName("an optional missing key is no variable; a headless Service makes no link variables")
    void absent() {
        Map<String, String> env = app().env();
        assertFalse(env.containsKey("MISSING"));
        assertFalse(env.containsKey("HEADLESS_SERVICE_HOST"));
    }

    @Test
    @DisplayName("enableServiceLinks: false keeps only the kubernetes Service's variables")
    void noServiceLinks() {
        Pod pod = Fixtures.parse(POD.replace("  nodeName: node-1", "  nodeName: node-1\n  enableServiceLinks: false"),
                Pod.class);
        Map<String, String> env = ContainerEnvironment.resolve(pod, "app", SOURCES).orElseThrow().env();
        assertFalse(env.containsKey("REDIS_PRIMARY_SERVICE_HOST"));
        assertEquals("10.96.0.1", env.get("KUBERNETES_SERVICE_HOST"));
    }

    static Stream<Arguments> files() {
        return Stream.of(
                Arguments.of("ConfigMap volume: one file per key", "/etc/config/mode", "fast"),
                Arguments.of("ConfigMap subPath mounts one key as a file", "/etc/mode.conf", "fast"),
                Arguments.of("Secret volume items: the key at its path", "/etc/creds/pw/secret.txt", "s3cr3t"),
                Arguments.of("POD-15.5 W-A2 downward API volume: all labels, one per line", "/etc/podinfo/labels",
                        "app=\"myapp\"\ntier=\"web\"\n"),
                Arguments.of("POD-15.5 downward API volume: annotations quoted as Go quotes",
                        "/etc/podinfo/annotations", "myannotation=\"hello\"\nnote=\"say \\\"hi\\\"\"\n"),
                Arguments.of("POD-15.3 downward API volume: metadata.name", "/etc/podinfo/name", "web"),
                Arguments.of("POD-15.6 downward API volume: limits.memory in Mi", "/etc/podinfo/mem", "128"),
                Arguments.of("projected: a ConfigMap item", "/projected/mode", "fast"),
                Arguments.of("projected: a downward API item", "/projected/ns", "shop"),
                Arguments.of("projected: a service account token", "/projected/token", MountedFiles.TOKEN),
                Arguments.of("/etc/hostname", "/etc/hostname", "web\n"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("files")
    @DisplayName("mounted files")
    void file(String why, String path, String content) {
        byte[] bytes = app().files().get(path);
        assertEquals(content, bytes == null ? null : new String(bytes, StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("POD-1.6 emptyDir is an empty directory; /etc/hosts names the pod; PID 1 is the container's command")
    void directoriesHostsAndProcesses() {
        ContainerEnvironment env = app();
        assertTrue(env.isDirectory("/data"));
        assertTrue(new String(env.files().get("/etc/hosts"), StandardCharsets.UTF_8).contains("10.244.1.7\tweb\n"));
        assertEquals("nginx -g daemon off;", env.processes().get(0));
    }

    /** The seeds' myapp pod (POD-21.4): a logshipper sidecar and the app share the emptyDir data at /opt. */
    private static final String MYAPP = """
            apiVersion: v1
            kind: Pod
            metadata: {name: myapp-7d9c, namespace: shop, labels: {app: myapp}}
            spec:
              nodeName: node-1
              containers:
              - name: myapp
                image: alpine:latest
                command: ['sh', '-c', 'while true; do echo "logging" >> /opt/logs.txt; sleep 1; done']
                volumeMounts: [{name: data, mountPath: /opt}, {name: config, mountPath: /etc/app}]
              initContainers:
              - name: logshipper
                image: alpine:latest
                restartPolicy: Always
                command: ['sh', '-c', 'tail -F /opt/logs.txt']
                volumeMounts: [{name: data, mountPath: /opt}, {name: config, mountPath: /etc/shipper}]
              volumes:
              - {name: data, emptyDir: {}}
              - {name: config, configMap: {name: settings}}
            status:
              podIP: 10.244.1.9
            """;

    @Test
    @DisplayName("POD-9.10 POD-21.3 POD-21.4 a sidecar shares the pod's network and storage: the same hostname and pod IP, "
            + "the same emptyDir at /opt and the same volume's files wherever each mounts it")
    void sidecarSharesNetworkAndStorage() {
        Pod pod = Fixtures.parse(MYAPP, Pod.class);
        ContainerEnvironment app = ContainerEnvironment.resolve(pod, "myapp", SOURCES).orElseThrow();
        ContainerEnvironment shipper = ContainerEnvironment.resolve(pod, "logshipper", SOURCES).orElseThrow();
        assertEquals(app.hostname(), shipper.hostname());
        assertEquals("myapp-7d9c", shipper.env().get("HOSTNAME"));
        String hosts = new String(app.files().get("/etc/hosts"), StandardCharsets.UTF_8);
        assertTrue(hosts.contains("10.244.1.9\tmyapp-7d9c\n"), hosts);
        assertEquals(hosts, new String(shipper.files().get("/etc/hosts"), StandardCharsets.UTF_8));
        assertTrue(app.isDirectory("/opt") && shipper.isDirectory("/opt"));
        assertEquals("fast", new String(app.files().get("/etc/app/mode"), StandardCharsets.UTF_8));
        assertEquals("fast", new String(shipper.files().get("/etc/shipper/mode"), StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("POD-10.5 a Burstable container without a memory limit: its limit is what the node offers "
            + "(limits.memory reads the node's allocatable)")
    void burstableLimitIsTheNode() {
        Pod pod = Fixtures.parse(POD.replace("      limits: {memory: 128Mi}\n", ""), Pod.class);
        assertEquals(null, pod.getSpec().getContainers().get(0).getResources().getLimits());
        Map<String, String> env = ContainerEnvironment.resolve(pod, "app", SOURCES).orElseThrow().env();
        assertEquals("8192", env.get("MEMORY_LIMIT_MI"), "8Gi in Mi");
        assertEquals("4", env.get("CPU_LIMIT"));
    }

    @Test
    @DisplayName("POD-1.8 the hostname is spec.hostname when set, else the pod's name")
    void hostname() {
        Pod pod = Fixtures.parse(POD.replace("  nodeName: node-1", "  nodeName: node-1\n  hostname: db-0"), Pod.class);
        assertEquals("db-0", ContainerEnvironment.resolve(pod, "app", SOURCES).orElseThrow().hostname());
        assertEquals("web", app().hostname());
    }

    @Test
    @DisplayName("POD-15.4 POD-15.8 env-only fields are not offered through a volume, volume-only ones not through env")
    void envOnlyAndVolumeOnly() {
        Pod pod = Fixtures.parse(POD, Pod.class);
        assertTrue(DownwardApi.field(pod, "status.podIP", DownwardApi.Via.VOLUME).isEmpty());
        assertTrue(DownwardApi.field(pod, "metadata.labels", DownwardApi.Via.ENV).isEmpty());
        assertEquals("builder", DownwardApi.field(pod, "spec.serviceAccountName", DownwardApi.Via.ENV).orElseThrow());
    }
}
