package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.pki.CertificateAuthority;
import io.eventplane.client.pki.ClusterPki;
import io.eventplane.client.pki.TlsContexts;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.gateway.alloc.ServiceNetwork;
import io.eventplane.gateway.auth.authn.GatewaySecurity;
import io.eventplane.testkit.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A gateway as {@code eventplane up} serves it (TLS with a cluster CA, credentials required) for tests: kubeconfigs
 * and HTTP clients for each kind of credential (client certificate, static token, any bearer token).
 */
final class SecureGateway implements AutoCloseable {
    private final Path dir;
    private final ClusterPki pki;
    private final GatewayServer gateway;

    private SecureGateway(Path dir, ClusterPki pki, GatewayServer gateway) {
        this.dir = dir;
        this.pki = pki;
        this.gateway = gateway;
    }

    /** Starts a TLS gateway on {@code config}'s log; {@code tokenCsv} (the static token file) may be null. */
    static SecureGateway start(EventplaneConfig config, Path dir, String tokenCsv) throws IOException {
        ClusterPki pki = ClusterPki.loadOrCreate(dir.resolve("pki"), List.of());
        GatewaySecurity security = GatewaySecurity.tls(pki);
        if (tokenCsv != null) {
            Path tokens = Files.writeString(dir.resolve("tokens.csv"), tokenCsv);
            security = security.withTokenFile(tokens);
        }
        return new SecureGateway(dir, pki, GatewayServer.start(config, FreePorts.next(), "127.0.0.1",
                ServiceNetwork.fromEnvironment(), Map.of(), security));
    }

    GatewayServer gateway() {
        return gateway;
    }

    ClusterPki pki() {
        return pki;
    }

    String url() {
        return gateway.url();
    }

    /** A client certificate from the cluster CA: CN = user, O = groups. */
    Kubeconfig.Credential certificate(String user, String... groups) {
        CertificateAuthority.Credential c = pki.ca().issueClient(user, List.of(groups), Duration.ofHours(1));
        return Kubeconfig.Credential.certificate(c.certificatePem(), c.keyPem());
    }

    /** kubectl as {@code credential}, its HOME and kubeconfig in a directory of its own. */
    Kubectl kubectl(String name, Kubeconfig.Credential credential) throws IOException {
        Path home = Files.createDirectories(dir.resolve("kubectl-" + name));
        Kubeconfig.write(home.resolve("kubeconfig"), url(), pki.caPem(), credential, name);
        return new Kubectl(home);
    }

    /** The API over TLS as {@code credential}. */
    Http http(Kubeconfig.Credential credential) {
        return new Http(url(), TlsContexts.client(pki.caPem(), credential.clientCertificatePem(),
                credential.clientKeyPem()), credential.token());
    }

    /** The admin of {@code up}'s kubeconfig: kubernetes-admin in system:masters. */
    Kubeconfig.Credential admin() {
        return Kubeconfig.Credential.certificate(pki.admin().certificatePem(), pki.admin().keyPem());
    }

    @Override
    public void close() {
        gateway.close();
    }
}
