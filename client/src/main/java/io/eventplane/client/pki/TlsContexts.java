package io.eventplane.client.pki;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** A client's TLS context from kubeconfig material: trust the cluster CA, present a client certificate if given. */
public final class TlsContexts {
    private TlsContexts() {
    }

    /**
     * @param caPem   the CA the server's certificate must chain to
     * @param certPem the client certificate, or null for none
     * @param keyPem  its private key, or null
     */
    public static SSLContext client(String caPem, String certPem, String keyPem) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            int i = 0;
            for (Certificate c : Pem.certificates(caPem)) {
                trust.setCertificateEntry("ca-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            KeyManagerFactory kmf = null;
            if (certPem != null && keyPem != null) {
                char[] pw = "client".toCharArray();
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                keys.setKeyEntry("client", Pem.privateKey(keyPem), pw,
                        Pem.certificates(certPem).toArray(Certificate[]::new));
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, pw);
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot set up TLS from the given certificates: " + e, e);
        }
    }
}
