package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.LocalPortForward;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * fabric8's exec, file read and port-forward against a pod whose status says its container runs (written through the
 * status subresource, as its kubelet would).
 */
class Fabric8ExecTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    private static KubernetesClient client() {
        Config config = new ConfigBuilder().withMasterUrl(f.url()).withNamespace("default")
                .withRequestRetryBackoffLimit(0).build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    private static void runningPod(KubernetesClient client, String name) {
        Pod pod = new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withNodeName("node-1")
                .addNewContainer().withName("app").withImage("nginx:1.27").addNewPort().withContainerPort(80)
                .endPort().addNewEnv().withName("GREETING").withValue("hello").endEnv().endContainer().endSpec()
                .build();
        Pod created = client.pods().resource(pod).create();
        created.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running")
                .withPodIP("10.244.0.9").withContainerStatuses(new ContainerStatusBuilder().withName("app")
                        .withReady(true).withImage("nginx:1.27").withState(new ContainerStateBuilder()
                                .withNewRunning().withStartedAt("2025-01-01T00:00:00Z").endRunning().build())
                        .build()).build());
        client.pods().resource(created).updateStatus();
    }

    @Test
    @DisplayName("fabric8 exec (v4/v5 channel protocol): output, exit code, a file read; a non-zero exit code comes back")
    void exec() throws Exception {
        try (KubernetesClient client = client()) {
            runningPod(client, "fab-exec");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ExecWatch watch = client.pods().withName("fab-exec").inContainer("app").writingOutput(out)
                    .exec("sh", "-c", "echo $GREETING from $(hostname); printenv GREETING")) {
                assertEquals(0, watch.exitCode().get(20, TimeUnit.SECONDS));
            }
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("hello"), out.toString(StandardCharsets.UTF_8));
            try (ExecWatch watch = client.pods().withName("fab-exec").inContainer("app")
                    .writingOutput(new ByteArrayOutputStream()).exec("sh", "-c", "exit 7")) {
                assertEquals(7, watch.exitCode().get(20, TimeUnit.SECONDS));
            }
            try (InputStream hosts = client.pods().withName("fab-exec").inContainer("app").file("/etc/hostname")
                    .read()) {
                assertEquals("fab-exec\n", new String(hosts.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    @DisplayName("fabric8 port-forward: a declared containerPort answers HTTP naming the pod and container")
    void portForward() throws Exception {
        try (KubernetesClient client = client()) {
            runningPod(client, "fab-pf");
            try (LocalPortForward forward = client.pods().withName("fab-pf").portForward(80)) {
                HttpResponse<String> r = f.http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + forward.getLocalPort() + "/")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                assertEquals("pod default/fab-pf container app port 80\n", r.body());
            }
        }
    }

    @Test
    @DisplayName("a refused stream is an HTTP error before the WebSocket handshake, as kube-apiserver answers it")
    void refusalsBeforeTheHandshake() throws Exception {
        try (KubernetesClient client = client()) {
            runningPod(client, "fab-refusals");
        }
        String pods = f.url().replaceFirst("^http", "ws") + "/api/v1/namespaces/default/pods/";
        assertEquals(404, handshakeStatus(pods + "nope/exec?command=ls", "v5.channel.k8s.io"));
        assertEquals(400, handshakeStatus(pods + "fab-refusals/exec?container=nope&command=ls", "v5.channel.k8s.io"));
        assertEquals(400, handshakeStatus(pods + "fab-refusals/exec?container=app", "v5.channel.k8s.io"));
        assertEquals(404, handshakeStatus(pods + "nope/portforward?ports=80", "v4.channel.k8s.io"));
        assertEquals(101, handshakeStatus(pods + "fab-refusals/portforward?ports=80", "v4.channel.k8s.io"));
    }

    /** The status the WebSocket handshake ends with (101 when it upgrades). */
    private static int handshakeStatus(String uri, String subprotocol) throws Exception {
        try {
            java.net.http.WebSocket socket = f.http.newWebSocketBuilder().subprotocols(subprotocol)
                    .buildAsync(URI.create(uri), new java.net.http.WebSocket.Listener() {
                    }).get(20, TimeUnit.SECONDS);
            socket.abort();
            return 101;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof java.net.http.WebSocketHandshakeException refused) {
                return refused.getResponse().statusCode();
            }
            throw e;
        }
    }
}
