package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.controllers.rootcacertpublisher.RootCaCertPublisher;
import io.eventplane.reconcile.Controller;
import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, projected ServiceAccount tokens with the real kubectl against a TLS gateway (which holds the cluster's
 * signing key, as in {@code eventplane up}): root-ca-cert-publisher publishes {@code kube-root-ca.crt}, a new pod gets
 * the {@code kube-api-access-*} volume, node-sim runs it, and the token {@code kubectl exec} shows authenticates as the
 * pod's ServiceAccount, bound to the pod.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlServiceAccountTokenVolumeTest {
    private static final String DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
    private final ControlLoop loop = new ControlLoop();
    private SecureGateway api;
    private Controller publisher;
    private Kubectl admin;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        assumeTrue(Kubectl.path() != null, "kubectl is not on PATH");
        loop.start(tmp.resolve("loop")).startControllers("serviceaccount");
        api = SecureGateway.start(loop.config(), tmp, null);
        publisher = Controller.keyed(loop.config(), "root-ca-cert-publisher", "root-ca-cert-publisher",
                Clock.systemUTC(), new RootCaCertPublisher(Files.readString(api.pki().directory().resolve("ca.crt"))))
                .start();
        admin = api.kubectl("admin", api.admin());
    }

    @AfterAll
    void stop() {
        if (publisher != null) {
            publisher.close();
        }
        if (api != null) {
            api.close();
        }
        loop.close();
    }

    @Test
    @DisplayName("issue 23: a pod gets the kube-api-access volume, runs, and the token kubectl exec shows "
            + "authenticates as system:serviceaccount:<ns>:<sa> bound to the pod (401 once the pod is gone)")
    void projectedTokenAuthenticates() throws Exception {
        String ca = Files.readString(api.pki().directory().resolve("ca.crt"));
        String published = admin.until(o -> !o.isEmpty(), "get", "configmap", "kube-root-ca.crt", "-o",
                "jsonpath={.data.ca\\.crt}");
        assertEquals(ca.trim(), published.trim(), "kube-root-ca.crt holds the cluster CA");

        admin.ok("create", "serviceaccount", "robot");
        admin.ok("run", "web", "--image=nginx:1.27", "--overrides={\"spec\":{\"serviceAccountName\":\"robot\"}}");
        admin.until(o -> o.equals("true"), 60, "get", "pod", "web", "-o",
                "jsonpath={.status.containerStatuses[0].ready}");
        JsonNode spec = Http.JSON.readTree(admin.ok("get", "pod", "web", "-o", "json")).path("spec");
        JsonNode volume = spec.path("volumes").get(0);
        assertTrue(volume.path("name").asText().matches("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}"),
                volume.toString());
        assertEquals(3607, volume.path("projected").path("sources").get(0).path("serviceAccountToken")
                .path("expirationSeconds").asInt());
        JsonNode mount = spec.path("containers").get(0).path("volumeMounts").get(0);
        assertEquals(DIR, mount.path("mountPath").asText());
        assertTrue(mount.path("readOnly").asBoolean());

        assertEquals("ca.crt\nnamespace\ntoken\n", admin.ok("exec", "web", "--", "ls", DIR));
        assertEquals("default", admin.ok("exec", "web", "--", "cat", DIR + "/namespace").trim());
        assertEquals(ca.trim(), admin.ok("exec", "web", "--", "cat", DIR + "/ca.crt").trim());
        String token = admin.ok("exec", "web", "--", "cat", DIR + "/token").trim();
        JsonNode claims = Http.JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
        String podUid = admin.ok("get", "pod", "web", "-o", "jsonpath={.metadata.uid}");
        assertEquals("system:serviceaccount:default:robot", claims.path("sub").asText());
        assertEquals("web", claims.path("kubernetes.io").path("pod").path("name").asText());
        assertEquals(podUid, claims.path("kubernetes.io").path("pod").path("uid").asText());
        assertEquals(3607, claims.path("exp").asLong() - claims.path("iat").asLong());

        Kubectl robot = api.kubectl("robot", Kubeconfig.Credential.token(token));
        JsonNode me = Http.JSON.readTree(robot.ok("auth", "whoami", "-o", "json")).path("status").path("userInfo");
        assertEquals("system:serviceaccount:default:robot", me.path("username").asText());
        assertEquals(List.of("system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"),
                strings(me.path("groups")));
        assertEquals(List.of("web"), strings(me.path("extra").path("authentication.kubernetes.io/pod-name")));
        assertEquals(List.of(podUid), strings(me.path("extra").path("authentication.kubernetes.io/pod-uid")));

        // bound to the pod: once the pod is gone, its token is no longer believed
        admin.run("delete", "pod", "web", "--grace-period=0", "--force");
        admin.until(o -> o.contains("NotFound"), "get", "pod", "web");
        assertEquals(401, api.http(Kubeconfig.Credential.token(token)).get("/api/v1/namespaces/default/pods")
                .statusCode());
    }

    @Test
    @DisplayName("issue 23: automountServiceAccountToken: false on the pod: no volume, nothing at the token path")
    void optedOut() throws Exception {
        admin.ok("run", "quiet", "--image=nginx:1.27",
                "--overrides={\"spec\":{\"automountServiceAccountToken\":false}}");
        admin.until(o -> o.equals("true"), 60, "get", "pod", "quiet", "-o",
                "jsonpath={.status.containerStatuses[0].ready}");
        assertEquals("", admin.ok("get", "pod", "quiet", "-o", "jsonpath={.spec.volumes}"));
        assertTrue(admin.run("exec", "quiet", "--", "cat", DIR + "/token").exit() != 0);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
