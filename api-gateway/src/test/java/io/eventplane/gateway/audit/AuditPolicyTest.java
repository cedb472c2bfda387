package io.eventplane.gateway.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AuditPolicyTest {
    private static final String POLICY = """
            apiVersion: audit.k8s.io/v1
            kind: Policy
            rules:
            - level: None
              users: ["system:kube-proxy"]
            - level: None
              verbs: ["get", "list", "watch"]
            - level: Metadata
              resources:
              - group: ""
                resources: ["pods/status", "pods/binding"]
            - level: Request
              resources:
              - group: "apps"
                resources: ["*"]
              namespaces: ["prod"]
            - level: RequestResponse
              resources:
              - group: ""
                resources: ["pods"]
                resourceNames: ["web"]
            - level: Metadata
            """;

    private static AuditPolicy.Request req(String user, String verb, String group, String resource, String sub,
                                           String ns, String name) {
        return new AuditPolicy.Request(user, verb, group, resource, sub, ns, name);
    }

    @Test
    @DisplayName("the first matching rule decides the level, as kube-apiserver evaluates a Policy")
    void firstMatchWins() {
        AuditPolicy p = AuditPolicy.parse(POLICY);
        assertEquals(AuditLevel.None, p.levelOf(req("system:kube-proxy", "update", "", "pods", null, "a", "x")));
        assertEquals(AuditLevel.Metadata, p.levelOf(req("kubectl", "update", "", "pods", "status", "a", "web")));
        assertEquals(AuditLevel.Metadata, p.levelOf(req("scheduler", "create", "", "pods", "binding", "a", "web")));
        assertEquals(AuditLevel.Request, p.levelOf(req("kubectl", "create", "apps", "deployments", null, "prod", "d")));
        assertEquals(AuditLevel.Metadata, p.levelOf(req("kubectl", "create", "apps", "deployments", null, "dev", "d")));
        assertEquals(AuditLevel.RequestResponse, p.levelOf(req("kubectl", "delete", "", "pods", null, "a", "web")));
        assertEquals(AuditLevel.Metadata, p.levelOf(req("kubectl", "delete", "", "pods", null, "a", "other")));
    }

    @Test
    @DisplayName("no matching rule means None; omitStages ResponseComplete drops the event")
    void noMatchIsNone() {
        AuditPolicy p = AuditPolicy.parse("""
                apiVersion: audit.k8s.io/v1
                kind: Policy
                rules:
                - level: Metadata
                  users: ["alice"]
                - level: RequestResponse
                  users: ["bob"]
                  omitStages: ["ResponseComplete"]
                """);
        assertEquals(AuditLevel.None, p.levelOf(req("carol", "create", "", "pods", null, "a", "x")));
        assertEquals(AuditLevel.Metadata, p.levelOf(req("alice", "create", "", "pods", null, "a", "x")));
        assertEquals(AuditLevel.None, p.levelOf(req("bob", "create", "", "pods", null, "a", "x")));
    }

    @Test
    @DisplayName("an invalid policy is refused with the path of what is wrong")
    void invalidPolicies() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AuditPolicy.parse("kind: Policy\n"))
                .getMessage().contains("apiVersion audit.k8s.io/v1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AuditPolicy.parse(
                "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Loud\n")).getMessage()
                .startsWith("rules[0].level: unknown audit level \"Loud\""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AuditPolicy.parse(
                "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: None\n  users: bob\n")).getMessage()
                .startsWith("rules[0].users: must be a list"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AuditPolicy.parse("{ not yaml: ["))
                .getMessage().startsWith("the audit policy is not valid YAML"));
    }
}
