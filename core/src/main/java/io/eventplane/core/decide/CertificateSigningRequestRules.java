package io.eventplane.core.decide;

import io.eventplane.core.meta.CertificateRequests;
import io.eventplane.log.StatusCause;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.model.certificates.CertificateSigningRequestCondition;
import io.eventplane.model.certificates.CertificateSigningRequestSpec;
import io.eventplane.model.certificates.CertificateSigningRequestStatus;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * certificates.k8s.io/v1 CertificateSigningRequest as Kubernetes 1.33's registry keeps it: the spec is written once
 * (an update keeps the stored spec, as the strategies' PrepareForUpdate do), the request must be a PEM CERTIFICATE
 * REQUEST whose signature verifies, usages come from the known set, the signer is {@code <domain>/<path>},
 * expirationSeconds is at least 600. The main resource changes metadata only, {@code status} the certificate and
 * conditions other than Approved/Denied, {@code approval} the conditions and nothing else; Approved/Denied/Failed are
 * never removed, Approved and Denied exclude each other, a certificate is set once.
 */
public final class CertificateSigningRequestRules implements KindRules<CertificateSigningRequest> {
    public static final String APPROVED = "Approved";
    public static final String DENIED = "Denied";
    public static final String FAILED = "Failed";
    static final List<String> USAGES = List.of("any", "client auth", "code signing", "content commitment",
            "crl sign", "data encipherment", "decipher only", "digital signature", "email protection",
            "encipher only", "ipsec end system", "ipsec tunnel", "ipsec user", "key agreement", "key encipherment",
            "microsoft sgc", "netscape sgc", "ocsp signing", "s/mime", "server auth", "signing", "timestamping",
            "cert sign");
    private static final List<String> SORTED_USAGES = USAGES.stream().sorted().toList();
    private static final List<String> TRUE_ONLY = List.of(APPROVED, DENIED, FAILED);
    private static final int MAX_DOMAIN = 253;
    private static final int MAX_SIGNER = MAX_DOMAIN + MAX_DOMAIN + 63 + 1 + 1;

    @Override
    public Optional<StatusCause> validateName(String name) {
        // "We don't care what you call your certificate requests": any name that is a path segment
        List<StatusCause> causes = new ArrayList<>();
        IngressRules.pathSegment("metadata.name", name, causes);
        return causes.stream().findFirst();
    }

    @Override
    public CertificateSigningRequest prepareForCreate(CertificateSigningRequest csr, Instant now) {
        // a new request has no status: approval and issuance come later, through their subresources
        return CertificateSigningRequest.newBuilder(csr).setStatus(null).build();
    }

    @Override
    public List<StatusCause> validate(CertificateSigningRequest csr) {
        List<StatusCause> causes = new ArrayList<>();
        CertificateSigningRequestSpec spec = csr.getSpec() == null ? new CertificateSigningRequestSpec() : csr.getSpec();
        try {
            CertificateRequests.parse(bytes(spec.getRequest()));
        } catch (IllegalArgumentException e) {
            causes.add(Causes.invalidShown("spec.request", "\"" + shortText(spec.getRequest()) + "\"", e.getMessage()));
        }
        List<String> usages = spec.getUsages() == null ? List.of() : spec.getUsages();
        if (usages.isEmpty()) {
            causes.add(Causes.required("spec.usages", "usages must be provided"));
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < usages.size(); i++) {
            String u = usages.get(i);
            if (!USAGES.contains(u)) {
                causes.add(Causes.notSupported("spec.usages[" + i + "]", u, SORTED_USAGES));
            }
            if (!seen.add(u)) {
                causes.add(Causes.duplicate("spec.usages[" + i + "]", u));
            }
        }
        if ("kubernetes.io/legacy-unknown".equals(spec.getSignerName())) {
            causes.add(Causes.invalid("spec.signerName", spec.getSignerName(),
                    "the legacy signerName is not allowed via this API version"));
        } else {
            signerName("spec.signerName", spec.getSignerName(), causes);
        }
        if (spec.getExpirationSeconds() != null && spec.getExpirationSeconds() < 600) {
            causes.add(Causes.invalid("spec.expirationSeconds", spec.getExpirationSeconds(),
                    "may not specify a duration less than 600 seconds (10 minutes)"));
        }
        conditions(conditionsOf(csr), causes);
        String problem = CertificateRequests.certificateProblem(certificateOf(csr));
        if (problem != null) {
            causes.add(Causes.invalidShown("status.certificate", "\"<certificate data>\"", problem));
        }
        return causes;
    }

    @Override
    public CertificateSigningRequest prepareForUpdate(CertificateSigningRequest old, CertificateSigningRequest updated) {
        return CertificateSigningRequest.newBuilder(updated).setSpec(old.getSpec()).build();
    }

    @Override
    public List<StatusCause> validateUpdate(CertificateSigningRequest old, CertificateSigningRequest updated) {
        return updateCauses(old, updated, false, false);
    }

    @Override
    public List<StatusCause> validateStatusUpdate(CertificateSigningRequest old, CertificateSigningRequest updated) {
        List<StatusCause> causes = new ArrayList<>(validate(updated));
        causes.addAll(updateCauses(old, updated, false, true));
        return causes;
    }

    @Override
    public CertificateSigningRequest approval(CertificateSigningRequest stored, CertificateSigningRequest written,
                                              Instant now) {
        CertificateSigningRequestStatus old = stored.getStatus() == null ? new CertificateSigningRequestStatus()
                : stored.getStatus();
        List<CertificateSigningRequestCondition> conditions = new ArrayList<>();
        for (CertificateSigningRequestCondition c : conditionsOf(written)) {
            CertificateSigningRequestCondition.Builder b = CertificateSigningRequestCondition.newBuilder(c);
            if (c.getLastUpdateTime() == null) {
                b.setLastUpdateTime(now);
            }
            if (c.getLastTransitionTime() == null) {
                // populateConditionTimestamps: kept from the stored condition of this type and status
                Instant transition = conditionsOf(stored).stream()
                        .filter(o -> Objects.equals(o.getType(), c.getType()) && Objects.equals(o.getStatus(), c.getStatus())
                                && o.getLastTransitionTime() != null)
                        .map(CertificateSigningRequestCondition::getLastTransitionTime).findFirst().orElse(now);
                b.setLastTransitionTime(transition);
            }
            conditions.add(b.build());
        }
        return CertificateSigningRequest.newBuilder(stored).setStatus(CertificateSigningRequestStatus.newBuilder(old)
                .setConditions(conditions.isEmpty() && old.getConditions() == null ? null : conditions).build()).build();
    }

    @Override
    public List<StatusCause> validateApproval(CertificateSigningRequest stored, CertificateSigningRequest next) {
        List<StatusCause> causes = new ArrayList<>(validate(next));
        causes.addAll(updateCauses(stored, next, true, false));
        return causes;
    }

    /** validateCertificateSigningRequestUpdate's checks of what an update path may change. */
    private static List<StatusCause> updateCauses(CertificateSigningRequest old, CertificateSigningRequest next,
                                                  boolean approvalAllowed, boolean certificateAllowed) {
        List<StatusCause> causes = new ArrayList<>();
        for (String t : TRUE_ONLY) {
            if (ofType(next, t).size() < ofType(old, t).size()) {
                causes.add(Causes.forbidden("status.conditions", "updates may not remove a condition of type \"" + t + "\""));
            }
        }
        if (!approvalAllowed) {
            for (String t : List.of(APPROVED, DENIED)) {
                List<CertificateSigningRequestCondition> before = ofType(old, t);
                List<CertificateSigningRequestCondition> after = ofType(next, t);
                if (after.size() > before.size()) {
                    causes.add(Causes.forbidden("status.conditions", "updates may not add a condition of type \"" + t + "\""));
                } else if (after.size() == before.size() && !after.equals(before)) {
                    causes.add(Causes.forbidden("status.conditions", "updates may not modify a condition of type \"" + t + "\""));
                }
            }
        }
        byte[] before = certificateOf(old);
        byte[] after = certificateOf(next);
        if (!java.util.Arrays.equals(before, after)) {
            if (!certificateAllowed) {
                causes.add(Causes.forbidden("status.certificate", "updates may not set certificate content"));
            } else if (before.length > 0) {
                causes.add(Causes.forbidden("status.certificate", "updates may not modify existing certificate content"));
            }
        }
        return causes;
    }

    /** validateConditions: types present and once each, True-only types True, Approved and Denied exclusive. */
    private static void conditions(List<CertificateSigningRequestCondition> conditions, List<StatusCause> causes) {
        Set<String> seen = new HashSet<>();
        boolean approved = false;
        boolean denied = false;
        for (int i = 0; i < conditions.size(); i++) {
            String f = "status.conditions[" + i + "]";
            CertificateSigningRequestCondition c = conditions.get(i);
            String type = c.getType() == null ? "" : c.getType();
            if (type.isEmpty()) {
                causes.add(Causes.required(f + ".type"));
            }
            List<String> allowed = TRUE_ONLY.contains(type) ? List.of("True") : List.of("False", "True", "Unknown");
            if (c.getStatus() == null || c.getStatus().isEmpty()) {
                causes.add(Causes.required(f + ".status"));
            } else if (!allowed.contains(c.getStatus())) {
                causes.add(Causes.notSupported(f + ".status", c.getStatus(), allowed));
            }
            if (type.equals(APPROVED)) {
                approved = true;
                if (denied) {
                    causes.add(Causes.invalid(f + ".type", type, "Approved and Denied conditions are mutually exclusive"));
                }
            } else if (type.equals(DENIED)) {
                denied = true;
                if (approved) {
                    causes.add(Causes.invalid(f + ".type", type, "Approved and Denied conditions are mutually exclusive"));
                }
            }
            if (!seen.add(type)) {
                causes.add(Causes.duplicate(f + ".type", type));
            }
        }
    }

    /** ValidateCertificateSigningRequestSignerName: {@code <fqdn>/<dotted subdomains>}, at most 571 characters. */
    static void signerName(String f, String signer, List<StatusCause> causes) {
        if (signer == null || signer.isEmpty()) {
            causes.add(Causes.required(f, "signerName must be provided"));
            return;
        }
        String[] segments = signer.split("/", -1);
        if (segments.length != 2) {
            causes.add(Causes.invalid(f, signer, "must be a fully qualified domain and path of the form 'example.com/signer-name'"));
            return;
        }
        if (segments[0].length() > MAX_DOMAIN) {
            causes.add(Causes.cause("FieldValueTooLong", f, f + ": Too long: may not be more than " + MAX_DOMAIN + " bytes"));
        }
        String[] domain = segments[0].split("\\.", -1);
        for (String label : domain) {
            List<String> problems = Formats.label(label);
            if (!problems.isEmpty()) {
                problems.forEach(m -> causes.add(Causes.invalid(f, segments[0], "validating label \"" + label + "\": " + m)));
                break;
            }
        }
        if (domain.length < 2) {
            causes.add(Causes.invalid(f, segments[0], "should be a domain with at least two segments separated by dots"));
        }
        for (String label : segments[1].split("\\.", -1)) {
            List<String> problems = Formats.subdomain(label);
            if (!problems.isEmpty()) {
                problems.forEach(m -> causes.add(Causes.invalid(f, segments[1], "validating label \"" + label + "\": " + m)));
                break;
            }
        }
        if (signer.length() > MAX_SIGNER) {
            causes.add(Causes.cause("FieldValueTooLong", f, f + ": Too long: may not be more than " + MAX_SIGNER + " bytes"));
        }
    }

    public static List<CertificateSigningRequestCondition> conditionsOf(CertificateSigningRequest csr) {
        return csr.getStatus() == null || csr.getStatus().getConditions() == null ? List.of()
                : csr.getStatus().getConditions();
    }

    private static List<CertificateSigningRequestCondition> ofType(CertificateSigningRequest csr, String type) {
        return conditionsOf(csr).stream().filter(c -> type.equals(c.getType())).toList();
    }

    /** status.certificate's bytes, empty when unset. */
    public static byte[] certificateOf(CertificateSigningRequest csr) {
        return csr.getStatus() == null ? new byte[0] : bytes(csr.getStatus().getCertificate());
    }

    public static byte[] bytes(ByteBuffer buffer) {
        if (buffer == null) {
            return new byte[0];
        }
        ByteBuffer b = buffer.duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** Go prints a []byte value as its text; a long request is cut as a message would be unreadable otherwise. */
    private static String shortText(ByteBuffer request) {
        String s = new String(bytes(request), java.nio.charset.StandardCharsets.UTF_8);
        return s.length() > 64 ? s.substring(0, 64) + "..." : s;
    }
}
