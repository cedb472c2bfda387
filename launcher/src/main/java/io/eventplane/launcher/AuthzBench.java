package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.gateway.api.RequestUser;
import io.eventplane.gateway.auth.authz.Authorization;
import io.eventplane.topology.WriterService;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

/**
 * {@code eventplane bench authz}: the API's single-object create latency with authorization on and off. Two gateways
 * serve one log, one with {@code EVENTPLANE_AUTHORIZATION_MODE=AlwaysAllow}; a user bound to {@code edit} in one
 * namespace (among {@code --bindings} other bindings) creates ConfigMaps one at a time through each, in alternating
 * rounds so that both see the same writer and JIT. The user is named the test-only way ({@link RequestUser}) until
 * authentication lands.
 */
final class AuthzBench {
    private static final String USER = "bencher";
    private static final String MODE_PROPERTY = Authorization.MODE_SETTING.toLowerCase().replace('_', '.');
    private static final String IDENTITIES_PROPERTY = RequestUser.TEST_IDENTITIES.toLowerCase().replace('_', '.');

    private AuthzBench() {
    }

    static void run(EventplaneConfig config, Path work, int creates, int bindings, PrintStream out) throws Exception {
        System.setProperty(IDENTITIES_PROPERTY, "true");
        try (WriterService writer = new WriterService(config, work.resolve("authz-writer"), 20).start()) {
            System.setProperty(MODE_PROPERTY, "AlwaysAllow");
            GatewayServer off = GatewayServer.start(config, 0, "127.0.0.1");
            System.clearProperty(MODE_PROPERTY);
            GatewayServer on = GatewayServer.start(config, 0, "127.0.0.1");
            try {
                HttpClient http = HttpClient.newHttpClient();
                post(http, on.url() + "/api/v1/namespaces", null, "{\"metadata\":{\"name\":\"bench\"}}");
                for (int i = 0; i < bindings; i++) {
                    post(http, on.url() + "/apis/rbac.authorization.k8s.io/v1/namespaces/bench/rolebindings", null,
                            binding("other-" + i, "user-" + i));
                }
                post(http, on.url() + "/apis/rbac.authorization.k8s.io/v1/namespaces/bench/rolebindings", null,
                        binding("bencher-edit", USER));
                int rounds = 10;
                int perRound = Math.max(1, creates / rounds);
                long[] tOff = new long[perRound * rounds];
                long[] tOn = new long[perRound * rounds];
                // warm both paths up first
                create(http, off, "warm-off-", 0, new long[200]);
                create(http, on, "warm-on-", 0, new long[200]);
                for (int r = 0; r < rounds; r++) {
                    long[] a = new long[perRound];
                    long[] b = new long[perRound];
                    create(http, off, "off-" + r + "-", 0, a);
                    create(http, on, "on-" + r + "-", 0, b);
                    System.arraycopy(a, 0, tOff, r * perRound, perRound);
                    System.arraycopy(b, 0, tOn, r * perRound, perRound);
                }
                Arrays.sort(tOff);
                Arrays.sort(tOn);
                out.printf("authz: create one ConfigMap, authorization off (AlwaysAllow): p50 %.1f ms, p99 %.1f ms (n=%d)%n",
                        BenchCommand.pct(tOff, 50), BenchCommand.pct(tOff, 99), tOff.length);
                out.printf("authz: create one ConfigMap, authorization on (Node,RBAC; %d bindings): p50 %.1f ms, "
                        + "p99 %.1f ms (n=%d)%n", bindings + 1, BenchCommand.pct(tOn, 50), BenchCommand.pct(tOn, 99),
                        tOn.length);
                out.printf("authz: p99 on/off = %.2f, p50 on/off = %.2f%n",
                        BenchCommand.pct(tOn, 99) / BenchCommand.pct(tOff, 99),
                        BenchCommand.pct(tOn, 50) / BenchCommand.pct(tOff, 50));
            } finally {
                on.close();
                off.close();
            }
        } finally {
            System.clearProperty(IDENTITIES_PROPERTY);
        }
    }

    private static String binding(String name, String user) {
        return "{\"metadata\":{\"name\":\"" + name + "\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                + "\"kind\":\"ClusterRole\",\"name\":\"edit\"},\"subjects\":[{\"kind\":\"User\",\"name\":\"" + user
                + "\"}]}";
    }

    private static void create(HttpClient http, GatewayServer gateway, String prefix, int from, long[] times)
            throws Exception {
        for (int i = 0; i < times.length; i++) {
            long s = System.nanoTime();
            post(http, gateway.url() + "/api/v1/namespaces/bench/configmaps", USER,
                    "{\"metadata\":{\"name\":\"" + prefix + (from + i) + "\"},\"data\":{\"k\":\"v\"}}");
            times[i] = System.nanoTime() - s;
        }
    }

    private static void post(HttpClient http, String url, String user, String json) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(json));
        if (user != null) {
            b.header("Impersonate-User", user);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 201) {
            throw new IllegalStateException(url + ": HTTP " + r.statusCode() + " " + r.body());
        }
    }
}
