package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.client.pki.CertificateAuthority;
import io.eventplane.client.pki.Pem;
import io.eventplane.controllers.csrsigning.CsrSigningReconciler;
import io.eventplane.core.meta.CertificateRequests;
import io.eventplane.reconcile.Controller;
import io.eventplane.testkit.SharedClusterExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
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
 * Issue 26 item 4 with the real kubectl against a TLS gateway: a user asks for a client certificate with a
 * CertificateSigningRequest (the API records who asked), an admin approves it with {@code kubectl certificate
 * approve}, the csrsigning controller issues it from the cluster CA, and a kubeconfig holding it authenticates as the
 * request's CN with its O as groups. Denied requests are never signed.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlCertificateSigningRequestTest {
    private final ControlLoop loop = new ControlLoop();
    private SecureGateway api;
    private Controller signer;
    private Kubectl admin;
    private Kubectl alice;
    private Path tmp;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        assumeTrue(Kubectl.path() != null, "kubectl is not on PATH");
        this.tmp = tmp;
        loop.start(tmp.resolve("loop"));
        api = SecureGateway.start(loop.config(), tmp, null);
        // the signer where the CA is: kube-controller-manager's csrsigning with the cluster signing key
        signer = Controller.keyed(loop.config(), "certificate-controller", "csrsigning-controller", Clock.systemUTC(),
                new CsrSigningReconciler(api.pki().ca())).start();
        admin = api.kubectl("admin", api.admin());
        admin.ok("create", "clusterrole", "csr-requester", "--verb=create,get,list,watch",
                "--resource=certificatesigningrequests");
        admin.ok("create", "clusterrolebinding", "alice-requests", "--clusterrole=csr-requester", "--user=alice");
        alice = api.kubectl("alice", api.certificate("alice", "requesters"));
    }

    @AfterAll
    void stop() {
        if (signer != null) {
            signer.close();
        }
        if (api != null) {
            api.close();
        }
        loop.close();
    }

    private String manifest(String name, String pem, int seconds) {
        return """
                apiVersion: certificates.k8s.io/v1
                kind: CertificateSigningRequest
                metadata:
                  name: %s
                spec:
                  request: %s
                  signerName: kubernetes.io/kube-apiserver-client
                  expirationSeconds: %d
                  usages:
                  - client auth
                  username: someone-else
                """.formatted(name, Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.UTF_8)), seconds);
    }

    @Test
    @DisplayName("issue 26: kubectl certificate approve; the signer issues the certificate and it authenticates as CN/O")
    void approveIssueAuthenticate() throws Exception {
        KeyPair key = CertificateAuthority.newKeyPair();
        String pem = CertificateRequests.create(key, "jane", List.of("devs", "qa"));
        assertEquals("certificatesigningrequest.certificates.k8s.io/jane created\n",
                alice.runWithStdin(manifest("jane", pem, 3600), "create", "-f", "-").out());
        // who asked is the authenticated user, whatever the client wrote
        JsonNode spec = Http.JSON.readTree(admin.ok("get", "csr", "jane", "-o", "json")).path("spec");
        assertEquals("alice", spec.path("username").asText());
        assertEquals(List.of("requesters", "system:authenticated"), strings(spec.path("groups")));

        String table = admin.ok("get", "csr", "jane");
        String[] header = table.lines().findFirst().orElseThrow().trim().split("\\s+");
        assertEquals(List.of("NAME", "AGE", "SIGNERNAME", "REQUESTOR", "REQUESTEDDURATION", "CONDITION"), List.of(header));
        String[] row = table.lines().skip(1).findFirst().orElseThrow().trim().split("\\s+");
        assertEquals(List.of("jane", "kubernetes.io/kube-apiserver-client", "alice", "60m", "Pending"),
                List.of(row[0], row[2], row[3], row[4], row[5]));

        // alice may not approve her own request: approval is its own subresource
        assertTrue(alice.fails("certificate", "approve", "jane").contains("forbidden"));
        assertEquals("certificatesigningrequest.certificates.k8s.io/jane approved\n",
                admin.ok("certificate", "approve", "jane"));
        String condition = admin.until(out -> out.contains("Approved,Issued"), "get", "csr", "jane");
        assertTrue(condition.contains("Approved,Issued"), condition);

        String issued = new String(Base64.getDecoder().decode(admin.ok("get", "csr", "jane", "-o",
                "jsonpath={.status.certificate}").trim()), StandardCharsets.UTF_8);
        X509Certificate cert = Pem.certificate(issued);
        assertTrue(api.pki().ca().issued(cert), "signed by the cluster CA");
        long validFor = cert.getNotAfter().getTime() - System.currentTimeMillis();
        assertTrue(validFor <= 3_600_000 && validFor > 3_000_000, "valid for expirationSeconds: " + validFor);

        Kubectl jane = api.kubectl("jane", Kubeconfig.Credential.certificate(issued, Pem.encode(key.getPrivate())));
        JsonNode me = Http.JSON.readTree(jane.ok("auth", "whoami", "-o", "json")).path("status").path("userInfo");
        assertEquals("jane", me.path("username").asText());
        assertEquals(List.of("devs", "qa", "system:authenticated"), strings(me.path("groups")));
    }

    @Test
    @DisplayName("issue 26: kubectl certificate deny: Denied, never signed; kubectl refuses to approve it then")
    void deny() throws Exception {
        String pem = CertificateRequests.create(CertificateAuthority.newKeyPair(), "mallory", List.of("intruders"));
        alice.runWithStdin(manifest("mallory", pem, 600), "create", "-f", "-");
        assertEquals("certificatesigningrequest.certificates.k8s.io/mallory denied\n",
                admin.ok("certificate", "deny", "mallory"));
        assertTrue(admin.ok("get", "csr", "mallory").contains("Denied"));
        String refused = admin.fails("certificate", "approve", "mallory");
        assertTrue(refused.contains("is already Denied"), refused);
        assertEquals("", admin.ok("get", "csr", "mallory", "-o", "jsonpath={.status.certificate}").trim());
    }

    @Test
    @DisplayName("issue 26: an invalid request is refused with Kubernetes' message (expirationSeconds under 600)")
    void invalid() throws Exception {
        String pem = CertificateRequests.create(CertificateAuthority.newKeyPair(), "short", List.of());
        Kubectl.Result r = alice.runWithStdin(manifest("short", pem, 60), "create", "-f", "-");
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("spec.expirationSeconds: Invalid value: 60: may not specify a duration less than "
                + "600 seconds (10 minutes)"), r.out());
    }

    @Test
    @DisplayName("CRD-49 CertificateSigningRequest admission with kubectl: approving needs approve on the signer (the "
            + "bootstrap kube-apiserver-client-approver role grants it), and a request for system:masters is refused")
    void approvalNeedsTheSigner() throws Exception {
        admin.runWithStdin("""
                apiVersion: rbac.authorization.k8s.io/v1
                kind: ClusterRole
                metadata:
                  name: csr-approval-writer
                rules:
                - apiGroups: [certificates.k8s.io]
                  resources: [certificatesigningrequests]
                  verbs: [get, list, watch]
                - apiGroups: [certificates.k8s.io]
                  resources: [certificatesigningrequests/approval]
                  verbs: [update]
                """, "apply", "-f", "-");
        admin.ok("create", "clusterrolebinding", "bob-approval-writer", "--clusterrole=csr-approval-writer",
                "--user=bob");
        Kubectl bob = api.kubectl("bob", api.certificate("bob", "approvers"));
        String pem = CertificateRequests.create(CertificateAuthority.newKeyPair(), "kim", List.of("devs"));
        alice.runWithStdin(manifest("kim", pem, 600), "create", "-f", "-");
        String refused = bob.until(o -> o.contains("not permitted"), "certificate", "approve", "kim");
        assertTrue(refused.contains("certificatesigningrequests.certificates.k8s.io \"kim\" is forbidden: user not "
                + "permitted to approve requests with signerName \"kubernetes.io/kube-apiserver-client\""), refused);

        admin.ok("create", "clusterrolebinding", "bob-client-approver",
                "--clusterrole=system:certificates.k8s.io:kube-apiserver-client-approver", "--user=bob");
        String approved = bob.until(o -> o.contains("approved"), "certificate", "approve", "kim");
        assertEquals("certificatesigningrequest.certificates.k8s.io/kim approved\n", approved);

        String masters = CertificateRequests.create(CertificateAuthority.newKeyPair(), "root", List.of("system:masters"));
        Kubectl.Result r = alice.runWithStdin(manifest("root", masters, 600), "create", "-f", "-");
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("certificatesigningrequests.certificates.k8s.io \"root\" is forbidden: use of "
                + "kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed"), r.out());
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
