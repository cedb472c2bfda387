package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.rejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A CRD whose rules use Kubernetes' CEL libraries the way real CRDs do (Gateway API's URL and list rules,
 * resource-limit quantities, CIDR and IP fields as in CNI and load-balancer CRDs, sorted lists): the definition is
 * accepted and the writer judges objects by those rules (issue 26 item 2).
 */
class CustomObjectCelLibrariesTest {
    private static final Decisions DECISIONS = new Decisions();

    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: routes.libs.example.com}
            spec:
              group: libs.example.com
              scope: Namespaced
              names: {plural: routes, singular: route, kind: Route}
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec:
                        type: object
                        x-kubernetes-validations:
                        - rule: "!has(self.memory) || quantity(self.memory).isLessThan(quantity('1Gi'))"
                          message: "memory must be less than 1Gi"
                        - rule: "!has(self.pool) || !has(self.address) || cidr(self.pool).containsIP(self.address)"
                          messageExpression: "'address ' + self.address + ' is outside ' + self.pool"
                          fieldPath: ".address"
                        - rule: "!has(self.max__dash__surge) || self.max__dash__surge <= 5"
                          message: "max-surge is at most 5"
                        - rule: "!has(self.__namespace__) || self.__namespace__ != 'kube-system'"
                          message: "namespace may not be kube-system"
                        properties:
                          max-surge: {type: integer}
                          namespace: {type: string}
                          memory:
                            type: string
                            x-kubernetes-validations:
                            - rule: "isQuantity(self) && quantity(self).sign() > 0"
                              message: "memory must be a positive quantity"
                          pool:
                            type: string
                            x-kubernetes-validations:
                            - rule: "isCIDR(self) && cidr(self).prefixLength() >= 16"
                              message: "pool must be a CIDR of /16 or longer"
                            - rule: "!isCIDR(self) || string(cidr(self).masked()) == self"
                              messageExpression: "'pool must be written as ' + string(cidr(self).masked())"
                          address:
                            type: string
                            x-kubernetes-validations:
                            - rule: "isIP(self) && ip.isCanonical(self) && ip(self).family() == 4"
                              message: "address must be a canonical IPv4 address"
                          priorities:
                            type: array
                            items: {type: integer}
                            x-kubernetes-validations:
                            - rule: "self.isSorted() && (self.size() == 0 || self.min() >= 0)"
                              message: "priorities must be sorted and non-negative"
                          filters:
                            type: array
                            items:
                              type: object
                              properties:
                                type: {type: string}
                                redirect: {type: string}
                            x-kubernetes-validations:
                            - rule: >-
                                self.all(f, !has(f.redirect)
                                || isURL(f.redirect) && url(f.redirect).getScheme() in ['http', 'https'])
                              message: "redirects must be http or https URLs"
                            - rule: "self.filter(f, f.type == 'RequestRedirect').size() <= 1"
                              message: "at most one RequestRedirect filter"
                          hostname:
                            type: string
                            x-kubernetes-validations:
                            - rule: "self.findAll('[0-9]+').size() <= 1"
                              message: "hostname may hold one number"
                          gatewayName:
                            type: string
                            x-kubernetes-validations:
                            - rule: "!format.dns1123Label().validate(self).hasValue()"
                              messageExpression: "format.dns1123Label().validate(self).value().join(', ')"
            """;

    @BeforeAll
    static void defineKind() {
        CustomResourceDefinition crd = DECISIONS.created(Decisions.parse(CustomResourceDefinition.class, CRD));
        CustomKinds.define(crd);
    }

    private static CustomObject route(String name, String spec) {
        String yaml = "apiVersion: libs.example.com/v1\nkind: Route\nmetadata: {name: " + name
                + ", namespace: default}\nspec: " + spec + "\n";
        return (CustomObject) KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8),
                CustomKinds.byApiVersion("libs.example.com/v1", "Route").orElseThrow().info(), FieldValidation.STRICT,
                null);
    }

    @Test
    @DisplayName("CRD-28 a CRD whose rules use quantity, CIDR, IP, URL, list, regex and format functions, and "
            + "properties by their escaped CEL names (max__dash__surge, __namespace__), is accepted, and an object "
            + "meeting them is stored")
    void validObject() {
        DECISIONS.created(route("ok", "{memory: 512Mi, pool: 10.1.0.0/16, address: 10.1.2.3, priorities: [1, 2, 2, 5], "
                + "filters: [{type: RequestRedirect, redirect: 'https://example.com/login'}, {type: Mirror}], "
                + "hostname: web-1.example.com, gatewayName: edge-1, max-surge: 2, namespace: team}"));
    }

    @Test
    @DisplayName("CRD-28 the writer judges objects by the library rules: each failing rule is a cause at its field "
            + "with its message or messageExpression")
    void failingObject() {
        List<String> causes = rejected(DECISIONS.create(route("bad", "{memory: 2Gi, pool: 10.1.0.1/8, "
                + "address: 192.168.0.1, priorities: [3, 1], filters: [{type: RequestRedirect, redirect: "
                + "'ftp://example.com/'}, {type: RequestRedirect}], hostname: web-1-2, gatewayName: Edge_1, "
                + "max-surge: 9, namespace: kube-system}")));
        assertEquals(List.of(
                "spec: Invalid value: \"object\": memory must be less than 1Gi",
                "spec.address: Invalid value: \"object\": address 192.168.0.1 is outside 10.1.0.1/8",
                "spec: Invalid value: \"object\": max-surge is at most 5",
                "spec: Invalid value: \"object\": namespace may not be kube-system",
                "spec.pool: Invalid value: \"string\": pool must be a CIDR of /16 or longer",
                "spec.pool: Invalid value: \"string\": pool must be written as 10.0.0.0/8",
                "spec.priorities: Invalid value: \"array\": priorities must be sorted and non-negative",
                "spec.filters: Invalid value: \"array\": redirects must be http or https URLs",
                "spec.filters: Invalid value: \"array\": at most one RequestRedirect filter",
                "spec.hostname: Invalid value: \"string\": hostname may hold one number",
                "spec.gatewayName: Invalid value: \"string\": a lowercase RFC 1123 label must consist of lower case "
                        + "alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. "
                        + "'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"),
                causes);
        List<String> small = rejected(DECISIONS.create(route("small", "{memory: '-1', address: '::1'}")));
        assertEquals(List.of("spec.memory: Invalid value: \"string\": memory must be a positive quantity",
                "spec.address: Invalid value: \"string\": address must be a canonical IPv4 address"), small);
    }

    @Test
    @DisplayName("CRD-29 a library rule that cannot compile (wrong argument types, a function Kubernetes lacks) "
            + "refuses the CRD; one that fails at run time is a cause naming the rule")
    void uncompilableAndFailingRules() {
        String bad = CRD.replace("routes.libs.example.com", "paths.libs.example.com")
                .replace("plural: routes, singular: route, kind: Route", "plural: paths, singular: path, kind: Path")
                .replace("quantity(self.memory).isLessThan(quantity('1Gi'))", "quantity(self.memory) < quantity('1Gi')")
                .replace("cidr(self).prefixLength() >= 16", "math.greatest(cidr(self).prefixLength(), 16) == 16");
        String all = String.join("\n",
                rejected(DECISIONS.create(Decisions.parse(CustomResourceDefinition.class, bad))));
        String spec = "spec.versions[0].schema.openAPIV3Schema.properties[spec]";
        assertTrue(all.contains(spec + ".x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule"
                + "{Rule:\"!has(self.memory) || quantity(self.memory) < quantity('1Gi')\""), all);
        assertTrue(all.contains("compilation failed: ERROR: <input>:1:"), all);
        assertTrue(all.contains("found no matching overload for '_<_' applied to "
                + "'(kubernetes.Quantity, kubernetes.Quantity)'"), all);
        assertTrue(all.contains(spec + ".properties[pool].x-kubernetes-validations[0].rule: Invalid value: "), all);
        assertTrue(all.contains("undeclared reference to 'math'"), all);

        List<String> runtime = rejected(DECISIONS.create(route("odd", "{pool: 10.1.0.0/16, address: 'not-an-ip'}")));
        assertEquals(2, runtime.size(), runtime.toString());
        assertTrue(runtime.get(0).startsWith("spec: Invalid value: \"object\": "), runtime.toString());
        assertTrue(runtime.get(0).contains("IP Address \"not-an-ip\" parse error during conversion from string: "
                + "ParseAddr(\"not-an-ip\"): unable to parse IP"), runtime.toString());
        assertTrue(runtime.get(0).endsWith(" evaluating rule: !has(self.pool) || !has(self.address) || "
                + "cidr(self.pool).containsIP(self.address)"), runtime.toString());
        assertEquals("spec.address: Invalid value: \"string\": address must be a canonical IPv4 address",
                runtime.get(1));
    }
}
