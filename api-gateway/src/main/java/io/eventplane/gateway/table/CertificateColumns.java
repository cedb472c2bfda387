package io.eventplane.gateway.table;

import static io.eventplane.gateway.table.KindColumns.age;
import static io.eventplane.gateway.table.KindColumns.name;
import static io.eventplane.gateway.table.KindColumns.row;

import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.model.certificates.CertificateSigningRequestCondition;
import io.eventplane.model.certificates.CertificateSigningRequestSpec;
import java.time.Duration;
import java.util.List;

/** kubectl's printer for CertificateSigningRequest (pkg/printers/internalversion). */
final class CertificateColumns {
    private CertificateColumns() {
    }

    /** NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION. */
    static final Columns CERTIFICATE_SIGNING_REQUEST = new KindColumns(List.of(Column.nameColumn(),
            Column.ageColumn(),
            Column.of("SignerName", "Name of the signer that will sign the certificate"),
            Column.of("Requestor", "Name of the user that requested the certificate"),
            Column.of("RequestedDuration", "Duration of the certificate as requested by the requestor"),
            Column.of("Condition", "State of the request (Pending, Approved, Denied, Failed, Issued)")), (o, now) -> {
                CertificateSigningRequest csr = (CertificateSigningRequest) o;
                CertificateSigningRequestSpec spec = csr.getSpec() == null ? new CertificateSigningRequestSpec()
                        : csr.getSpec();
                String signer = spec.getSignerName() == null || spec.getSignerName().isEmpty() ? "<none>"
                        : spec.getSignerName();
                String requested = spec.getExpirationSeconds() == null ? "<none>"
                        : Ages.human(Duration.ofSeconds(spec.getExpirationSeconds()));
                return row(name(csr), age(csr, now), signer, spec.getUsername() == null ? "" : spec.getUsername(),
                        requested, condition(csr));
            });

    /** extractCSRStatus: Denied over Approved over Pending, then ,Failed and ,Issued. */
    static String condition(CertificateSigningRequest csr) {
        boolean approved = false;
        boolean denied = false;
        boolean failed = false;
        List<CertificateSigningRequestCondition> conditions = csr.getStatus() == null
                || csr.getStatus().getConditions() == null ? List.of() : csr.getStatus().getConditions();
        for (CertificateSigningRequestCondition c : conditions) {
            switch (String.valueOf(c.getType())) {
                case "Approved" -> approved = true;
                case "Denied" -> denied = true;
                case "Failed" -> failed = true;
                default -> { }
            }
        }
        String status = denied ? "Denied" : approved ? "Approved" : "Pending";
        if (failed) {
            status += ",Failed";
        }
        if (csr.getStatus() != null && csr.getStatus().getCertificate() != null
                && csr.getStatus().getCertificate().remaining() > 0) {
            status += ",Issued";
        }
        return status;
    }
}
