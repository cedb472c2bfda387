package io.eventplane.gateway.auth.authz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.model.rbac.PolicyRule;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One rule against one request, as RBAC's RuleAllows matches them. */
class PolicyRulesTest {
    private static final UserInfo U = new UserInfo("u", "", List.of(), Map.of());

    private static PolicyRule rule(String verbs, String groups, String resources, String names) {
        return PolicyRule.newBuilder().setVerbs(split(verbs)).setApiGroups(split(groups)).setResources(split(resources))
                .setResourceNames(names.isEmpty() ? null : split(names)).build();
    }

    private static PolicyRule urls(String verbs, String urls) {
        return PolicyRule.newBuilder().setVerbs(split(verbs)).setNonResourceURLs(split(urls)).build();
    }

    private static List<String> split(String s) {
        return s.equals("-") ? List.of("") : List.of(s.split(","));
    }

    private static Attributes res(String verb, String group, String resource, String sub, String name) {
        return Attributes.resource(U, verb, group, resource, sub, "ns", name);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("exact verb, core group, resource", rule("get,list", "-", "pods", ""), res("list", "", "pods", "", ""), true),
                Arguments.of("verb not listed", rule("get,list", "-", "pods", ""), res("delete", "", "pods", "", "x"), false),
                Arguments.of("* verbs", rule("*", "-", "pods", ""), res("deletecollection", "", "pods", "", ""), true),
                Arguments.of("other group", rule("get", "-", "deployments", ""), res("get", "apps", "deployments", "", "d"), false),
                Arguments.of("* groups", rule("get", "*", "deployments", ""), res("get", "apps", "deployments", "", "d"), true),
                Arguments.of("* resources", rule("get", "apps", "*", ""), res("get", "apps", "statefulsets", "", "s"), true),
                Arguments.of("* resources cover subresources", rule("get", "-", "*", ""), res("get", "", "pods", "log", "p"), true),
                Arguments.of("a resource does not cover its subresource", rule("get", "-", "pods", ""), res("get", "", "pods", "log", "p"), false),
                Arguments.of("resource/subresource", rule("get", "-", "pods/log", ""), res("get", "", "pods", "log", "p"), true),
                Arguments.of("*/subresource", rule("update", "*", "*/status", ""), res("update", "apps", "deployments", "status", "d"), true),
                Arguments.of("*/subresource needs that subresource", rule("update", "*", "*/status", ""), res("update", "apps", "deployments", "scale", "d"), false),
                Arguments.of("*/subresource is not the resource", rule("update", "*", "*/status", ""), res("update", "apps", "deployments", "", "d"), false),
                Arguments.of("resourceNames: that name", rule("get,update", "-", "configmaps", "a,b"), res("update", "", "configmaps", "", "b"), true),
                Arguments.of("resourceNames: another name", rule("get", "-", "configmaps", "a"), res("get", "", "configmaps", "", "c"), false),
                Arguments.of("resourceNames never cover a collection", rule("list", "-", "configmaps", "a"), res("list", "", "configmaps", "", ""), false),
                Arguments.of("URL exact", urls("get", "/healthz"), Attributes.nonResource(U, "get", "/healthz"), true),
                Arguments.of("URL other", urls("get", "/healthz"), Attributes.nonResource(U, "get", "/livez"), false),
                Arguments.of("URL prefix *", urls("get", "/apis/*"), Attributes.nonResource(U, "get", "/apis/apps/v1"), true),
                Arguments.of("URL prefix * not the bare path", urls("get", "/apis/*"), Attributes.nonResource(U, "get", "/apis"), false),
                Arguments.of("URL *", urls("*", "*"), Attributes.nonResource(U, "post", "/anything"), true),
                Arguments.of("URL rule never covers resources", urls("*", "*"), res("get", "", "pods", "", "p"), false),
                Arguments.of("resource rule never covers URLs", rule("*", "*", "*", ""), Attributes.nonResource(U, "get", "/healthz"), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matches(String name, PolicyRule rule, Attributes request, boolean allowed) {
        assertEquals(allowed, PolicyRules.allows(request, rule));
    }
}
