package io.eventplane.gateway.auth.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.gateway.auth.UserInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Request attributes read from the method, path and query as kube-apiserver's RequestInfoFactory reads them. */
class AttributesTest {
    private static final UserInfo ALICE = new UserInfo("alice", "", List.of("system:authenticated"), Map.of());

    static Stream<Arguments> requests() {
        return Stream.of(
                // method, path, query, expected: verb resource? group resource subresource namespace name | path
                Arguments.of("GET", "/api/v1/namespaces/ns/pods", "", "list R  pods  ns "),
                Arguments.of("GET", "/api/v1/namespaces/ns/pods", "watch=true", "watch R  pods  ns "),
                Arguments.of("GET", "/api/v1/watch/namespaces/ns/pods", "", "watch R  pods  ns "),
                Arguments.of("GET", "/api/v1/namespaces/ns/pods", "fieldSelector=metadata.name=web", "list R  pods  ns web"),
                Arguments.of("GET", "/api/v1/namespaces/ns/pods/web", "", "get R  pods  ns web"),
                Arguments.of("HEAD", "/api/v1/namespaces/ns/pods/web", "", "get R  pods  ns web"),
                Arguments.of("GET", "/api/v1/namespaces/ns/pods/web/log", "", "get R  pods log ns web"),
                Arguments.of("POST", "/api/v1/namespaces/ns/pods/web/eviction", "", "create R  pods eviction ns web"),
                Arguments.of("POST", "/api/v1/namespaces/ns/pods/web/binding", "", "create R  pods binding ns web"),
                Arguments.of("PUT", "/api/v1/namespaces/ns/pods/web/status", "", "update R  pods status ns web"),
                Arguments.of("PATCH", "/apis/apps/v1/namespaces/ns/deployments/d/scale", "", "patch R apps deployments scale ns d"),
                Arguments.of("POST", "/apis/apps/v1/namespaces/ns/deployments", "", "create R apps deployments  ns "),
                Arguments.of("DELETE", "/api/v1/namespaces/ns/pods", "", "deletecollection R  pods  ns "),
                Arguments.of("DELETE", "/api/v1/namespaces/ns/pods/web", "", "delete R  pods  ns web"),
                Arguments.of("GET", "/api/v1/pods", "", "list R  pods   "),
                Arguments.of("GET", "/api/v1/nodes/n1", "", "get R  nodes   n1"),
                Arguments.of("PATCH", "/api/v1/nodes/n1/status", "", "patch R  nodes status  n1"),
                Arguments.of("GET", "/api/v1/namespaces/ns", "", "get R  namespaces  ns ns"),
                Arguments.of("PUT", "/api/v1/namespaces/ns/finalize", "", "update R  namespaces finalize ns ns"),
                Arguments.of("GET", "/api/v1/namespaces", "", "list R  namespaces   "),
                Arguments.of("GET", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1", "",
                        "get R coordination.k8s.io leases  kube-node-lease n1"),
                Arguments.of("GET", "/healthz", "", "get N /healthz"),
                Arguments.of("GET", "/version", "", "get N /version"),
                Arguments.of("GET", "/api", "", "get N /api"),
                Arguments.of("GET", "/api/v1", "", "get N /api/v1"),
                Arguments.of("GET", "/apis", "", "get N /apis"),
                Arguments.of("GET", "/apis/apps/v1", "", "get N /apis/apps/v1"),
                Arguments.of("GET", "/openapi/v3/apis/apps/v1", "", "get N /openapi/v3/apis/apps/v1"),
                Arguments.of("POST", "/logs", "", "post N /logs"));
    }

    @ParameterizedTest(name = "{0} {1}?{2} -> {3}")
    @MethodSource("requests")
    void parses(String method, String path, String query, String expected) {
        Map<String, List<String>> params = new HashMap<>();
        if (!query.isEmpty()) {
            String[] kv = query.split("=", 2);
            params.put(kv[0], List.of(kv[1]));
        }
        Attributes a = Attributes.of(ALICE, method, path, params);
        String shown = a.resourceRequest()
                ? String.join(" ", a.verb(), "R", a.apiGroup(), a.resource(), a.subresource(), a.namespace(), a.name())
                : String.join(" ", a.verb(), "N", a.path());
        assertEquals(expected, shown);
    }
}
