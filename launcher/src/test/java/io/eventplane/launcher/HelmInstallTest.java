package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.Release;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.gateway.alloc.ServiceNetwork;
import io.eventplane.testkit.FreePorts;
import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Helm (helm-java: Helm's Go library in-process) as a real client: a small chart with a Deployment, a Service, a
 * ConfigMap, a ServiceAccount and a Secret is installed, upgraded and uninstalled against a running Eventplane, and
 * the release is stored the way Helm stores it, as Secrets {@code sh.helm.release.v1.<name>.v<revision>}.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HelmInstallTest {
    private static final String NS = "/api/v1/namespaces/default/";
    private final ControlLoop loop = new ControlLoop();
    private GatewayServer gateway;
    private Http http;
    private Path kubeconfig;
    private Path chart;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        loop.start(tmp.resolve("loop")).startControllers("replicaset,deployment");
        gateway = GatewayServer.start(loop.config(), FreePorts.next(), "127.0.0.1", ServiceNetwork.defaults());
        http = new Http(gateway.url());
        kubeconfig = tmp.resolve("kubeconfig");
        Kubeconfig.write(kubeconfig, gateway.url());
        chart = writeChart(tmp.resolve("proof"));
    }

    @AfterAll
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        loop.close();
    }

    /** The chart: every object named after the release, the image and the greeting from values. */
    private static Path writeChart(Path dir) throws Exception {
        Files.createDirectories(dir.resolve("templates"));
        Files.writeString(dir.resolve("Chart.yaml"), """
                apiVersion: v2
                name: proof
                version: 0.1.0
                appVersion: "1.0"
                """);
        Files.writeString(dir.resolve("values.yaml"), """
                image: nginx:1.27
                greeting: hello
                """);
        Files.writeString(dir.resolve("templates/objects.yaml"), """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: {{ .Release.Name }}-config
                  labels: {app: {{ .Release.Name }}}
                data:
                  greeting: {{ .Values.greeting | quote }}
                ---
                apiVersion: v1
                kind: Secret
                metadata:
                  name: {{ .Release.Name }}-secret
                  labels: {app: {{ .Release.Name }}}
                type: Opaque
                stringData:
                  password: s3cret
                ---
                apiVersion: v1
                kind: ServiceAccount
                metadata:
                  name: {{ .Release.Name }}-sa
                  labels: {app: {{ .Release.Name }}}
                ---
                apiVersion: v1
                kind: Service
                metadata:
                  name: {{ .Release.Name }}
                  labels: {app: {{ .Release.Name }}}
                spec:
                  selector: {app: {{ .Release.Name }}}
                  ports:
                  - {name: http, port: 80, targetPort: 8080}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: {{ .Release.Name }}
                  labels: {app: {{ .Release.Name }}}
                spec:
                  replicas: 1
                  selector:
                    matchLabels: {app: {{ .Release.Name }}}
                  template:
                    metadata:
                      labels: {app: {{ .Release.Name }}}
                    spec:
                      serviceAccountName: {{ .Release.Name }}-sa
                      containers:
                      - name: web
                        image: {{ .Values.image }}
                        ports: [{containerPort: 8080}]
                        envFrom:
                        - configMapRef: {name: {{ .Release.Name }}-config}
                """);
        return dir;
    }

    private static final List<String> OBJECTS = List.of(NS + "configmaps/demo-config", NS + "secrets/demo-secret",
            NS + "serviceaccounts/demo-sa", NS + "services/demo", "/apis/apps/v1/namespaces/default/deployments/demo");

    @Test
    @DisplayName("helm install creates every object and release v1, helm upgrade changes the Deployment and makes v2, "
            + "helm uninstall removes the objects and the release")
    void installUpgradeUninstall() throws Exception {
        Release installed = new Helm(chart).install().withName("demo").withNamespace("default")
                .withKubeConfig(kubeconfig).call();
        assertEquals("deployed", installed.getStatus(), installed.getOutput());
        assertEquals("1", installed.getRevision());

        JsonNode release = http.getJson(NS + "secrets/sh.helm.release.v1.demo.v1");
        assertEquals("helm.sh/release.v1", release.path("type").asText(), release.toString());
        assertEquals("helm", release.path("metadata").path("labels").path("owner").asText(), release.toString());
        assertEquals("deployed", release.path("metadata").path("labels").path("status").asText(), release.toString());
        for (String object : OBJECTS) {
            JsonNode o = http.getJson(object);
            assertEquals("Helm", o.path("metadata").path("labels").path("app.kubernetes.io/managed-by").asText(""),
                    "Helm marks what it manages: " + o);
            assertEquals("demo", o.path("metadata").path("annotations").path("meta.helm.sh/release-name").asText(""),
                    o.toString());
        }
        assertEquals("hello", http.getJson(NS + "configmaps/demo-config").path("data").path("greeting").asText());
        assertEquals("czNjcmV0", http.getJson(NS + "secrets/demo-secret").path("data").path("password").asText());
        String ip = http.getJson(NS + "services/demo").path("spec").path("clusterIP").asText();
        assertTrue(ServiceNetwork.defaults().clusterIps().allocatable(ip), ip);
        http.await("/apis/apps/v1/namespaces/default/deployments/demo",
                d -> d.path("status").path("replicas").asInt() == 1, Duration.ofSeconds(60));

        Release upgraded = Helm.upgrade(chart.toString()).withName("demo").withNamespace("default")
                .withKubeConfig(kubeconfig).set("image", "nginx:1.28").set("greeting", "bye").call();
        assertEquals("deployed", upgraded.getStatus(), upgraded.getOutput());
        assertEquals("2", upgraded.getRevision());
        JsonNode deployment = http.getJson("/apis/apps/v1/namespaces/default/deployments/demo");
        assertEquals("nginx:1.28", deployment.path("spec").path("template").path("spec").path("containers").path(0)
                .path("image").asText(), deployment.toString());
        assertEquals(2, deployment.path("metadata").path("generation").asInt(), deployment.toString());
        assertEquals("bye", http.getJson(NS + "configmaps/demo-config").path("data").path("greeting").asText());
        assertEquals("deployed", http.getJson(NS + "secrets/sh.helm.release.v1.demo.v2").path("metadata")
                .path("labels").path("status").asText());
        assertEquals("superseded", http.getJson(NS + "secrets/sh.helm.release.v1.demo.v1").path("metadata")
                .path("labels").path("status").asText());
        List<Release> listed = Helm.list().withKubeConfig(kubeconfig).call();
        assertEquals(List.of("demo:2"), listed.stream().map(r -> r.getName() + ":" + r.getRevision()).toList());

        String out = Helm.uninstall("demo").withNamespace("default").withKubeConfig(kubeconfig).call();
        assertTrue(out.contains("release \"demo\" uninstalled"), out);
        for (String object : OBJECTS) {
            http.await(object.substring(0, object.lastIndexOf('/')), list -> {
                for (JsonNode item : list.path("items")) {
                    if (object.endsWith("/" + item.path("metadata").path("name").asText())) {
                        return false;
                    }
                }
                return true;
            }, Duration.ofSeconds(30));
        }
        assertEquals(404, http.get(NS + "secrets/sh.helm.release.v1.demo.v1").statusCode());
        assertEquals(404, http.get(NS + "secrets/sh.helm.release.v1.demo.v2").statusCode());
        assertEquals(List.of(), Helm.list().withKubeConfig(kubeconfig).call());
    }
}
