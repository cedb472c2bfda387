package io.eventplane.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.gateway.api.ApiRequest;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.auth.authz.Attributes;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which RBAC reads each of the console's views needs (issue 23). */
class ConsoleAccessTest {
    private static final UserInfo BOB = new UserInfo("bob", "", List.of("system:authenticated"), Map.of());

    @ParameterizedTest(name = "{0} needs {1}")
    @CsvSource(delimiter = '|', value = {
            "/ui/api/overview                         | list nodes, list pods",
            "/ui/api/nodes                            | list nodes",
            "/ui/api/pods?namespace=team              | list pods in team",
            "/ui/api/pods                             | list pods",
            "/ui/api/events?namespace=team            | list events in team",
            "/ui/api/workloads                        | list batch/cronjobs, list apps/daemonsets, list apps/deployments, "
                    + "list batch/jobs, list apps/replicasets, list replicationcontrollers, list apps/statefulsets",
            "/ui/api/object/Pod/team/web              | get pods in team web",
            "/ui/api/history/Node/_/n1                | get nodes n1",
            "/ui/api/audit                            | list eventplane.io/audit",
            "/ui/api/changes                          | ''",
            "/ui/api/loadtests                        | get /ui/api/loadtests",
    })
    void reads(String url, String expected) {
        String path = url.contains("?") ? url.substring(0, url.indexOf('?')) : url;
        Map<String, List<String>> query = url.contains("?namespace=")
                ? Map.of("namespace", List.of(url.substring(url.indexOf('=') + 1))) : Map.of();
        ApiRequest request = new ApiRequest("GET", path, query, Map.of(), null).withUser(BOB, null);
        List<String> parts = List.of(path.substring("/ui/api/".length()).split("/"));
        String reads = ConsoleAccess.reads(BOB, request, parts).stream().map(ConsoleAccessTest::describe)
                .collect(Collectors.joining(", "));
        assertEquals(expected == null ? "" : expected, reads);
    }

    private static String describe(Attributes a) {
        if (!a.resourceRequest()) {
            return a.verb() + " " + a.path();
        }
        return a.verb() + " " + (a.apiGroup().isEmpty() ? "" : a.apiGroup() + "/") + a.resource()
                + (a.namespace().isEmpty() ? "" : " in " + a.namespace()) + (a.name().isEmpty() ? "" : " " + a.name());
    }
}
