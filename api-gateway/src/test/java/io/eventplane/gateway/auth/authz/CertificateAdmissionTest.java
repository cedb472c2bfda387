package io.eventplane.gateway.auth.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.client.ObjectView;
import io.eventplane.client.pki.CertificateAuthority;
import io.eventplane.core.meta.CertificateRequests;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.model.certificates.CertificateSigningRequestCondition;
import io.eventplane.model.certificates.CertificateSigningRequestSpec;
import io.eventplane.model.certificates.CertificateSigningRequestStatus;
import io.eventplane.model.rbac.ClusterRole;
import io.eventplane.model.rbac.ClusterRoleBinding;
import io.eventplane.model.rbac.PolicyRule;
import io.eventplane.model.rbac.RoleRef;
import io.eventplane.model.rbac.Subject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** kube-apiserver's CertificateApproval, CertificateSigning and CertificateSubjectRestriction over RBAC. */
class CertificateAdmissionTest {
    private static final String CLIENT = CertificateAdmission.KUBE_APISERVER_CLIENT;
    private static final UserInfo ALICE = new UserInfo("alice", "", List.of("system:authenticated"), Map.of());

    private static CertificateAdmission admission(SpecificRecord... extra) {
        List<SpecificRecord> objects = new ArrayList<>(BootstrapPolicy.all());
        objects.addAll(List.of(extra));
        ObjectStore store = ObjectStore.of(objects);
        store.addIndex(ObjectView.PODS_BY_NODE, "Pod", c -> ((Pod) c.getObject()).getSpec().getNodeName());
        return new CertificateAdmission(new Authorization(store, true));
    }

