package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.pki.ClusterPki;
import io.eventplane.client.pki.TlsContexts;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.gateway.alloc.ServiceNetwork;
import io.eventplane.gateway.auth.authn.GatewaySecurity;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code eventplane bench api}: one object's create through the API (POST a ConfigMap, one at a time, answered once
 * the writer decided and the view shows it), on a gateway with plain HTTP and no authentication against one with TLS
 * and a bearer token and one with TLS and a client certificate, on the same log; the p99 ratio is what
 * authentication costs (authorization adds its own later).
 */
final class ApiAuthBench {
    private static final String TOKEN = "bench-token-0123456789";

    private ApiAuthBench() {
    }

    static void run(EventplaneConfig config, Path work, int creates, PrintStream out) throws Exception {
        ClusterPki pki = ClusterPki.loadOrCreate(work.resolve("pki"), List.of());
        Path tokens = Files.writeString(work.resolve("tokens.csv"), TOKEN + ",bench,1,system:masters\n");
        try (WriterService writer = new WriterService(config, work.resolve("writer"), 20).start();
             GatewayServer open = GatewayServer.start(config, 0, "127.0.0.1");
             GatewayServer secured = GatewayServer.start(config, 0, "127.0.0.1", ServiceNetwork.fromEnvironment(),
                     Map.of(), GatewaySecurity.tls(pki).withTokenFile(tokens))) {
            while (!writer.isReady()) {
                Thread.sleep(50);
            }
            HttpClient plain = HttpClient.newHttpClient();
            HttpClient tls = HttpClient.newBuilder().sslContext(TlsContexts.client(pki.caPem(), null, null)).build();
            HttpClient cert = HttpClient.newBuilder().sslContext(TlsContexts.client(pki.caPem(),
                    pki.admin().certificatePem(), pki.admin().keyPem())).build();
            // warm both paths (JIT, connections) before measuring; rounds alternate so drift hits each alike
            int warm = Math.min(200, creates);
            measure(plain, open.url(), null, "warm-open", warm);
            measure(tls, secured.url(), TOKEN, "warm-token", warm);
            measure(cert, secured.url(), null, "warm-cert", warm);
            double[][] off = new double[3][];
            double[][] token = new double[3][];
            double[][] certificate = new double[3][];
            for (int round = 0; round < 3; round++) {
                off[round] = measure(plain, open.url(), null, "off" + round, creates / 3);
                token[round] = measure(tls, secured.url(), TOKEN, "token" + round, creates / 3);
                certificate[round] = measure(cert, secured.url(), null, "cert" + round, creates / 3);
            }
            Percentiles a = Percentiles.of(concat(off));
            Percentiles b = Percentiles.of(concat(token));
            Percentiles c = Percentiles.of(concat(certificate));
            out.printf("single-object create (ConfigMap), one at a time, n=%d each%n", a.count());
            out.printf("  authentication off (HTTP):          p50 %.1f ms  p99 %.1f ms%n", a.p50(), a.p99());
            out.printf("  TLS + bearer token:                 p50 %.1f ms  p99 %.1f ms  (p99 ratio %.2f)%n", b.p50(),
                    b.p99(), b.p99() / a.p99());
            out.printf("  TLS + client certificate:           p50 %.1f ms  p99 %.1f ms  (p99 ratio %.2f)%n", c.p50(),
                    c.p99(), c.p99() / a.p99());
        }
    }

    private static double[] measure(HttpClient client, String url, String token, String prefix, int n)
            throws Exception {
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + "/api/v1/namespaces/default/configmaps"))
                    .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"metadata\":{\"name\":\"" + prefix + "-" + i
                            + "\"},\"data\":{\"k\":\"v\"}}"));
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            long t0 = System.nanoTime();
            HttpResponse<Void> r = client.send(b.build(), HttpResponse.BodyHandlers.discarding());
            ms[i] = (System.nanoTime() - t0) / 1e6;
            if (r.statusCode() != 201) {
                throw new IllegalStateException("create " + prefix + "-" + i + " answered " + r.statusCode());
            }
        }
        return ms;
    }

    private static double[] concat(double[][] parts) {
        return java.util.Arrays.stream(parts).flatMapToDouble(java.util.Arrays::stream).toArray();
    }
}
