package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.client.pki.CertificateAuthority;
import io.eventplane.gateway.auth.authn.ServiceAccountTokens;
import io.eventplane.testkit.SharedClusterExtension;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 with the real kubectl against a gateway served as {@code eventplane up} serves it (TLS, cluster CA,
 * credentials required): client certificates, static tokens and ServiceAccount tokens authenticate; anonymous,
 * expired and badly signed tokens are 401; the audit records the authenticated user, never the User-Agent;
 * impersonation is recorded as Kubernetes records it.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlAuthenticationTest {
    private static final String BOB_TOKEN = "31ada4fd-adec-460c-809a-9e56ceb75269";
    private final ControlLoop loop = new ControlLoop();
    private SecureGateway api;
    private Http admin;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        assumeTrue(Kubectl.path() != null, "kubectl is not on PATH");
        loop.start(tmp.resolve("loop"));
        api = SecureGateway.start(loop.config(), tmp, BOB_TOKEN + ",bob,1001,\"ops,devs\"\n");
        admin = api.http(api.admin());
        // authentication is under test here, not RBAC: every authenticated user may edit
        api.kubectl("setup", api.admin()).ok("create", "clusterrolebinding", "authenticated-edit", "--clusterrole=edit",
                "--group=system:authenticated");
    }

    @AfterAll
    void stop() {
        if (api != null) {
            api.close();
        }
        loop.close();
    }

    @Test
    @DisplayName("issue 23: a request without credentials is 401 with Kubernetes' Status; kubectl says it must log in")
    void anonymousIsUnauthorized() throws Exception {
        HttpResponse<String> r = api.http(Kubeconfig.Credential.none()).get("/api/v1/namespaces");
        assertEquals(401, r.statusCode());
        JsonNode status = Http.JSON.readTree(r.body());
        assertEquals("Status", status.path("kind").asText());
        assertEquals("Unauthorized", status.path("reason").asText());
        assertEquals("Unauthorized", status.path("message").asText());
        assertEquals(401, status.path("code").asInt());
        assertEquals(200, api.http(Kubeconfig.Credential.none()).get("/readyz").statusCode(), "health stays public");
        Kubectl nobody = api.kubectl("nobody", Kubeconfig.Credential.none());
        // kubectl, given no credentials at all, asks for a user name on a 401 (and fails without a terminal)
        assertEquals(1, nobody.run("get", "pods").exit());
    }

    @Test
    @DisplayName("issue 23: a client certificate of the cluster CA authenticates as CN with O as groups; the audit records them")
    void clientCertificate() throws Exception {
        Kubectl alice = api.kubectl("alice", api.certificate("alice", "devs", "qa"));
        assertEquals("configmap/from-alice created\n", alice.ok("create", "configmap", "from-alice"));
        JsonNode entry = auditOf("from-alice");
        assertEquals("alice", entry.path("actor").asText());
        assertEquals(List.of("devs", "qa", "system:authenticated"), strings(entry.path("groups")));
        // a certificate from another CA is refused at the TLS handshake or with 401; either way nothing is written
        CertificateAuthority other = CertificateAuthority.create("not-the-cluster-ca");
        CertificateAuthority.Credential forged = other.issueClient("admin", List.of("system:masters"), Duration.ofHours(1));
        Kubectl mallory = api.kubectl("mallory", Kubeconfig.Credential.certificate(forged.certificatePem(), forged.keyPem()));
        assertEquals(1, mallory.run("create", "configmap", "from-mallory").exit());
        assertEquals(404, admin.get("/api/v1/namespaces/default/configmaps/from-mallory").statusCode());
    }

    @Test
    @DisplayName("issue 23: a static token authenticates; a forged User-Agent changes nothing in the audit's actor")
    void staticTokenAndForgedUserAgent() throws Exception {
        Kubectl bob = api.kubectl("bob", Kubeconfig.Credential.token(BOB_TOKEN));
        assertEquals("configmap/from-bob created\n", bob.ok("create", "configmap", "from-bob"));
        assertEquals("bob", auditOf("from-bob").path("actor").asText());

        HttpResponse<String> r = api.http(Kubeconfig.Credential.token(BOB_TOKEN)).post(
                "/api/v1/namespaces/default/configmaps", "{\"metadata\":{\"name\":\"forged-ua\"}}",
                Map.of("User-Agent", "system:admin/v1.33 (linux/amd64) kubernetes/forged"));
        assertEquals(201, r.statusCode(), r.body());
        JsonNode entry = auditOf("forged-ua");
        assertEquals("bob", entry.path("actor").asText(), "the actor is who authenticated, not the User-Agent");
        assertEquals(List.of("ops", "devs", "system:authenticated"), strings(entry.path("groups")));
        JsonNode k8s = auditK8s("forged-ua");
        assertEquals("bob", k8s.path("user").path("username").asText());
        assertEquals("system:admin/v1.33 (linux/amd64) kubernetes/forged", k8s.path("userAgent").asText(),
                "the User-Agent is recorded as what it is");
        assertEquals(401, api.http(Kubeconfig.Credential.token("not-a-listed-token")).get("/api/v1/pods").statusCode());
    }

    @Test
    @DisplayName("issue 23: kubectl create token issues a ServiceAccount token that authenticates as system:serviceaccount:<ns>:<name>")
    void serviceAccountToken() throws Exception {
        Kubectl root = api.kubectl("admin", api.admin());
        root.ok("create", "serviceaccount", "robot");
        String token = root.ok("create", "token", "robot", "--duration=20m").trim();
        assertEquals(3, token.split("\\.").length, token);
        Kubectl robot = api.kubectl("robot", Kubeconfig.Credential.token(token));
        assertEquals("configmap/from-robot created\n", robot.ok("create", "configmap", "from-robot"));
        JsonNode entry = auditOf("from-robot");
        assertEquals("system:serviceaccount:default:robot", entry.path("actor").asText());
        assertEquals(List.of("system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"),
                strings(entry.path("groups")));
        assertTrue(root.fails("create", "token", "robot", "--duration=1m").contains("less than 10 minutes"));

        // deleted: its tokens are no longer believed
        root.ok("create", "serviceaccount", "short-lived");
        String gone = root.ok("create", "token", "short-lived").trim();
        root.ok("delete", "serviceaccount", "short-lived");
        assertEquals(401, api.http(Kubeconfig.Credential.token(gone)).get("/api/v1/namespaces/default/pods").statusCode());
    }

    @Test
    @DisplayName("issue 23: an expired or badly signed ServiceAccount token is 401")
    void expiredAndBadlySignedTokens() throws Exception {
        Kubectl root = api.kubectl("admin2", api.admin());
        root.ok("create", "serviceaccount", "clock");
        String uid = root.ok("get", "serviceaccount", "clock", "-o", "jsonpath={.metadata.uid}");
        ServiceAccountTokens cluster = new ServiceAccountTokens(api.pki().serviceAccountKey());
        Instant now = Instant.now();
        String fresh = cluster.issue("default", "clock", uid, List.of(), now, Duration.ofHours(1), null, null);
        assertEquals(200, api.http(Kubeconfig.Credential.token(fresh)).get("/api/v1/namespaces/default/pods").statusCode());
        String expired = cluster.issue("default", "clock", uid, List.of(), now.minus(Duration.ofHours(2)),
                Duration.ofHours(1), null, null);
        assertEquals(401, api.http(Kubeconfig.Credential.token(expired)).get("/api/v1/namespaces/default/pods").statusCode());
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        String otherKey = new ServiceAccountTokens(g.generateKeyPair()).issue("default", "clock", uid, List.of(), now,
                Duration.ofHours(1), null, null);
        assertEquals(401, api.http(Kubeconfig.Credential.token(otherKey)).get("/api/v1/namespaces/default/pods").statusCode());
        String[] parts = fresh.split("\\.");
        String tampered = parts[0] + "." + parts[1].substring(0, parts[1].length() - 2) + "AA." + parts[2];
        assertEquals(401, api.http(Kubeconfig.Credential.token(tampered)).get("/api/v1/namespaces/default/pods").statusCode());
        Kubectl late = api.kubectl("late", Kubeconfig.Credential.token(expired));
        assertTrue(late.fails("get", "pods").contains("You must be logged in to the server"), "kubectl's words");
    }

    @Test
    @DisplayName("issue 23: kubectl --as by system:masters acts as the user and the audit records both; others get 403")
    void impersonation() throws Exception {
        Kubectl root = api.kubectl("admin3", api.admin());
        assertEquals("configmap/as-carol created\n",
                root.ok("create", "configmap", "as-carol", "--as=carol", "--as-group=devs"));
        JsonNode entry = auditOf("as-carol");
        assertEquals("carol", entry.path("actor").asText());
        assertEquals("kubernetes-admin", entry.path("impersonatedBy").asText());
        JsonNode k8s = auditK8s("as-carol");
        assertEquals("kubernetes-admin", k8s.path("user").path("username").asText());
        assertTrue(strings(k8s.path("user").path("groups")).contains("system:masters"));
        assertEquals("carol", k8s.path("impersonatedUser").path("username").asText());
        assertEquals(List.of("devs", "system:authenticated"), strings(k8s.path("impersonatedUser").path("groups")));

        Kubeconfig.Credential aliceCert = api.certificate("alice");
        assertEquals(1, api.kubectl("alice2", aliceCert).run("create", "configmap", "not-as-carol", "--as=carol").exit());
        HttpResponse<String> r = api.http(aliceCert).post("/api/v1/namespaces/default/configmaps",
                "{\"metadata\":{\"name\":\"not-as-carol\"}}", Map.of("Impersonate-User", "carol"));
        assertEquals(403, r.statusCode());
        assertEquals("users \"carol\" is forbidden: User \"alice\" cannot impersonate resource \"users\" in API group "
                + "\"\" at the cluster scope", Http.JSON.readTree(r.body()).path("message").asText());
        assertEquals(404, admin.get("/api/v1/namespaces/default/configmaps/not-as-carol").statusCode());
    }

    @Test
    @DisplayName("AUTHZ-IMPERSONATE: kubectl --as is allowed by RBAC's verb impersonate; the audit records user and impersonatedUser")
    void impersonationGrantedByRbac() throws Exception {
        Kubectl root = api.kubectl("admin4", api.admin());
        root.ok("create", "clusterrole", "impersonate-erin", "--verb=impersonate", "--resource=users",
                "--resource-name=erin");
        root.ok("create", "clusterrolebinding", "dan-impersonates-erin", "--clusterrole=impersonate-erin", "--user=dan");
        Kubectl dan = api.kubectl("dan", api.certificate("dan"));
        assertEquals("configmap/as-erin created\n", dan.ok("create", "configmap", "as-erin", "--as=erin"));
        JsonNode k8s = auditK8s("as-erin");
        assertEquals("dan", k8s.path("user").path("username").asText());
        assertEquals("erin", k8s.path("impersonatedUser").path("username").asText());
        assertEquals("dan", auditOf("as-erin").path("impersonatedBy").asText());

        // the role names erin only, and no group
        HttpResponse<String> other = api.http(api.certificate("dan")).post("/api/v1/namespaces/default/configmaps",
                "{\"metadata\":{\"name\":\"as-frank\"}}", Map.of("Impersonate-User", "frank"));
        assertEquals(403, other.statusCode());
        assertEquals("users \"frank\" is forbidden: User \"dan\" cannot impersonate resource \"users\" in API group "
                + "\"\" at the cluster scope", Http.JSON.readTree(other.body()).path("message").asText());
        HttpResponse<String> group = api.http(api.certificate("dan")).post("/api/v1/namespaces/default/configmaps",
                "{\"metadata\":{\"name\":\"as-admins\"}}", Map.of("Impersonate-User", "erin", "Impersonate-Group", "admins"));
        assertEquals(403, group.statusCode());
        assertEquals("groups \"admins\" is forbidden: User \"dan\" cannot impersonate resource \"groups\" in API group "
                + "\"\" at the cluster scope", Http.JSON.readTree(group.body()).path("message").asText());
        assertEquals(1, dan.run("get", "configmaps", "--as=erin", "--as-group=admins").exit());
    }

    @Test
    @DisplayName("issue 23: the web console asks a browser without credentials to log in; a token logs in (a cookie for "
            + "reads) and each view is the RBAC read it shows")
    void consoleLogin() throws Exception {
        Http browser = api.http(Kubeconfig.Credential.none());
        HttpResponse<String> page = browser.get("/ui/");
        assertEquals(401, page.statusCode());
        assertTrue(page.body().contains("name=\"token\""), "the login form");
        assertEquals(401, browser.get("/ui/api/pods").statusCode());
        String form = "application/x-www-form-urlencoded";
        assertEquals(401, browser.send("POST", "/ui/login", form, "token=not-a-token").statusCode());

        HttpResponse<String> in = browser.send("POST", "/ui/login", form, "token=" + BOB_TOKEN);
        assertEquals(303, in.statusCode());
        assertEquals("/ui/", in.headers().firstValue("Location").orElseThrow());
        String setCookie = in.headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(setCookie.contains("HttpOnly") && setCookie.contains("Secure") && setCookie.contains("SameSite=Strict"),
                setCookie);
        Map<String, String> asBob = Map.of("Cookie", setCookie.substring(0, setCookie.indexOf(';')));
        assertTrue(browser.get("/ui/", asBob).statusCode() != 401, "the console's page");
        assertEquals(200, browser.get("/ui/api/pods?namespace=default", asBob).statusCode());
        assertEquals(200, browser.get("/api/v1/namespaces/default/configmaps", asBob).statusCode(),
                "the console's reads of the API");
        HttpResponse<String> nodes = browser.get("/ui/api/nodes", asBob);
        assertEquals(403, nodes.statusCode(), "edit lists no nodes");
        assertEquals("nodes is forbidden: User \"bob\" cannot list resource \"nodes\" in API group \"\" at the cluster "
                + "scope", Http.JSON.readTree(nodes.body()).path("message").asText());
        assertEquals(403, browser.get("/ui/api/audit", asBob).statusCode());
        assertEquals(401, browser.send("DELETE", "/api/v1/namespaces/default/configmaps/from-bob", null, null)
                .statusCode(), "no cookie, no credentials");
        HttpResponse<String> write = browser.post("/api/v1/namespaces/default/configmaps",
                "{\"metadata\":{\"name\":\"by-cookie\"}}", asBob);
        assertEquals(401, write.statusCode(), "the cookie authenticates reads only");
        assertEquals(200, admin.get("/ui/api/nodes").statusCode(), "a client certificate is a browser's other way in");
    }

    private JsonNode auditOf(String configMap) throws Exception {
        JsonNode items = admin.getJson("/apis/eventplane.io/v1/audit?kind=configmaps&name=" + configMap).path("items");
        assertEquals(1, items.size(), items.toString());
        return items.get(0);
    }

    private JsonNode auditK8s(String configMap) throws Exception {
        JsonNode items = admin.getJson("/apis/eventplane.io/v1/audit?format=k8s&kind=configmaps&name=" + configMap)
                .path("items");
        assertEquals(1, items.size(), items.toString());
        return items.get(0);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