    /** A ClusterRole with one rule on signers (named, or all when none), and its binding to alice. */
    private static SpecificRecord[] signers(String verb, String... names) {
        PolicyRule rule = PolicyRule.newBuilder().setVerbs(List.of(verb)).setApiGroups(List.of("certificates.k8s.io"))
                .setResources(List.of("signers")).setResourceNames(names.length == 0 ? null : List.of(names)).build();
        ClusterRole role = ClusterRole.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("signers").build())
                .setRules(List.of(rule)).build();
        return new SpecificRecord[] {role, bound("signers")};
    }

    private static ClusterRoleBinding bound(String clusterRole) {
        return ClusterRoleBinding.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("alice-" + clusterRole).build())
                .setRoleRef(RoleRef.newBuilder().setApiGroup("rbac.authorization.k8s.io").setKind("ClusterRole")
                        .setName(clusterRole).build())
                .setSubjects(List.of(Subject.newBuilder().setKind("User").setApiGroup("rbac.authorization.k8s.io")
                        .setName("alice").build())).build();
    }

    private static CertificateSigningRequest csr(String signer, List<String> organizations) {
        String pem = CertificateRequests.create(CertificateAuthority.newKeyPair(), "jane", organizations);
        return CertificateSigningRequest.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("jane").build())
                .setSpec(CertificateSigningRequestSpec.newBuilder().setSignerName(signer)
                        .setRequest(ByteBuffer.wrap(pem.getBytes(StandardCharsets.UTF_8))).build()).build();
    }

    private static CertificateSigningRequest withStatus(CertificateSigningRequest csr, String certificate,
                                                        String condition) {
        CertificateSigningRequestStatus.Builder status = CertificateSigningRequestStatus.newBuilder();
        if (certificate != null) {
            status.setCertificate(ByteBuffer.wrap(certificate.getBytes(StandardCharsets.UTF_8)));
        }
        if (condition != null) {
            status.setConditions(List.of(CertificateSigningRequestCondition.newBuilder().setType(condition)
                    .setStatus("True").build()));
        }
        return CertificateSigningRequest.newBuilder(csr).setStatus(status.build()).build();
    }

    private static String refusal(Executable admit) {
        ApiException e = assertThrows(ApiException.class, admit);
        assertEquals(403, e.status().code());
        return e.status().message();
    }

    @Test
    @DisplayName("CRD-45 CertificateApproval: updating approval needs approve on signers, by the stored request's "
            + "signerName or its domain's wildcard; Kubernetes' 403 otherwise")
    void approval() {
        CertificateSigningRequest request = csr(CLIENT, List.of("devs"));
        assertEquals("certificatesigningrequests.certificates.k8s.io \"jane\" is forbidden: user not permitted to "
                + "approve requests with signerName \"kubernetes.io/kube-apiserver-client\"",
                refusal(() -> admission().admitApproval(ALICE, request)));
        admission(signers("approve", CLIENT)).admitApproval(ALICE, request);
        admission(signers("approve", "kubernetes.io/*")).admitApproval(ALICE, request);
        admission(signers("approve")).admitApproval(ALICE, request);
        refusal(() -> admission(signers("sign", CLIENT)).admitApproval(ALICE, request));
        refusal(() -> admission(signers("approve", "example.com/*")).admitApproval(ALICE, request));
        refusal(() -> admission(signers("approve", CLIENT)).admitApproval(ALICE, csr("example.com/other", List.of())));
    }

    @Test
    @DisplayName("CRD-46 the bootstrap approver roles (system:certificates.k8s.io:<signer>-approver) grant approve on "
            + "their own signer only; system:kube-controller-manager signs for the built-in signers")
    void bootstrapRoles() {
        admission(bound("system:certificates.k8s.io:kube-apiserver-client-approver"))
                .admitApproval(ALICE, csr(CLIENT, List.of()));
        refusal(() -> admission(bound("system:certificates.k8s.io:kube-apiserver-client-approver"))
                .admitApproval(ALICE, csr("kubernetes.io/kubelet-serving", List.of())));
        admission(bound("system:certificates.k8s.io:kubelet-serving-approver"))
                .admitApproval(ALICE, csr("kubernetes.io/kubelet-serving", List.of()));
        List<String> names = BootstrapPolicy.clusterRoles().stream().map(r -> r.getMetadata().getName()).toList();
        assertTrue(names.containsAll(List.of("system:certificates.k8s.io:legacy-unknown-approver",
                "system:certificates.k8s.io:kube-apiserver-client-kubelet-approver",
                "system:certificates.k8s.io:certificatesigningrequests:nodeclient",
                "system:certificates.k8s.io:certificatesigningrequests:selfnodeclient")), names.toString());
        UserInfo kcm = new UserInfo("system:kube-controller-manager", "", List.of("system:authenticated"), Map.of());
        CertificateAdmission a = admission();
        assertTrue(a.mayActOn(kcm, "sign", CLIENT));
        assertTrue(a.mayActOn(kcm, "sign", "kubernetes.io/kubelet-serving"));
        assertTrue(!a.mayActOn(kcm, "sign", "example.com/other"));
        assertTrue(a.mayActOn(kcm, "approve", "kubernetes.io/kube-apiserver-client-kubelet"));
        assertTrue(!a.mayActOn(kcm, "approve", CLIENT));
    }

    @Test
    @DisplayName("CRD-47 CertificateSigning: a status update that sets the certificate or changes the conditions needs "
            + "sign on signers; one that changes neither passes")
    void signing() {
        CertificateSigningRequest approved = withStatus(csr(CLIENT, List.of()), null, "Approved");
        CertificateSigningRequest issued = withStatus(approved, "-----BEGIN CERTIFICATE-----", "Approved");
        assertEquals("certificatesigningrequests.certificates.k8s.io \"jane\" is forbidden: user not permitted to "
                + "sign requests with signerName \"kubernetes.io/kube-apiserver-client\"",
                refusal(() -> admission().admitStatus(ALICE, approved, issued)));
        refusal(() -> admission().admitStatus(ALICE, approved, withStatus(approved, null, "Failed")));
        admission().admitStatus(ALICE, approved, CertificateSigningRequest.newBuilder(approved).build());
        admission(signers("sign", CLIENT)).admitStatus(ALICE, approved, issued);
        admission(signers("sign", "kubernetes.io/*")).admitStatus(ALICE, approved, issued);
        refusal(() -> admission(signers("approve", CLIENT)).admitStatus(ALICE, approved, issued));
    }

    @Test
    @DisplayName("CRD-48 CertificateSubjectRestriction: a request to kubernetes.io/kube-apiserver-client with O="
            + "system:masters is refused at create; other groups and other signers pass")
    void subjectRestriction() {
        CertificateAdmission a = admission(signers("approve")); // permissions do not matter here
        assertEquals("certificatesigningrequests.certificates.k8s.io \"jane\" is forbidden: use of "
                + "kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed",
                refusal(() -> a.admitCreate(ALICE, "jane", csr(CLIENT, List.of("devs", "system:masters")))));
        a.admitCreate(ALICE, "jane", csr(CLIENT, List.of("devs")));
        a.admitCreate(ALICE, "jane", csr("example.com/other", List.of("system:masters")));
        CertificateSigningRequest garbled = CertificateSigningRequest.newBuilder(csr(CLIENT, List.of()))
                .setSpec(CertificateSigningRequestSpec.newBuilder().setSignerName(CLIENT)
                        .setRequest(ByteBuffer.wrap("not a request".getBytes(StandardCharsets.UTF_8))).build()).build();
        a.admitCreate(ALICE, "jane", garbled); // left to validation, which refuses it 422
    }
}
