package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.rejected;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.meta.CertificateRequests;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.model.certificates.CertificateSigningRequestCondition;
import io.eventplane.model.certificates.CertificateSigningRequestSpec;
import io.eventplane.model.certificates.CertificateSigningRequestStatus;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** certificates.k8s.io/v1 CertificateSigningRequest (issue 26 item 4): Kubernetes 1.33's validation and strategies. */
class CertificateSigningRequestRulesTest {
    static final String REQUEST = requestPem("alice", "devs");
    private final Decisions decisions = new Decisions();

    /** A PEM CERTIFICATE REQUEST for CN=cn, O=org, signed by a fresh P-256 key. */
    static String requestPem(String cn, String org) {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"));
            return CertificateRequests.create(g.generateKeyPair(), cn, List.of(org));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static CertificateSigningRequest csr(String name, String pem) {
        return CertificateSigningRequest.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).build())
                .setSpec(CertificateSigningRequestSpec.newBuilder()
                        .setRequest(ByteBuffer.wrap(pem.getBytes(StandardCharsets.UTF_8)))
                        .setSignerName("kubernetes.io/kube-apiserver-client").setExpirationSeconds(86400)
                        .setUsages(List.of("client auth")).build())
                .build();
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of("{spec: {signerName: null}}", List.of("spec.signerName: Required value: signerName must be provided")),
                Arguments.of("{spec: {signerName: an-invalid-signer-name}}", List.of("spec.signerName: Invalid value: "
                        + "\"an-invalid-signer-name\": must be a fully qualified domain and path of the form "
                        + "'example.com/signer-name'")),
                Arguments.of("{spec: {signerName: example/signer}}", List.of("spec.signerName: Invalid value: "
                        + "\"example\": should be a domain with at least two segments separated by dots")),
                Arguments.of("{spec: {signerName: kubernetes.io/legacy-unknown}}", List.of("spec.signerName: Invalid "
                        + "value: \"kubernetes.io/legacy-unknown\": the legacy signerName is not allowed via this API version")),
                Arguments.of("{spec: {usages: null}}", List.of("spec.usages: Required value: usages must be provided")),
                Arguments.of("{spec: {usages: [client auth, teleport, client auth]}}", List.of(
                        "spec.usages[1]: Unsupported value: \"teleport\": supported values: \"any\", \"cert sign\", "
                                + "\"client auth\", \"code signing\", \"content commitment\", \"crl sign\", \"data "
                                + "encipherment\", \"decipher only\", \"digital signature\", \"email protection\", "
                                + "\"encipher only\", \"ipsec end system\", \"ipsec tunnel\", \"ipsec user\", \"key "
                                + "agreement\", \"key encipherment\", \"microsoft sgc\", \"netscape sgc\", \"ocsp "
                                + "signing\", \"s/mime\", \"server auth\", \"signing\", \"timestamping\"",
                        "spec.usages[2]: Duplicate value: \"client auth\"")),
                Arguments.of("{spec: {expirationSeconds: 599}}", List.of("spec.expirationSeconds: Invalid value: 599: "
                        + "may not specify a duration less than 600 seconds (10 minutes)")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    @DisplayName("issue 26: an invalid CertificateSigningRequest is refused with Kubernetes' messages")
    void invalidRequests(String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(csr("r", REQUEST), patch))));
    }

    @Test
    @DisplayName("issue 26: spec.request must be a PEM CERTIFICATE REQUEST that parses and whose signature verifies")
    void requestMustParse() {
        String notPem = "hello";
        assertEquals(List.of("spec.request: Invalid value: \"hello\": PEM block type must be CERTIFICATE REQUEST"),
                rejected(decisions.create(csr("r", notPem))));
        String certificateBlock = REQUEST.replace("CERTIFICATE REQUEST", "CERTIFICATE");
        assertTrue(rejected(decisions.create(csr("r", certificateBlock))).get(0)
                .endsWith("PEM block type must be CERTIFICATE REQUEST"));
        String garbage = "-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n";
        assertTrue(rejected(decisions.create(csr("r", garbage))).get(0).startsWith("spec.request: Invalid value: "));
        CertificateSigningRequest ok = decisions.created(csr("r", REQUEST));
        assertNull(ok.getStatus(), "a new request has no status");
    }

    @Test
    @DisplayName("issue 26: an update keeps the stored spec (it is immutable) and status; metadata changes")
    void specIsImmutable() {
        ObjectChanged stored = decisions.createdChange(csr("r", REQUEST));
        CertificateSigningRequest changed = merge((CertificateSigningRequest) stored.getObject(),
                "{metadata: {labels: {a: b}}, spec: {signerName: example.com/other, usages: [server auth]}}");
        CertificateSigningRequest updated = decisions.updated(stored, changed);
        assertEquals("kubernetes.io/kube-apiserver-client", updated.getSpec().getSignerName());
        assertEquals(List.of("client auth"), updated.getSpec().getUsages());
        assertEquals("b", updated.getMetadata().getLabels().get("a"));
    }

    @Test
    @DisplayName("issue 26: approval changes the conditions only; Approved and Denied exclude each other and stay")
    void approval() {
        ObjectChanged stored = decisions.createdChange(csr("r", REQUEST));
        CertificateSigningRequest base = (CertificateSigningRequest) stored.getObject();
        CertificateSigningRequest approve = withConditions(base, condition("Approved", "True"));
        approve = CertificateSigningRequest.newBuilder(approve).setSpec(CertificateSigningRequestSpec.newBuilder(
                base.getSpec()).setSignerName("example.com/ignored").build()).build();
        Decision d = decisions.approval(stored, approve);
        assertTrue(d.outcome().getAccepted(), () -> d.outcome().getMessage());
        ObjectChanged approved = d.change().orElseThrow();
        CertificateSigningRequest a = (CertificateSigningRequest) approved.getObject();
        assertEquals("kubernetes.io/kube-apiserver-client", a.getSpec().getSignerName(), "approval keeps the spec");
        CertificateSigningRequestCondition c = a.getStatus().getConditions().get(0);
        assertEquals("Approved", c.getType());
        assertNotNull(c.getLastTransitionTime(), "timestamps are filled in");
        assertNotNull(c.getLastUpdateTime());

        assertEquals(List.of("status.conditions[1].type: Invalid value: \"Denied\": Approved and Denied conditions are "
                + "mutually exclusive"), rejected(decisions.approval(approved,
                withConditions(a, a.getStatus().getConditions().get(0), condition("Denied", "True")))));
        assertEquals(List.of("status.conditions: Forbidden: updates may not remove a condition of type \"Approved\""),
                rejected(decisions.approval(approved, withConditions(a))));
        assertEquals(List.of("status.conditions[0].status: Unsupported value: \"False\": supported values: \"True\""),
                rejected(decisions.approval(stored, withConditions(base, condition("Approved", "False")))));
    }

    @Test
    @DisplayName("issue 26: status may not add Approved or Denied; the certificate is set once, as CERTIFICATE blocks")
    void status() {
        ObjectChanged stored = decisions.createdChange(csr("r", REQUEST));
        CertificateSigningRequest base = (CertificateSigningRequest) stored.getObject();
        assertEquals(List.of("status.conditions: Forbidden: updates may not add a condition of type \"Approved\""),
                rejected(decisions.updateStatus(stored, withConditions(base, condition("Approved", "True")))));
        CertificateSigningRequest bad = CertificateSigningRequest.newBuilder(base).setStatus(
                CertificateSigningRequestStatus.newBuilder().setCertificate(ByteBuffer.wrap(REQUEST.getBytes(
                        StandardCharsets.UTF_8))).build()).build();
        assertEquals(List.of("status.certificate: Invalid value: \"<certificate data>\": only CERTIFICATE PEM blocks are "
                + "allowed, found \"CERTIFICATE REQUEST\""), rejected(decisions.updateStatus(stored, bad)));
        CertificateSigningRequest failed = withConditions(base, condition("Failed", "True"));
        Decision d = decisions.updateStatus(stored, failed);
        assertTrue(d.outcome().getAccepted(), () -> d.outcome().getMessage());
        assertArrayEquals(new byte[0], CertificateSigningRequestRules.certificateOf(
                (CertificateSigningRequest) d.change().orElseThrow().getObject()));
    }

    private static CertificateSigningRequestCondition condition(String type, String status) {
        return CertificateSigningRequestCondition.newBuilder().setType(type).setStatus(status)
                .setReason("KubectlApprove").setMessage("This CSR was approved by kubectl certificate approve.").build();
    }

    private static CertificateSigningRequest withConditions(CertificateSigningRequest csr,
                                                            CertificateSigningRequestCondition... conditions) {
        CertificateSigningRequestStatus status = csr.getStatus() == null ? new CertificateSigningRequestStatus()
                : csr.getStatus();
        return CertificateSigningRequest.newBuilder(csr).setStatus(CertificateSigningRequestStatus.newBuilder(status)
                .setConditions(List.of(conditions)).build()).build();
    }
}
